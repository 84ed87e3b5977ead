import Analysis
import AnalysisStore
import EmbeddedPostgres
import Foundation
import HistoryFetch
import Ingest
import Logging
import PGClient
import Repair
import Reports
import Store

/// The nightly run, under the nightly lock: fetch the history (when asked), load the export files not loaded before,
/// rebuild the episodes they touched, write the dated report and point `latest` at it (`churn nightly`).
package struct NightlyWorkflow {
    package struct Inputs {
        /// Export files and directories.
        package var paths: [String]
        /// Which files of a directory to load (shell patterns).
        package var glob: [String]
        package var options: LoadOptions
        /// The fetch to run first; its directory is loaded with the paths. Nil: no fetch.
        package var fetch: FetchJob?
        package var reportsRoot: String
        package var environment: String
        /// The most rejected inputs a run may have and still succeed.
        package var maxRejects: Int
        /// Whether a run that stores no new notification fails (``WorkflowError/noNewData(_:)``).
        package var expectsNewData: Bool
        /// Seconds to wait for another nightly run to release the lock.
        package var lockTimeout: Double
        /// The repair to run once the episodes are rebuilt; the history files it fetches are loaded and analysed in
        /// the same run. Nil: no repair.
        package var repair: RepairJob?
        /// The user's exchange rates (`--exchange-rates FILE`), for the summary's one figure of what is at stake;
        /// nil for none.
        package var exchangeRates: ExchangeRates?
        /// Grace changes the user states (`--grace-change`), for `grace_change.csv`.
        package var graceChanges: [GraceChange.Stated]

        package init(
            paths: [String], glob: [String], options: LoadOptions, fetch: FetchJob?, reportsRoot: String,
            environment: String, maxRejects: Int, expectsNewData: Bool, lockTimeout: Double, repair: RepairJob? = nil,
            exchangeRates: ExchangeRates? = nil, graceChanges: [GraceChange.Stated] = []
        ) {
            self.repair = repair
            self.exchangeRates = exchangeRates
            self.graceChanges = graceChanges
            self.paths = paths
            self.glob = glob
            self.options = options
            self.fetch = fetch
            self.reportsRoot = reportsRoot
            self.environment = environment
            self.maxRejects = maxRejects
            self.expectsNewData = expectsNewData
            self.lockTimeout = lockTimeout
        }
    }

    /// What the run has done so far, as it happens, in this order.
    package enum Event {
        /// The history was fetched.
        case fetched([FetchedRange])
        /// The fetch failed; the run goes on with what is on disk and ends with this error.
        case fetchFailed(any Error)
        /// Files of the directories that no `glob` pattern picks (`matched`: how many files were picked).
        case unmatchedFiles([String], matched: Int)
        /// Files loaded before are loaded again: inputs they refused may pass with this run's options.
        case loadingAgain([String])
        /// Files left for the next run: they changed in the last minutes and their last line has no newline, so an
        /// exporter is likely still writing them.
        case stillBeingWritten([String])
        /// The files are about to be loaded, in this order.
        case loading([String])
        /// A batch of the load was written.
        case loadProgress(LoadProgress)
        /// The files were loaded.
        case loaded(LoadSummary)
        /// No file needed loading; `skipped` were loaded before.
        case nothingToLoad(skipped: Int)
        /// Files loaded before, not loaded again because a load with this run's options already refused the same
        /// inputs: those inputs still stand refused for a reason an option decides (a still-wrong `--bundle-id` or
        /// `--trust-root`). They count in this run's rejects.
        case stillRefused([StillRefused])
        /// Uncertain subscriptions were checked against Apple's status; the history files fetched are loaded next.
        case repaired(RepairJob.Summary)
        /// The repair failed; the run goes on with what it has and ends with this error.
        case repairFailed(any Error)
    }

    /// A file loaded before whose inputs still stand refused for reasons an option decides.
    package struct StillRefused: Sendable, Equatable {
        package var file: String
        /// Inputs by reason (`wrong_bundle_id`, …), in reason order.
        package var reasons: [(reason: String, inputs: Int)]
        package var inputs: Int { reasons.reduce(0) { $0 + $1.inputs } }

        package static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.file == rhs.file && lhs.reasons.elementsEqual(rhs.reasons) { $0 == $1 }
        }
    }

    package struct Result {
        /// The episodes rebuilt.
        package var analysis: EpisodeAnalyzer.Summary
        /// The report written and the name `latest` points at; nil when nothing is loaded yet.
        package var report: (written: WrittenReport, latestName: String)?
        /// Inputs rejected this run, not counting those refused before and again, plus those of files loaded before
        /// that still stand refused with this run's options (``Event/stillRefused(_:)``).
        package var rejected: Int
        /// Whether more inputs were rejected than the run allows.
        package var hasTooManyRejects: Bool
        /// Why the run did not fully succeed, the first reason first: the fetch's error, the repair's, too many
        /// rejects, or no new data when it was expected. Nil: it did.
        package var failure: (any Error)?
    }

    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Runs the night's work.
    /// - Parameter event: told of each stage as it happens.
    /// - Throws: ``WorkflowError/nightlyLockBusy(waitedSeconds:)``; `PGError`, `IngestError`, `ReportsError`,
    ///   `EmbeddedClusterError`. A failed fetch does not throw: the run goes on and ``Result/failure`` holds it.
    package func run(_ inputs: Inputs, event: (Event) -> Void) async throws -> Result {
        let writer = try target.connectMigrated(logger: logger)
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.nightly, on: writer)
        guard try writer.advisoryLock(lock, timeout: inputs.lockTimeout, awaiting: "nightly run", logger: logger) else {
            throw WorkflowError.nightlyLockBusy(waitedSeconds: Int(inputs.lockTimeout))
        }
        defer { _ = try? writer.advisoryUnlock(lock) }
        try Loader.markAbandonedRuns(connection: writer)

        // The history first; a failed fetch leaves what is on disk to load and report.
        var fetchError: (any Error)?
        var loadPaths = inputs.paths
        if let fetch = inputs.fetch {
            do {
                event(.fetched(try await fetch.run(connection: writer, logger: logger, now: Self.now())))
            } catch {
                event(.fetchFailed(error))
                fetchError = error
            }
            loadPaths.append(fetch.directory)
        }
        var load = try await loadNewFiles(loadPaths, inputs, writer: writer, event: event)

        let reader = try target.connect(logger: logger)
        var analysis = try EpisodeAnalyzer(writer: writer, reader: reader, logger: logger)
            .analyze(environment: inputs.environment)

        // Then the episodes the notifications leave uncertain, against Apple's status; what it fetches is loaded and
        // analysed at once, so the report is written from Apple's own notifications.
        var repairError: (any Error)?
        if let repair = inputs.repair {
            do {
                let summary = try await repair.run(connection: writer, logger: logger, now: Self.now())
                event(.repaired(summary))
                if !summary.files.isEmpty {
                    let repaired = try await loadNewFiles(summary.files, inputs, writer: writer, event: event)
                    load.rejected += repaired.rejected
                    load.newNotifications += repaired.newNotifications
                    let again = try EpisodeAnalyzer(writer: writer, reader: reader, logger: logger)
                        .analyze(environment: inputs.environment)
                    analysis.subscriptionsRebuilt += again.subscriptionsRebuilt
                }
            } catch {
                event(.repairFailed(error))
                repairError = error
            }
        }
        let store = StoredDataset(connection: writer)
        var report: (written: WrittenReport, latestName: String)?
        if let asOf = try store.latestSignedDate() {
            let root = Report.root(
                URL(fileURLWithPath: inputs.reportsRoot, isDirectory: true), environment: inputs.environment)
            let name = Report.directoryName(asOf: asOf)
            FaultPoint.reach("nightly.before-report")
            let written = try ReportWriting.write(
                .stored, environment: inputs.environment, asOf: asOf, store: store, reader: reader, root: root,
                directory: root.appendingPathComponent(name, isDirectory: true), isAsOfGiven: false,
                exchangeRates: inputs.exchangeRates, graceChanges: inputs.graceChanges)
            try LatestLink.point(in: root, at: name)
            // A run killed just before this one may still have held its lock at the start; mark it now.
            try Loader.markAbandonedRuns(connection: writer)
            report = (written, name)
        }
        load.rejected += load.stillRefused
        let rejectsFailure = WorkflowError.rejects(load.rejected, allowed: inputs.maxRejects)
        var failure: (any Error)? = fetchError ?? repairError ?? rejectsFailure
        // New data is a file of this run's environment analysed since the last nightly run that got this far, by any
        // process (every query brings the episodes up to date), that stored a notification of the environment,
        // whichever run loaded it: a Production and a Sandbox nightly over one exports directory each see the
        // other's loads as new, a query that analysed this run's files first takes nothing from it, and a run killed
        // after its analysis leaves its files new for the next. Counted by every run that gets here, with or
        // without --expect-new.
        let foundNew = try EpisodeAnalyzer.countNewNotifications(environment: inputs.environment, on: writer)
        if failure == nil, inputs.expectsNewData, !foundNew {
            failure = WorkflowError.noNewData(
                .init(
                    paths: inputs.paths, glob: inputs.glob, newFiles: load.newFiles, skipped: load.skipped,
                    unmatched: load.unmatched, waiting: load.waiting, resent: load.resent,
                    environment: inputs.environment, storedOfOtherEnvironments: load.newNotifications))
        }
        return Result(
            analysis: analysis, report: report, rejected: load.rejected, hasTooManyRejects: rejectsFailure != nil,
            failure: failure)
    }

    /// What the loading stage did.
    private struct LoadOutcome {
        var newFiles = 0
        var skipped = 0
        var unmatched = 0
        var rejected = 0
        /// Inputs of files skipped as loaded before that still stand refused for a reason an option decides.
        var stillRefused = 0
        /// Files left for the next run, still being written.
        var waiting: [String] = []
        /// Files skipped whose content was first loaded under another path, each said as `x has the same content as
        /// y (load run n)`.
        var resent: [String] = []
        /// Notifications the run stored that were not stored before (a killed load's rows of a file count too).
        var newNotifications = 0
    }

    /// Loads the files under `paths` not loaded before, by content, and those loaded before whose refused inputs
    /// may pass with this run's options.
    private func loadNewFiles(
        _ paths: [String], _ inputs: Inputs, writer: PGConnection, event: (Event) -> Void
    ) async throws -> LoadOutcome {
        // A directory named twice (the fetch's, given as a path too) loads once.
        var seen: Set<String> = []
        let found = try ExportFiles.partition(paths, glob: inputs.glob)
        let files = found.matched.filter {
            seen.insert(FileAccess.canonicalPath($0)).inserted
        }
        if !found.unmatched.isEmpty { event(.unmatchedFiles(found.unmatched, matched: files.count)) }

        // Skip what was loaded before, by content, unless inputs it refused may pass with today's options.
        let sourceFiles = SourceFiles(connection: writer)
        var outcome = LoadOutcome(unmatched: found.unmatched.count)
        var mending: [String] = []
        var waiting: [String] = []
        var stillRefused: [StillRefused] = []
        // The new files and those loaded again, in the order found.
        var toLoad: [String] = []
        let now = Self.now()
        for file in files {
            if ExportFiles.isStillBeingWritten(file, now: now) {
                waiting.append(file)
                continue
            }
            let sha256 = try ExportFiles.sha256(ofFile: file)
            guard let first = try sourceFiles.firstStored(sha256: sha256) else {
                outcome.newFiles += 1
                toLoad.append(file)
                continue
            }
            // Inputs it refused for a reason an option decides: loaded again when no load of it ran with this run's
            // options, else they still stand refused. A file whose refusals another file resolved (by storing their
            // notifications) is loaded again too: its inputs are then further copies, as a clean load counts them.
            let refusals = try sourceFiles.mendableRefusals(sha256: sha256)
            if refusals.exist, try !sourceFiles.hasLoaded(sha256: sha256, acceptance: inputs.options.acceptance) {
                mending.append(file)
                toLoad.append(file)
                continue
            }
            outcome.skipped += 1
            if first.path != file, FileAccess.canonicalPath(first.path) != FileAccess.canonicalPath(file) {
                outcome.resent.append("\(file) has the same content as \(first.path) (load run \(first.run))")
            }
            if !refusals.standing.isEmpty {
                stillRefused.append(StillRefused(file: file, reasons: refusals.standing))
            }
        }
        outcome.waiting = waiting
        outcome.stillRefused = stillRefused.reduce(0) { $0 + $1.inputs }
        logger.info(
            "nightly run",
            metadata: [
                "files.new": .stringConvertible(outcome.newFiles),
                "files.skipped": .stringConvertible(outcome.skipped),
                "files.reloaded": .stringConvertible(mending.count),
            ]
        )
        if !waiting.isEmpty { event(.stillBeingWritten(waiting)) }
        if !stillRefused.isEmpty { event(.stillRefused(stillRefused)) }
        if !mending.isEmpty { event(.loadingAgain(mending)) }
        guard !toLoad.isEmpty else {
            event(.nothingToLoad(skipped: outcome.skipped))
            return outcome
        }
        event(.loading(toLoad))
        let summary = try await Loader(connection: writer, options: inputs.options, logger: logger).load(toLoad) {
            event(.loadProgress($0))
        }
        // Inputs refused before and again are not news: a file loaded again reports only what is new.
        outcome.rejected = summary.newlyRejected
        outcome.newNotifications = summary.loaded + summary.resumed
        event(.loaded(summary))
        return outcome
    }

    /// The current time, Unix milliseconds.
    private static func now() -> Int64 {
        Int64(Date().timeIntervalSince1970 * 1000)
    }
}
