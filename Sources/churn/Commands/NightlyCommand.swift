import Analysis
import AnalysisStore
import AppStoreNotifications
import AppStoreServerAPI
import ArgumentParser
import Foundation
import HistoryFetch
import Ingest
import Logging
import PGClient
import Reports
import Store

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

                Exit codes: 0 success, 1 failure, 2 more rejects than --max-rejects
                (the report is still written), 5 nothing new with --expect-new,
                64 bad usage, 66 unreadable input, 69 database unreachable (or,
                with --fetch, the App Store Server API after its retries),
                75 another run holds the lock, 77 credentials refused (by the
                database or by the App Store Server API).

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

        @OptionGroup var global: GlobalOptions
        @OptionGroup var ingest: IngestOptions

        @OptionGroup(title: "Fetching from Apple") var api: APIOptions

        @Argument(help: ArgumentHelp("Export files or directories of exports.", valueName: "path"))
        var paths: [String] = []

        @Flag(help: "First fetch the notification history since the last fetch from the App Store Server API.")
        var fetch = false

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

        @Flag(help: "Exit with status 5 when no new export file arrived since the last run.")
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
            if let problem = FileAccess.problem(creatingIn: reportsRoot) {
                throw ValidationError("--reports-root \(reportsRoot): \(problem).")
            }
            if fetch {
                try FetchCommand.validate(environment: environment.rawValue)
                if fetchDirectory == nil {
                    throw ValidationError("--fetch needs a directory for the history: --out DIR, or a directory path.")
                }
            } else {
                if paths.isEmpty { throw ValidationError("name the export files or directories to load.") }
                if out != nil { throw ValidationError("--out is for --fetch.") }
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
            let logger = global.makeLogger()
            for path in paths {
                if let problem = FileAccess.problem(reading: path) {
                    throw CommandFailure.unreadableInput("cannot read \(path): \(problem).")
                }
            }
            let options = try ingest.loadOptions(environment: nil)
            let fetching = try fetch ? fetchPlan() : nil
            let writer = try global.connectMigrated(logger: logger)
            let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.nightly, on: writer)
            guard try writer.advisoryLock(lock, timeout: lockTimeout) else {
                throw CommandFailure(
                    status: .lockBusy,
                    message: "another nightly run holds the lock (waited \(Int(lockTimeout)) s); try again later"
                )
            }
            defer { _ = try? writer.advisoryUnlock(lock) }
            try Loader.markAbandonedRuns(connection: writer)

            // The history first; a failed fetch leaves what is on disk to load and report.
            var fetchError: (any Error)?
            var loadPaths = paths
            if let fetching {
                do {
                    let ranges = try await fetching.run(
                        connection: writer, logger: logger, now: Int64(Date().timeIntervalSince1970 * 1000)
                    )
                    say(FetchReport.render(ranges))
                } catch {
                    Console.warn("the fetch failed: \(error). Loading and reporting what is on disk.")
                    fetchError = error
                }
                loadPaths.append(fetching.directory)
            }
            // A directory named twice (the fetch's, given as a path too) loads once.
            var seen: Set<String> = []
            let found = try ExportFiles.partition(loadPaths, glob: glob)
            let files = found.matched.filter {
                seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path).inserted
            }
            // Files a directory holds that --glob does not pick: said with --verbose, and when nothing else is there.
            if !found.unmatched.isEmpty {
                let names = found.unmatched.prefix(5).map { ($0 as NSString).lastPathComponent }
                say(
                    "not loaded: \(found.unmatched.count) file(s) matching no --glob pattern ("
                        + glob.joined(separator: " ") + "): " + names.joined(separator: ", ")
                        + (found.unmatched.count > names.count ? ", …" : ""),
                    attention: files.isEmpty
                )
            }

            // Skip what was loaded before, by content, unless inputs it refused may pass with today's options.
            let sourceFiles = SourceFiles(connection: writer)
            var newFiles: [String] = []
            var mending: [String] = []
            // The new files and those loaded again, in the order found.
            var toLoad: [String] = []
            var skipped = 0
            for file in files {
                let sha256 = try ExportFiles.sha256(ofFile: file)
                if try !sourceFiles.hasLoaded(sha256: sha256) {
                    newFiles.append(file)
                    toLoad.append(file)
                } else if try sourceFiles.hasMendableRefusals(sha256: sha256, acceptance: options.acceptance) {
                    mending.append(file)
                    toLoad.append(file)
                } else {
                    skipped += 1
                }
            }
            logger.info(
                "nightly run",
                metadata: [
                    "files.new": .stringConvertible(newFiles.count), "files.skipped": .stringConvertible(skipped),
                    "files.reloaded": .stringConvertible(mending.count),
                ]
            )
            var rejected = 0
            // Notifications the run stored that were not stored before (a killed load's rows of a file count too).
            var newNotifications = 0
            if !mending.isEmpty {
                say(
                    "loading again \(mending.count) file(s) whose refused inputs may pass with these options: "
                        + mending.joined(separator: ", ")
                )
            }
            if !toLoad.isEmpty {
                let progress = ProgressBar(enabled: true)
                let summary = try await Loader(connection: writer, options: options, logger: logger).load(toLoad) {
                    progress.update($0)
                }
                progress.finish()
                // Inputs refused before and again are not news: a file loaded again reports only what is new.
                rejected = summary.newlyRejected
                newNotifications = summary.loaded + summary.resumed
                say(LoadReport.render(summary), attention: rejected > 0)
            } else {
                say("no new export files (\(skipped) already loaded)")
            }

            let reader = try global.target.connect(logger: logger)
            let analysis = try EpisodeAnalyzer(writer: writer, reader: reader, logger: logger)
                .analyze(environment: environment.rawValue)
            let store = StoredDataset(connection: writer)
            guard let asOf = try store.latestSignedDate() else {
                say("nothing loaded yet: no report written", attention: rejected > 0)
                if let fetchError { throw fetchError }
                if rejected > ingest.maxRejects { throw ExitStatus.tooManyRejects.exitCode }
                try refuseWithoutNewData(
                    newFiles, skipped: skipped, unmatched: found.unmatched.count, newNotifications: newNotifications)
                return
            }
            let root = URL(fileURLWithPath: reportsRoot, isDirectory: true)
            let name = Reports.Report.directoryName(asOf: asOf)
            let directory = root.appendingPathComponent(name, isDirectory: true)
            FaultPoint.reach("nightly.before-report")
            let report = try ReportWriting.writeStored(
                environment: environment.rawValue, asOf: asOf, store: store, reader: reader, root: root,
                directory: directory)
            try LatestLink.point(in: root, at: name)
            // A run killed just before this one may still have held its lock at the start; mark it now.
            try Loader.markAbandonedRuns(connection: writer)
            say(
                "rebuilt \(analysis.subscriptionsRebuilt) subscription(s); wrote \(directory.path)/ "
                    + "(\(report.outcomes.episodes) episodes, \(report.outcomes.recovered) recovered, "
                    + "\(report.outcomes.expired) expired); \(root.appendingPathComponent("latest").path) -> \(name)"
            )
            if rejected > ingest.maxRejects {
                Console.warn(
                    "\(rejected) inputs rejected, more than --max-rejects \(ingest.maxRejects) (see table quarantine).")
            }
            if let fetchError { throw fetchError }
            if rejected > ingest.maxRejects { throw ExitStatus.tooManyRejects.exitCode }
            try refuseWithoutNewData(
                newFiles, skipped: skipped, unmatched: found.unmatched.count, newNotifications: newNotifications)
        }

        /// The fetch `--fetch` asks for: since the last successful one, into ``fetchDirectory``.
        /// - Throws: `ValidationError` for missing or unreadable credentials.
        private func fetchPlan() throws -> FetchJob {
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

        /// Prints a line of what the run did: with --verbose, or when it needs a look.
        private func say(_ text: String, attention: Bool = false) {
            if verbose || attention { print(text) }
        }

        /// With --expect-new, a run that stored no new notification fails with status 5: no new file, or new files
        /// holding only notifications stored before (yesterday's export sent again under another name).
        private func refuseWithoutNewData(
            _ newFiles: [String], skipped: Int, unmatched: Int, newNotifications: Int
        ) throws {
            guard expectNew, newNotifications == 0 else { return }
            if newFiles.isEmpty, skipped == 0 {
                throw CommandFailure(
                    status: .noNewExports,
                    message: "no new export file arrived (--expect-new): no file under "
                        + paths.joined(separator: ", ")
                        + (unmatched > 0
                            ? " matches --glob \(glob.joined(separator: " ")) (\(unmatched) other file(s) there)"
                            : " at all")
                )
            }
            if newFiles.isEmpty {
                throw CommandFailure(
                    status: .noNewExports,
                    message: "no new export file arrived (--expect-new): \(skipped) file(s) under "
                        + paths.joined(separator: ", ") + " were all loaded before"
                )
            }
            throw CommandFailure(
                status: .noNewExports,
                message: "no new notification arrived (--expect-new): the \(newFiles.count) new file(s) under "
                    + paths.joined(separator: ", ") + " hold only notifications stored before"
            )
        }
    }
}
