import AppStoreNotifications
import ArgumentParser

/// What every `churn query` question is asked of: an environment, as of a time.
struct QueryScope: ParsableArguments {
    @Option(help: ArgumentHelp("Environment to ask about (Production, Sandbox).", valueName: "name"))
    var environment: Environment = .production

    @Option(
        help: ArgumentHelp(
            "As of this time: YYYY-MM-DD (end of that day, UTC), ISO 8601, or Unix ms (default: latest signedDate).",
            valueName: "time"
        )
    )
    var asOf: String?

    func validate() throws {
        if let asOf { _ = try DateArgument.asOf(asOf) }
    }

    /// `--as-of` as Unix milliseconds; nil for the latest `signedDate` loaded.
    func asOfTime() throws -> Int64? {
        try asOf.map { try DateArgument.asOf($0) }
    }
}
