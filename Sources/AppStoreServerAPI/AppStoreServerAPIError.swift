/// Why a call to the App Store Server API failed. No case carries a key or a token.
package enum AppStoreServerAPIError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The private key cannot be read or cannot sign; the reason never quotes the key.
    case invalidKey(String)
    /// A setting is out of range (a base URL, a token lifetime, a retry bound).
    case invalidConfiguration(String)
    /// HTTP 401 or 403: Apple refused the token. Never retried.
    case authenticationFailed(status: Int, payload: ErrorPayload?)
    /// Another 4xx answer: Apple refused the request itself (a date out of range, an expired pagination token, …).
    case rejected(status: Int, payload: ErrorPayload?)
    /// No usable answer within the retry bounds: 429 or 5xx answers, malformed pages or network failures, `attempts`
    /// times over `seconds` seconds; `last` says what the last attempt got.
    case unavailable(attempts: Int, seconds: Int, last: String)

    /// Apple's error code of a refused request, if its body had one.
    package var errorCode: Int64? {
        switch self {
        case .authenticationFailed(_, let payload), .rejected(_, let payload): payload?.errorCode
        default: nil
        }
    }

    /// Whether Apple refused a pagination token as invalid (4000014) or expired (4000017): the range must start over.
    package var isPaginationTokenRefused: Bool {
        errorCode == 4_000_014 || errorCode == 4_000_017
    }

    package var description: String {
        switch self {
        case .invalidKey(let reason):
            return "the App Store Server API key cannot be used: \(reason)"
        case .invalidConfiguration(let reason):
            return reason
        case .authenticationFailed(let status, let payload):
            return "the App Store Server API refused the credentials (HTTP \(status)\(Self.apple(payload))). "
                + "Likely causes: a wrong key id (the id App Store Connect shows beside the key, also in the .p8 "
                + "file's name), a wrong issuer id (Users and Access > Integrations > In-App Purchase), a bundle id "
                + "that is not this team's app, a revoked key, or a key without In-App Purchase access (an App Store "
                + "Connect API key will not do)."
        case .rejected(let status, let payload):
            var text = "the App Store Server API refused the request (HTTP \(status)\(Self.apple(payload)))"
            if let hint = payload?.errorCode.flatMap(Self.hint) { text += ": \(hint)" }
            return text
        case .unavailable(let attempts, let seconds, let last):
            return "the App Store Server API gave no usable answer in \(attempts) attempt(s) over \(seconds) s "
                + "(last: \(last)); try again later"
        }
    }

    /// `, error 4000012: message` from Apple's error body.
    private static func apple(_ payload: ErrorPayload?) -> String {
        guard let payload else { return "" }
        var text = ""
        if let code = payload.errorCode { text += ", error \(code)" }
        if let message = payload.errorMessage, !message.isEmpty { text += ": \(message)" }
        return text
    }

    /// What to do about the error codes a history fetch can meet.
    private static func hint(_ code: Int64) -> String? {
        switch code {
        case 4_000_012: "the start date is older than the history Apple keeps (180 days in Production, 30 in Sandbox)"
        case 4_000_013: "the start date is after the end date"
        case 4_000_014: "the pagination token is not valid; fetch the range again from its start"
        case 4_000_015: "the start date is not valid"
        case 4_000_016: "the end date is not valid"
        case 4_000_017: "the pagination token has expired; fetch the range again from its start"
        case 4_000_018: "a notification subtype needs the notification type it belongs to"
        case 4_000_019: "a transaction id cannot be combined with a notification type"
        default: nil
        }
    }
}
