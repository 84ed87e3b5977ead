import AppStoreNotifications
import ArgumentParser
import Foundation
import Ingest
import Logging

extension Churn {
    /// `churn load FILE…`: verify and store notifications from export files.
    struct LoadCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "load",
            abstract: "Verify and store notifications from export files.",
            discussion: """
                Reads, in any mix, optionally gzip-compressed (detected from the content):
                  - JSON Lines of {"signedPayload": "<JWS>"}: what the App Store POSTs
                  - Get Notification History pages, {"notificationHistory": [...]},
                    one per line or one pretty-printed page per file
                  - bare JWS lines
                Use - to read standard input.

                Each signature is verified against Apple Root CA - G3 (or the
                --trust-root certificates) at the notification's signedDate. A
                notificationUUID is stored once: loading a file again stores nothing
                new. Bad inputs go to the quarantine table with file, line and
                reason, and the load goes on.

                Several loads can run at once, on this machine or on others: they
                decode and verify side by side and take turns only to write each
                batch (--log-level debug logs each batch's times).

                Examples:
                  churn load exports/2026-11-20.jsonl.gz
                  churn load --trust-root testCA.der --environment Sandbox sandbox.jsonl
                  zcat export.gz | churn load -
                """
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var ingest: IngestOptions

        @Argument(help: ArgumentHelp("Export files to load (- for standard input).", valueName: "file"))
        var files: [String]

        @Option(help: ArgumentHelp("Accept only this environment (Production, Sandbox).", valueName: "name"))
        var environment: Environment?

        @Flag(help: "Print no summary (errors and warnings still go to stderr).")
        var quiet = false

        func validate() throws {
            if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read once.") }
        }

        func run() async throws {
            let logger = global.makeLogger()
            for file in files where file != "-" {
                if let problem = FileAccess.problem(readingFile: file) {
                    throw CommandFailure.unreadableInput("cannot read \(file): \(problem).")
                }
            }
            let options = try ingest.loadOptions(environment: environment?.rawValue)
            let connection = try global.connectMigrated(logger: logger)
            let progress = ProgressBar(enabled: !quiet)
            let summary = try await Loader(connection: connection, options: options, logger: logger).load(files) {
                progress.update($0)
            }
            progress.finish()
            if !quiet { print(LoadReport.render(summary)) }
            if summary.rejected > ingest.maxRejects {
                Console.warn(
                    "\(summary.rejected) inputs rejected, more than --max-rejects \(ingest.maxRejects) (see table quarantine)."
                )
                throw ExitStatus.tooManyRejects.exitCode
            }
        }
    }
}
