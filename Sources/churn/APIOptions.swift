import AppStoreNotifications
import AppStoreServerAPI
import ArgumentParser
import Foundation
import Workflows

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The App Store Server API credentials and connection; shared by `fetch`, `gaps` and `nightly --fetch`.
///
/// Each credential also comes from an environment variable, so a crontab need not hold it on the command line, and
/// the key itself never does: it is read from `--key-file` (`CHURN_KEY_FILE`) or from `CHURN_KEY` (the `.p8`
/// file's text, or just its base64 body).
struct APIOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The In-App Purchase key from App Store Connect, AuthKey_<key id>.p8 (default: CHURN_KEY_FILE, or the key itself in CHURN_KEY).",
            valueName: "file"
        )
    )
    var keyFile: String?

    @Option(
        help: ArgumentHelp(
            "The key's id, shown beside the key in App Store Connect, Users and Access > Integrations > In-App Purchase (default: CHURN_KEY_ID).",
            valueName: "id"))
    var keyID: String?

    @Option(
        help: ArgumentHelp(
            "The issuer id of the team's keys, a UUID shown above the keys on that page (default: CHURN_ISSUER_ID).",
            valueName: "uuid"))
    var issuerID: String?

    @Option(
        help: ArgumentHelp(
            "Call this URL instead of Apple's for the environment (a proxy, a test server). https, or http to 127.0.0.1 only.",
            valueName: "url"
        )
    )
    var baseURL: String?

    @Option(
        help: ArgumentHelp(
            "Tries per request on 429, 5xx, Apple's retryable error codes, a malformed page or a network failure.",
            valueName: "n"))
    var maxAttempts: Int = 6

    @Option(
        help: ArgumentHelp(
            "The most seconds spent waiting between the tries of one request, Retry-After included; a Retry-After further away ends the run with 75.",
            valueName: "seconds"
        )
    )
    var maxRetryWait: Int = 300

    /// The environment variables the options fall back to.
    static let keyFileVariable = "CHURN_KEY_FILE"
    static let keyVariable = "CHURN_KEY"
    static let keyIDVariable = "CHURN_KEY_ID"
    static let issuerIDVariable = "CHURN_ISSUER_ID"
    static let bundleIDVariable = "CHURN_BUNDLE_ID"

    func validate() throws {
        if maxAttempts < 1 { throw ValidationError("--max-attempts must be at least 1.") }
        if maxRetryWait < 0 { throw ValidationError("--max-retry-wait must be 0 or more.") }
        if let baseURL {
            do {
                _ = try AppStoreServerAPIClient.checkedBaseURL(baseURL)
            } catch {
                throw ValidationError("--base-url: \(error).")
            }
        }
    }

    /// The key and ids, from the options or their environment variables; warns when the key file is readable by
    /// other users.
    /// - Parameter bundleID: `--bundle-id`, if given.
    /// - Throws: `ValidationError` naming everything missing at once (so one run shows all there is to set), an
    ///   issuer id that is not a UUID, or a key that cannot be read; never quoting the key.
    func credentials(bundleID: String?) throws -> APICredentials {
        let environment = ProcessInfo.processInfo.environment
        var missing: [String] = []
        func value(_ option: String?, _ variable: String, _ flag: String) -> String {
            if let option, !option.isEmpty { return option }
            if let fromEnvironment = environment[variable], !fromEnvironment.isEmpty { return fromEnvironment }
            missing.append("\(flag) (or \(variable))")
            return ""
        }
        let keyID = value(keyID, Self.keyIDVariable, "--key-id")
        let issuerID = value(issuerID, Self.issuerIDVariable, "--issuer-id")
        let bundleID = value(bundleID, Self.bundleIDVariable, "--bundle-id")
        let keyPath = keyFile ?? environment[Self.keyFileVariable].flatMap({ $0.isEmpty ? nil : $0 })
        let inlineKey = environment[Self.keyVariable].flatMap { $0.isEmpty ? nil : $0 }
        if keyPath == nil, inlineKey == nil {
            missing.append("--key-file (or \(Self.keyFileVariable), or the key itself in \(Self.keyVariable))")
        }
        guard missing.isEmpty else {
            throw ValidationError(
                "the App Store Server API needs " + missing.joined(separator: ", ")
                    + "; App Store Connect shows the key id and the issuer id under Users and Access > Integrations > "
                    + "In-App Purchase.")
        }
        guard UUID(uuidString: issuerID) != nil else {
            throw ValidationError(
                "--issuer-id (or \(Self.issuerIDVariable)) '\(issuerID)' is not a UUID: the issuer id looks like "
                    + "57246542-96fe-1a63-e053-0824d011072a and is shown above the keys in App Store Connect.")
        }
        let text: String
        if let keyPath {
            text = try Self.readKeyFile(keyPath)
        } else {
            text = inlineKey ?? ""
        }
        do {
            return try APICredentials(privateKeyPEM: text, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
        } catch {
            throw ValidationError("\(error).")
        }
    }

    /// The retry bounds.
    func retryPolicy() throws -> RetryPolicy {
        try RetryPolicy(maxAttempts: maxAttempts, maxWaiting: .seconds(maxRetryWait))
    }

    /// `--base-url`, else Apple's URL for `environment`.
    func resolvedBaseURL(environment: String) throws -> String {
        if let baseURL { return baseURL }
        guard let known = Environment(rawValue: environment), let url = AppStoreServerAPIClient.baseURL(for: known)
        else {
            throw ValidationError("--environment must be Production or Sandbox to call the App Store Server API.")
        }
        return url
    }

    /// Reads a key file, warning when its mode lets other users read it.
    private static func readKeyFile(_ path: String) throws -> String {
        if let problem = FileAccess.problem(reading: path) {
            throw ValidationError("cannot read the key file \(path): \(problem).")
        }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & (S_IRGRP | S_IROTH) != 0 {
            Console.warn(
                "the key file \(path) is readable by other users (mode \(String(info.st_mode & 0o777, radix: 8))): "
                    + "anyone who reads it can call the App Store Server API as your team; chmod 600 \(path)"
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the key file \(path): it cannot be read as a file.")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
