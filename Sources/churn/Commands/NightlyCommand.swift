import Analysis
import AnalysisStore
import AppStoreNotifications
import AppStoreServerAPI
import ArgumentParser
import Foundation
import HistoryFetch
import Ingest
import Repair
import Reports
import Workflows

extension Churn {
    /// `churn nightly`: the one command for cron.
    struct NightlyCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "nightly",
            abstract: "The one command for cron: load new exports, rebuild what changed, write the report.",
            discussion: """
                Takes export files and directories (a directory's files whose names
                match --glob). Files whose content (SHA-256) was loaded before are
                skipped without being read again, unless that load refused some of
                their inputs for a reason an option decides (an untrusted chain,
                --bundle-id, --max-record-bytes) and this run's options differ: such a
                file is loaded again, so fixing the option brings its refused inputs
                in, and only inputs not refused before count as rejects. Then it
                migrates, loads and
                verifies the new files, rebuilds the episodes of the subscriptions
                they touched, writes <reports-root>/<as-of date>/ and points
                <reports-root>/latest at it; summary.md shows what changed since the
                previous report.

                With --fetch it first fetches the notification history from the App
                Store Server API since the last successful fetch (or, the first time,
                the whole history Apple keeps) into --out DIR (default: the first
                directory given), exactly as `churn fetch` does, and loads DIR with
                the rest. The credentials come from the environment (CHURN_KEY_FILE or
                CHURN_KEY, CHURN_KEY_ID, CHURN_ISSUER_ID, CHURN_BUNDLE_ID) or from the
                options of `churn fetch`. A fetch that fails still lets the run load
                and report what is on disk; the run then exits with the fetch's code,
                and the next run resumes the fetch where it stopped.

                With --repair too, once the episodes are rebuilt it checks the
                subscriptions the notifications leave uncertain against Apple's status
                and fetches the history of those Apple sees otherwise into the same
                directory, exactly as `churn repair` does (--limit, --concurrency,
                --stale-days), then loads and analyses what it fetched before the
                report is written. A repair that fails is handled as a failed fetch.

                Two runs never overlap: the second waits up to --lock-timeout
                seconds, then exits with 75. Nothing is printed on stdout unless
                you ask (--verbose) or inputs were rejected, so cron mails only
                when something needs a look; logs go to stderr (--log-format json
                for one JSON object per line); the progress bar shows only on a
                terminal.

                A missing export goes unnoticed unless you ask: with --expect-new,
                a run that stores no new notification (no new file, or new files
                holding only notifications stored before, such as yesterday's
                export sent again under another name) still rebuilds and reports,
                then says so on stderr and exits with 5, which cron mails and
                monitoring can alert on.

                --exchange-rates FILE: your own rates, so that summary.md states what
                is at stake as one figure (see `churn report --help`).

                More rejects than --max-rejects end with 2, after the report is
                written. With --fetch, 69 and 75 may come from Apple's API: 69 after
                its retries, 75 when it asked to wait past --max-retry-wait (run
                again after the time named; the fetch resumes).

                \(ExitStatus.paragraph(exitStatuses))

                crontab:
                  15 3 * * *  CHURN_HOME=/var/lib/churn churn nightly --expect-new \\
                      --reports-root /var/lib/churn/reports /srv/exports
                with the history fetched from Apple (crontab variables; the key file
                mode 600, readable by the cron user only):
                  CHURN_HOME=/var/lib/churn
                  CHURN_KEY_FILE=/etc/churn/AuthKey_2X9R4HXF34.p8
                  CHURN_KEY_ID=2X9R4HXF34
                  CHURN_ISSUER_ID=57246542-96fe-1a63-e053-0824d011072a
                  CHURN_BUNDLE_ID=com.example.app
                  15 3 * * *  churn nightly --fetch \\
                      --reports-root /var/lib/churn/reports /var/lib/churn/exports
                """
        )

        /// The codes a nightly run can end with.
        static let exitStatuses: [ExitStatus] = [
            .success, .failure, .tooManyRejects, .noNewExports, .usage, .inputUnreadable, .unavailable,
            .temporaryFailure, .credentialsRefused, .configuration,
        ]

        @OptionGroup var global: GlobalOptions
        @OptionGroup var ingest: IngestOptions

        @OptionGroup(title: "Fetching from Apple") var api: APIOptions

        @Argument(help: ArgumentHelp("Export files or directories of exports.", valueName: "path"))
        var paths: [String] = []

        @Flag(help: "First fetch the notification history since the last fetch from the App Store Server API.")
        var fetch = false

        @Flag(help: "With --fetch: check uncertain subscriptions against Apple's status and fetch what differs.")
        var repair = false

        @OptionGroup(title: "Repairing with Apple") var repairOptions: RepairOptions

        @OptionGroup var exchangeRates: ExchangeRatesOption

        @OptionGroup var graceChanges: GraceChangeOption

        @Option(
            help: ArgumentHelp(
                "With --fetch: the directory the history files go to (default: the first directory given).",
                valueName: "dir"
            )
        )
        var out: String?

        @Option(
            help: ArgumentHelp(
                "Which files of a directory to load (shell pattern; repeatable).",
                valueName: "pattern"
            )
        )
        var glob: [String] = ["*.json", "*.jsonl", "*.jws", "*.json.gz", "*.jsonl.gz", "*.jws.gz"]

        @Option(help: ArgumentHelp("Directory of dated reports; `latest` points at the newest.", valueName: "dir"))
        var reportsRoot: String = "reports"

        @Option(help: ArgumentHelp("Environment to analyze and report (Production, Sandbox).", valueName: "name"))
        var environment: Environment = .production

        @Flag(
            help: """
                Exit with status 5 when no new notification arrived since the last run (no new export file, or new \
                files holding only notifications stored before).
                """)
        var expectNew = false

        @Flag(help: "Print what the run did on stdout (by default only rejected inputs are shown).")
        var verbose = false

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Seconds to wait for another nightly run to finish.", valueName: "seconds")
        )
        var lockTimeout: Double = 60

        func validate() throws {
            if lockTimeout < 0 { throw ValidationError("--lock-timeout must be 0 or more, not \(lockTimeout).") }
            if fetch {
                try FetchCommand.validate(environment: environment.rawValue)
                if fetchDirectory == nil {
                    throw ValidationError("--fetch needs a directory for the history: --out DIR, or a directory path.")
                }
            } else {
                if paths.isEmpty { throw ValidationError("name the export files or directories to load.") }
                if out != nil { throw ValidationError("--out is for --fetch.") }
                if repair { throw ValidationError("--repair needs --fetch (its credentials and directory).") }
            }
            if repair && ingest.noVerify {
                throw ValidationError("--repair verifies Apple's answers: it cannot run with --no-verify.")
            }
        }

        /// Where `--fetch` writes: `--out`, else the first directory among the paths.
        private var fetchDirectory: String? {
            if let out { return out }
            return paths.first { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            }
        }

        func run() async throws {
            // A directory that cannot be written is not a usage mistake: said in one line, before any work.
            if let problem = FileAccess.problem(creatingIn: reportsRoot) {
                throw ValidationError("--reports-root \(reportsRoot): \(problem).")
            }
            let logger = global.makeLogger()
            try FileAccess.requireReadable(paths)
            let inputs = NightlyWorkflow.Inputs(
                paths: paths, glob: glob, options: try ingest.loadOptions(environment: nil),
                fetch: try fetch ? fetchJob() : nil, reportsRoot: reportsRoot, environment: environment.rawValue,
                maxRejects: ingest.maxRejects, expectsNewData: expectNew, lockTimeout: lockTimeout,
                repair: try repair ? repairJob() : nil, exchangeRates: try exchangeRates.load(),
                graceChanges: try graceChanges.changes()
            )
            var progress: ProgressBar?
            let result = try await NightlyWorkflow(target: global.target, logger: logger).run(inputs) { event in
                switch event {
                case .fetched(let ranges):
                    say(FetchReport.render(ranges))
                case .fetchFailed(let error):
                    Console.warn("the fetch failed: \(error). Loading and reporting what is on disk.")
                case .unmatchedFiles(let unmatched, let matched):
                    // Files --glob does not pick: said with --verbose, and when nothing else is there.
                    let names = unmatched.prefix(5).map { ($0 as NSString).lastPathComponent }
                    say(
                        "not loaded: \(unmatched.count) file(s) matching no --glob pattern ("
                            + glob.joined(separator: " ") + "): " + names.joined(separator: ", ")
                            + (unmatched.count > names.count ? ", …" : ""),
                        attention: matched == 0
                    )
                case .stillBeingWritten(let files):
                    say(
                        "left for the next run: \(files.count) file(s) changed in the last minutes whose last line "
                            + "has no newline (still being written?): " + files.joined(separator: ", ")
                    )
                case .loadingAgain(let files):
                    say(
                        "loading again \(files.count) file(s) whose refused inputs may pass with these options: "
                            + files.joined(separator: ", ")
                    )
                case .loading:
                    progress = ProgressBar(enabled: true)
                case .loadProgress(let update):
                    progress?.update(update)
                case .loaded(let summary):
                    progress?.finish()
                    say(LoadReport.render(summary), attention: summary.newlyRejected > 0)
                case .nothingToLoad(let skipped):
                    say("no new export files (\(skipped) already loaded)")
                case .stillRefused(let files):
                    Console.warn(Self.stillRefusedWarning(files))
                case .repaired(let summary):
                    say(RepairReport.render(summary))
                case .repairFailed(let error):
                    Console.warn("the repair failed: \(error). Reporting what is stored.")
                }
            }
            guard let (written, name) = result.report else {
                say("nothing loaded yet: no report written", attention: result.rejected > 0)
                if let failure = result.failure { throw failure }
                return
            }
            if let problem = written.previousReportProblem { Console.warnPreviousReportUnreadable(problem) }
            let root = written.directory.deletingLastPathComponent()
            let outcomes = written.report.outcomes
            say(
                "rebuilt \(result.analysis.subscriptionsRebuilt) subscription(s); wrote \(written.directory.path)/ "
                    + "(\(outcomes.episodes) episodes, \(outcomes.recovered) recovered, "
                    + "\(outcomes.expired) expired); \(root.appendingPathComponent("latest").path) -> \(name)"
            )
            if result.hasTooManyRejects {
                Console.warnTooManyRejects(
                    WorkflowError.tooManyRejects(rejected: result.rejected, limit: ingest.maxRejects))
            }
            if let failure = result.failure { throw failure }
        }

        /// What a run says each night while files loaded before still have inputs refused with this run's options.
        static func stillRefusedWarning(_ files: [NightlyWorkflow.StillRefused]) -> String {
            let inputs = files.reduce(0) { $0 + $1.inputs }
            var options: [String] = []
            var reasons: [String: Int] = [:]
            for file in files {
                for (reason, count) in file.reasons {
                    reasons[reason, default: 0] += count
                    if let option = Rejection.Reason(rawValue: reason)?.option, !options.contains(option) {
                        options.append(option)
                    }
                }
            }
            let names = files.prefix(3).map(\.file).joined(separator: ", ") + (files.count > 3 ? ", …" : "")
            return "\(inputs) input(s) of \(files.count) file(s) loaded before still stand refused with this run's "
                + "options ("
                + reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "): " + names + ". Fix " + (options.isEmpty ? "the options" : options.joined(separator: ", "))
                + " and the next run loads them again, or `churn quarantine clear --file FILE` what will never pass."
        }

        /// The fetch `--fetch` asks for: since the last successful one, into ``fetchDirectory``.
        /// - Throws: `ValidationError` for missing or unreadable credentials.
        private func fetchJob() throws -> FetchJob {
            let credentials = try api.credentials(bundleID: ingest.bundleID)
            guard let directory = fetchDirectory else {
                throw ValidationError("--fetch needs a directory for the history: --out DIR, or a directory path.")
            }
            return FetchJob(
                credentials: credentials, baseURL: try api.resolvedBaseURL(environment: environment.rawValue),
                retry: try api.retryPolicy(),
                scope: HistoryScope(environment: environment.rawValue, bundleID: credentials.bundleID),
                range: nil, directory: directory, pagesPerFile: 500, lockTimeout: lockTimeout
            )
        }

        /// The repair `--repair` asks for, into ``fetchDirectory``, verified as the load verifies.
        /// - Throws: `ValidationError` for missing or unreadable credentials or trust roots.
        private func repairJob() throws -> RepairJob {
            let fetch = try fetchJob()
            guard let verifier = try ingest.makeVerifier() else {
                throw ValidationError("--repair verifies Apple's answers: it cannot run with --no-verify.")
            }
            return RepairJob(
                credentials: fetch.credentials, baseURL: fetch.baseURL, retry: fetch.retry,
                environment: environment.rawValue, directory: fetch.directory, limit: repairOptions.limit,
                concurrency: repairOptions.concurrency, staleDays: repairOptions.staleDays, lockTimeout: lockTimeout,
                verifier: verifier
            )
        }

        /// Prints a line of what the run did: with --verbose, or when it needs a look.
        private func say(_ text: String, attention: Bool = false) {
            if verbose || attention { print(text) }
        }
    }
}
