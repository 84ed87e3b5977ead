import AppStoreNotifications
import ArgumentParser
import Foundation
import Ingest
import Logging
import PGClient
import Store
import X509

extension Churn {
    /// `churn load FILE…`: verify and store notifications from export files.
    struct Load: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify and store notifications from export files.",
            discussion: """
                Reads, in any mix and optionally gzip-compressed (detected from the content):
                  - JSON Lines of {"signedPayload": "<JWS>"} (what the App Store POSTs to your endpoint),
                  - Get Notification History pages ({"notificationHistory": [{"signedPayload": …}, …]}),
                    one per line or one pretty-printed document per file,
                  - bare JWS lines.
                Use - to read standard input.

                Every notification's signature is verified against Apple Root CA - G3 (or the --trust-root
                certificates) at the notification's signedDate. A notificationUUID is stored once: loading the same
                file again stores nothing new. Bad inputs are quarantined (table quarantine) with file, line and
                reason, and the load goes on.

                Examples:
                  churn load exports/2026-11-20.jsonl.gz
                  churn load --trust-root testCA.der --environment Sandbox sandbox-export.jsonl
                  zcat export.gz | churn load -
                """
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("Export files to load (- for standard input).", valueName: "file"))
        var files: [String]

        @Option(
            name: .customLong("trust-root"),
            help: ArgumentHelp(
                "A trusted root certificate (DER or PEM); repeatable. Replaces the default Apple Root CA - G3.",
                valueName: "file"
            )
        )
        var trustRoots: [String] = []

        @Flag(help: "Store without verifying signatures (for exports verified upstream). Recorded on the load run.")
        var noVerify = false

        @Flag(help: "Also verify the nested transaction and renewal tokens (the outer signature already covers them).")
        var verifyNested = false

        @Option(help: ArgumentHelp("Accept only notifications for this bundle id.", valueName: "id"))
        var bundleID: String?

        @Option(help: ArgumentHelp("Accept only this environment (Production, Sandbox).", valueName: "name"))
        var environment: String?

        @Option(help: ArgumentHelp("Exit with status 2 when more inputs than this are rejected.", valueName: "n"))
        var maxRejects: Int = 0

        @Option(help: ArgumentHelp("Largest record (line or document) read, in bytes.", valueName: "bytes"))
        var maxRecordBytes: Int = 16 << 20

        @Option(help: ArgumentHelp("Bytes of each rejected input kept in the quarantine.", valueName: "bytes"))
        var quarantineRawBytes: Int = 64 << 10

        @Option(help: ArgumentHelp("Threads that decode and verify (default: one per core).", valueName: "n"))
        var workers: Int = ProcessInfo.processInfo.activeProcessorCount

        @Flag(help: "Print no summary (errors and warnings still go to stderr).")
        var quiet = false

        func validate() throws {
            if noVerify && !trustRoots.isEmpty {
                throw ValidationError("--no-verify and --trust-root contradict each other: choose one.")
            }
            if maxRejects < 0 { throw ValidationError("--max-rejects must be 0 or more.") }
            if maxRecordBytes < 1024 { throw ValidationError("--max-record-bytes must be at least 1024.") }
            if quarantineRawBytes < 0 { throw ValidationError("--quarantine-raw-bytes must be 0 or more.") }
            if workers < 1 { throw ValidationError("--workers must be at least 1.") }
            if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read once.") }
            for file in files where file != "-" && !FileManager.default.isReadableFile(atPath: file) {
                throw ValidationError("cannot read \(file): no such file, or not readable.")
            }
        }

        func run() throws {
            let logger = global.makeLogger()
            let verifier = try makeVerifier()
            if verifier == nil {
                Console.warn("signatures are NOT verified (--no-verify): the stored data is marked unverified.")
            }
            let connection = try global.connectMigrated(logger: logger)
            var options = LoadOptions(
                policy: AcceptancePolicy(
                    verifier: verifier, verifiesNestedTokens: verifyNested, bundleID: bundleID, environment: environment
                ),
                workers: workers,
                command: CommandLine.arguments.joined(separator: " ")
            )
            options.maxRecordBytes = maxRecordBytes
            options.quarantineRawBytes = quarantineRawBytes
            let progress = ProgressBar(enabled: !quiet)
            let summary = try Loader(connection: connection, options: options, logger: logger).load(files) {
                progress.update($0)
            }
            progress.finish()
            if !quiet { print(LoadReport.render(summary)) }
            if summary.rejected > maxRejects {
                Console.warn("\(summary.rejected) inputs rejected, more than --max-rejects \(maxRejects) (see table quarantine).")
                throw ExitStatus.tooManyRejects.exitCode
            }
        }

        private func makeVerifier() throws -> JWSVerifier? {
            if noVerify { return nil }
            if trustRoots.isEmpty { return try JWSVerifier() }
            var roots: [Certificate] = []
            for path in trustRoots {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ValidationError("cannot read trust root \(path).")
                }
                roots += try JWSVerifier.trustRoots(parsing: Array(data), from: path)
            }
            return JWSVerifier(trustRoots: roots)
        }
    }
}
