import Foundation

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
    /// Apple answered one of its retryable errors (``retryableErrorCodes``) to every one of `attempts` tries, or
    /// until the next wait would pass the retry bound: `status` and `payload` are its last answer.
    case stillFailing(status: Int, payload: ErrorPayload?, attempts: Int)
    /// The server's `Retry-After` named an instant (`until`, Unix milliseconds) later than the retry bound allows
    /// waiting (`maxWaitingSeconds`): `status` and `payload` are the answer that named it. Nothing was waited for.
    case retryLater(until: Int64, status: Int, payload: ErrorPayload?, maxWaitingSeconds: Int)

    /// The error codes Apple documents as worth trying again, tried again like a 5xx within the retry policy:
    /// AccountNotFoundRetryableError (4040002), AppNotFoundRetryableError (4040004),
    /// OriginalTransactionIdNotFoundRetryableError (4040006) and GeneralInternalRetryableError (5000001), each
    /// "an error response that indicates … but you can try again".
    ///
    /// [Error codes](https://developer.apple.com/documentation/appstoreserverapi/error-codes)
    package static let retryableErrorCodes: Set<Int64> = [4_040_002, 4_040_004, 4_040_006, 5_000_001]

    /// Apple's error code of a refused request, if its body had one.
    package var errorCode: Int64? {
        switch self {
        case .authenticationFailed(_, let payload), .rejected(_, let payload), .stillFailing(_, let payload, _),
            .retryLater(_, _, let payload, _):
            payload?.errorCode
        default: nil
        }
    }

    /// Whether Apple's answer is about the one request rather than the service: a 4xx other than 429 (an unknown
    /// transaction id, an account not found even after the retries). Another request may well succeed.
    package var isAboutTheRequest: Bool {
        switch self {
        case .rejected(let status, _), .stillFailing(let status, _, _): (400..<500).contains(status) && status != 429
        default: false
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
        case .stillFailing(let status, let payload, let attempts):
            return "the App Store Server API still answered HTTP \(status)\(Self.apple(payload)) after "
                + "\(attempts) attempt(s); Apple documents the error as one to try again later"
        case .retryLater(let until, let status, let payload, let maxWaitingSeconds):
            return "the App Store Server API asked not to be called again before \(Self.iso8601(until)) "
                + "(HTTP \(status)\(Self.apple(payload)), Retry-After), a longer wait than the retry bound of "
                + "\(maxWaitingSeconds) s allows"
        }
    }

    /// Unix milliseconds as an ISO 8601 instant in UTC, to the second: `2026-05-05T12:00:00Z`.
    package static func iso8601(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        // Up to the next second: the instant named is never earlier than Apple's.
        let seconds = (Double(milliseconds) / 1000).rounded(.up)
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
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
        case 4_040_010: "Apple finds no such transaction id in this environment (is it another environment?)"
        default: nil
        }
    }
}
