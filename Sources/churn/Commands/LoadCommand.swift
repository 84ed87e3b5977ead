import AppStoreNotifications
import ArgumentParser
import Foundation
import Workflows

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
            try FileAccess.requireReadable(files.filter { $0 != "-" }, asFiles: true)
            let inputs = LoadWorkflow.Inputs(
                files: files, options: try ingest.loadOptions(environment: environment?.rawValue),
                maxRejects: ingest.maxRejects
            )
            let progress = ProgressBar(enabled: !quiet)
            let result = try await LoadWorkflow(target: global.target, logger: logger).run(inputs) {
                progress.update($0)
            }
            progress.finish()
            if !quiet { print(LoadReport.render(result.summary)) }
            if let failure = result.failure {
                Console.warnTooManyRejects(failure)
                throw failure
            }
        }
    }
}
