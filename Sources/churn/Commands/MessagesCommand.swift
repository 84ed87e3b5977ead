import ArgumentParser
import Ingest
import Workflows

extension Churn {
    /// `churn messages`: the app's own log of the App Store's billing-issue sheet.
    struct MessagesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "messages",
            abstract: "Load the app's log of the App Store's billing-issue sheet.",
            discussion: """
                The App Store sends no notification when its billing-issue sheet shows:
                only the app knows, through StoreKit's Message API. A log the app
                keeps of each time it showed, deferred or suppressed the sheet lets
                the report compare the retry days the sheet was shown with the days
                it was not (message_log.csv), and experiment arms with each other
                (message_experiment.csv). README, "Logging the billing-issue sheet",
                says what to log.
                """,
            subcommands: [LoadCommand.self]
        )

        struct LoadCommand: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "load",
                abstract: "Store the events of message-log files.",
                usage: "churn messages load [<options>] <file> ...",
                discussion: """
                    One event per line, as CSV with a header row or as JSON Lines,
                    optionally gzip-compressed (detected from the content):
                      original_transaction_id,app_account_token,at,action,arm
                      2000000123456789,,2026-03-01T09:30:00Z,shown,
                      {"app_account_token":"7f5c…","at":1772357400000,"action":"deferred"}
                    original_transaction_id or app_account_token (a UUID): at least
                    one. at: an ISO 8601 instant with its zone, or Unix milliseconds.
                    action: shown, deferred or suppressed. arm: an experiment arm's
                    name, if any. Other columns are ignored. Use - for standard input.

                    Each event is stored once: loading a file again adds nothing. Bad
                    lines go to the quarantine table with file, line and reason, and the
                    load goes on. The next report links the events to the episodes.

                    Examples:
                      churn messages load sheet-log-2026-03.csv
                      zcat sheet-log.jsonl.gz | churn messages load -
                    """
            )

            @OptionGroup var global: GlobalOptions

            @Argument(help: ArgumentHelp("Message-log files to load (- for standard input).", valueName: "file"))
            var files: [String]

            @Option(help: ArgumentHelp("Exit with status 2 when more lines than this are refused.", valueName: "n"))
            var maxRejects: Int = 0

            @Flag(help: "Print no summary (errors and warnings still go to stderr).")
            var quiet = false

            func validate() throws {
                if files.filter({ $0 == "-" }).count > 1 {
                    throw ValidationError("standard input (-) can be read once.")
                }
                if maxRejects < 0 { throw ValidationError("--max-rejects must be 0 or more, not \(maxRejects).") }
            }

            func run() throws {
                try FileAccess.requireReadable(files.filter { $0 != "-" }, asFiles: true)
                let result = try MessageLogWorkflow(target: global.target, logger: global.makeLogger())
                    .load(files, maxRejects: maxRejects)
                if !quiet { print(Self.render(result.summary)) }
                if let failure = result.failure {
                    Console.warnTooManyRejects(failure)
                    throw failure
                }
            }

            /// The summary as people read it: per file its events, new and already stored, and refused lines with the
            /// first few named.
            static func render(_ summary: MessageLogSummary) -> String {
                var lines: [String] = []
                for file in summary.files {
                    lines.append(
                        "\(file.path): \(count(file.events, "event")), \(file.stored) new, "
                            + "\(file.duplicates) already stored, \(file.rejected) refused")
                    for sample in file.sampleRejections { lines.append("  refused \(sample)") }
                    if file.rejected > file.sampleRejections.count {
                        lines.append("  … \(file.rejected - file.sampleRejections.count) more in table quarantine")
                    }
                }
                lines.append(
                    "load run \(summary.loadRunID): \(summary.files.count) file(s), \(count(summary.events, "event")), "
                        + "\(summary.stored) new, \(summary.duplicates) already stored, \(summary.rejected) refused")
                return lines.joined(separator: "\n")
            }

            private static func count(_ count: Int, _ noun: String) -> String {
                count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
            }
        }
    }
}
