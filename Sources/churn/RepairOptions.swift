import ArgumentParser

/// How far a repair goes in one run; shared by `repair` and `nightly --repair`.
struct RepairOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The most subscriptions whose status is asked in one run.", valueName: "n"))
    var limit: Int = 100

    @Option(help: ArgumentHelp("Status requests in flight at once.", valueName: "n"))
    var concurrency: Int = 4

    @Option(
        help: ArgumentHelp(
            "Days without a notification (before the latest one stored) after which an open episode is checked; also how long a check stands.",
            valueName: "days"
        )
    )
    var staleDays: Int = 7

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1, not \(limit).") }
        if concurrency < 1 || concurrency > 16 {
            throw ValidationError("--concurrency must be from 1 to 16, not \(concurrency).")
        }
        if staleDays < 1 { throw ValidationError("--stale-days must be at least 1, not \(staleDays).") }
    }
}
