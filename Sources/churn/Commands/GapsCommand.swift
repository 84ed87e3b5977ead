import AppStoreServerAPI
import ArgumentParser
import CivilTime
import Foundation
import HistoryFetch
import Workflows

extension Churn {
    /// `churn gaps`: what Apple's history has that the database lacks, per day.
    struct GapsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gaps",
            abstract: "List the notifications Apple's history has and the database lacks, per day.",
            usage: "churn gaps --from <when> [--to <when>] [<options>]",
            discussion: """
                --from is required. Reads Get Notification History for the range
                (nothing is written) and looks up each notificationUUID in the
                database. Prints one line per UTC day of signedDate with Apple's
                count, the stored count and the missing count, the missing UUIDs
                indented below it, then a total and the
                `churn fetch` commands that fill the holes (the load stores each
                notification once, so fetching a day again is safe).

                A notification the load refused (see the quarantine table) counts as
                missing. The credentials and --environment are those of `churn fetch`.

                Examples:
                  churn gaps --from 2026-05-01 --to 2026-05-31
                  churn gaps --from 2026-05-01 --environment Sandbox
                """
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var api: APIOptions
        @OptionGroup var range: HistoryRangeOptions

        @Option(help: ArgumentHelp("Apple's environment: Production or Sandbox.", valueName: "name"))
        var environment: String = "Production"

        @Option(help: ArgumentHelp("The app's bundle id (default: CHURN_BUNDLE_ID).", valueName: "id"))
        var bundleID: String?

        func validate() throws {
            try FetchCommand.validate(environment: environment)
            if range.from == nil { throw ValidationError("--from is required: gaps compares a range you name.") }
        }

        func run() async throws {
            let logger = global.makeLogger()
            let credentials = try api.credentials(bundleID: bundleID)
            let scope = HistoryScope(environment: environment, bundleID: credentials.bundleID)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            guard
                let bounds = try range.range(now: now, retention: scope.retentionMilliseconds, environment: environment)
            else { throw ValidationError("--from is required: gaps compares a range you name.") }
            let inputs = GapsWorkflow.Inputs(
                credentials: credentials, baseURL: try api.resolvedBaseURL(environment: environment),
                retry: try api.retryPolicy(), range: bounds
            )
            let gaps = try await GapsWorkflow(target: global.target, logger: logger).run(inputs)
            print(Self.render(gaps, environment: environment))
        }

        /// The report: a line per day, missing UUIDs indented, a total, and the fetches that repair.
        static func render(_ gaps: HistoryGaps, environment: String) -> String {
            var lines: [String] = []
            for day in gaps.days {
                lines.append("\(day.day): Apple \(day.apple), stored \(day.stored), missing \(day.missing.count)")
                lines += day.missing.map { "  \($0)" }
            }
            let incomplete = gaps.days.filter { !$0.missing.isEmpty }
            lines.append(
                "\(gaps.missing) of \(gaps.apple) notification(s) missing, on \(incomplete.count) of \(gaps.days.count) day(s)"
            )
            if gaps.undecodable > 0 {
                lines.append("\(gaps.undecodable) history item(s) could not be decoded and were not compared")
            }
            // Consecutive incomplete days make one repair range.
            var runs: [(first: String, last: String)] = []
            var previous: Int?
            for day in incomplete {
                let number = CivilDate(parsing: day.day)?.daysSinceEpoch
                if let previous, let number, number == previous + 1, let last = runs.indices.last {
                    runs[last].last = day.day
                } else {
                    runs.append((day.day, day.day))
                }
                previous = number
            }
            let sandbox = environment == "Sandbox" ? " --environment Sandbox" : ""
            for run in runs {
                lines.append(
                    "repair: churn fetch\(sandbox) --from \(run.first) --to \(run.last) --out DIR && churn nightly DIR"
                )
            }
            return lines.joined(separator: "\n")
        }
    }
}
