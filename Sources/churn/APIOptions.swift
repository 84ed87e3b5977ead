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

    @Option(help: ArgumentHelp("The key's id (default: CHURN_KEY_ID).", valueName: "id"))
    var keyID: String?

    @Option(help: ArgumentHelp("The issuer id of the team's keys (default: CHURN_ISSUER_ID).", valueName: "uuid"))
    var issuerID: String?

    @Option(
        help: ArgumentHelp(
            "Call this URL instead of Apple's for the environment (a proxy, a test server). https, or http to 127.0.0.1 only.",
            valueName: "url"
        )
    )
    var baseURL: String?

    @Option(help: ArgumentHelp("Tries per request on 429, 5xx, a malformed page or a network failure.", valueName: "n"))
    var maxAttempts: Int = 6

    @Option(
        help: ArgumentHelp(
            "The most seconds spent waiting between the tries of one request, Retry-After included.",
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
    /// - Throws: `ValidationError` naming what is missing or unreadable, never quoting the key.
    func credentials(bundleID: String?) throws -> APICredentials {
        let environment = ProcessInfo.processInfo.environment
        func value(_ option: String?, _ variable: String, _ flag: String) throws -> String {
            if let option, !option.isEmpty { return option }
            if let fromEnvironment = environment[variable], !fromEnvironment.isEmpty { return fromEnvironment }
            throw ValidationError("\(flag) (or \(variable)) is required to call the App Store Server API.")
        }
        let keyID = try value(keyID, Self.keyIDVariable, "--key-id")
        let issuerID = try value(issuerID, Self.issuerIDVariable, "--issuer-id")
        let bundleID = try value(bundleID, Self.bundleIDVariable, "--bundle-id")
        let text: String
        if let path = keyFile ?? environment[Self.keyFileVariable].flatMap({ $0.isEmpty ? nil : $0 }) {
            text = try Self.readKeyFile(path)
        } else if let key = environment[Self.keyVariable], !key.isEmpty {
            text = key
        } else {
            throw ValidationError(
                "--key-file (or \(Self.keyFileVariable), or the key itself in \(Self.keyVariable)) is required to call the App Store Server API."
            )
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
