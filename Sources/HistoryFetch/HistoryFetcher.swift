import AppStoreServerAPI
import Foundation
import Gzip
import Logging
import PGClient
import Store

/// Fetches ranges of the notification history into an exports directory, page by page, so that a fetch stopped at
/// any moment (SIGKILL included) resumes at the first page it did not keep.
///
/// Each page with notifications becomes one line of a gzip JSON Lines file (one gzip member per page, the format
/// `churn load` reads), written under a temporary name and made durable before the range's `fetch_checkpoints` row
/// records the page and the next page's token. On resume the temporary file is cut back to the length recorded with
/// the last kept page, and the pages after it are requested once each. A file takes ``pagesPerFile`` pages (500, up to
/// 10,000 notifications, unless set), then gets its final name and the next one begins, so a long backfill loads in
/// files of bounded size.
///
/// The caller holds ``AdvisoryLockKey/fetch`` (scoped to the schema) for the whole fetch: two fetches never write the
/// same range, and a `running` row found then belongs to a fetch that is gone.
package final class HistoryFetcher {
    private let connection: PGConnection
    private let checkpoints: FetchCheckpoints
    /// The exports directory, absolute.
    package let directory: String
    private let pagesPerFile: Int
    private let logger: Logger

    /// How far before the end of the last successful range a fetch without a range starts again: an hour, so a
    /// notification the history lists a little late is not missed (the load stores it once anyway).
    package static let overlapMilliseconds: Int64 = 3_600_000

    /// How far inside the history Apple keeps a clamped start stays: Apple refuses a start even a moment too old.
    package static let retentionMarginMilliseconds: Int64 = 600_000

    /// - Parameters:
    ///   - directory: the exports directory (created if missing); recorded with each range.
    ///   - pagesPerFile: pages per file, at least 1.
    /// - Throws: ``FetchError/writeFailed(path:reason:)`` when the directory cannot be created.
    package init(connection: PGConnection, directory: String, pagesPerFile: Int = 500, logger: Logger) throws {
        self.connection = connection
        self.checkpoints = FetchCheckpoints(connection: connection)
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw FetchError.writeFailed(path: directory, reason: (error as NSError).localizedDescription)
        }
        self.directory = url.resolvingSymlinksInPath().path
        self.pagesPerFile = max(1, pagesPerFile)
        self.logger = logger
    }

    // MARK: - Which ranges

    /// The ranges a fetch without `--from`/`--to` works on, in order: the unfinished ranges of `scope` in this
    /// directory (oldest first), then, once they are done, one from the end of the scope's last successful range
    /// (less ``overlapMilliseconds``) to `now`, or over the whole history Apple keeps when none succeeded yet.
    ///
    /// Unfinished ranges that ended before the history Apple keeps are marked `abandoned` (nothing of them is left
    /// to fetch) and skipped.
    /// - Returns: what each range's fetch did.
    /// - Throws: ``AppStoreServerAPIError``, ``FetchError``, ``PGError``; the ranges fetched before stay fetched.
    package func fetchSinceLastSuccess(
        scope: HistoryScope,
        client: AppStoreServerAPIClient,
        now: Int64
    ) async throws -> [FetchedRange] {
        var results: [FetchedRange] = []
        for checkpoint in try checkpoints.unfinished(scope: scope, directory: directory) {
            if checkpoint.endDate <= now - scope.retentionMilliseconds {
                try checkpoints.finish(
                    id: checkpoint.id, status: "abandoned",
                    error: "the range ended before the history Apple keeps; a later range fetches what is left"
                )
                logger.warning(
                    "an unfinished history range fell out of Apple's history and is abandoned",
                    metadata: ["fetch.checkpoint": "\(checkpoint.id)"]
                )
                continue
            }
            results.append(try await fetch(checkpoint, client: client))
        }
        let earliest = now - scope.retentionMilliseconds + Self.retentionMarginMilliseconds
        let start = max(
            try checkpoints.lastSucceededEnd(scope: scope).map { $0 - Self.overlapMilliseconds } ?? earliest, earliest)
        if start < now {
            let checkpoint = try checkpoints.begin(scope: scope, startDate: start, endDate: now, directory: directory)
            results.append(try await fetch(checkpoint, client: client))
        }
        return results
    }

    /// Fetches `[startDate, endDate)`: resumes the unfinished range of `scope` in this directory with exactly these
    /// bounds, if there is one, else the one with the same start that ends the latest before `endDate` and then the
    /// rest as a range of its own, else starts a new one.
    ///
    /// A range asked to end today ends at the moment of the run (``HistoryRangeOptions``' `--to` stops at now), so a
    /// run stopped and run again the same way asks for a later end: it goes on with the range the first run began,
    /// whose pages and file are kept, instead of starting another beside it and leaving the first half written.
    /// - Returns: what each range's fetch did, in order (two when a shorter range was resumed).
    /// - Throws: ``AppStoreServerAPIError``, ``FetchError``, ``PGError``.
    package func fetch(
        scope: HistoryScope,
        startDate: Int64,
        endDate: Int64,
        client: AppStoreServerAPIClient
    ) async throws -> [FetchedRange] {
        let unfinished = try checkpoints.unfinished(scope: scope, directory: directory)
        if let exact = unfinished.last(where: { $0.startDate == startDate && $0.endDate == endDate }) {
            return [try await fetch(exact, client: client)]
        }
        let shorter = unfinished.filter { $0.startDate == startDate && $0.endDate > startDate && $0.endDate < endDate }
            .max { ($0.endDate, $0.id) < ($1.endDate, $1.id) }
        var results: [FetchedRange] = []
        var restStart = startDate
        if let shorter {
            logger.info(
                "resuming the unfinished range with the same start; the rest of the range follows as a range of its own",
                metadata: ["fetch.checkpoint": "\(shorter.id)", "fetch.end": "\(shorter.endDate)"]
            )
            results.append(try await fetch(shorter, client: client))
            restStart = shorter.endDate
        }
        let rest = try checkpoints.begin(scope: scope, startDate: restStart, endDate: endDate, directory: directory)
        results.append(try await fetch(rest, client: client))
        return results
    }

    // MARK: - One range

    /// Fetches the pages of a range that it does not hold yet, and records it `succeeded`, or `failed` with the
    /// error that stopped it.
    private func fetch(_ checkpoint: FetchCheckpoint, client: AppStoreServerAPIClient) async throws -> FetchedRange {
        // The blocking calls (libpq, fsync) hold a thread of their own, never one of the cooperative pool.
        try await withTaskExecutorPreference(ConnectionExecutor()) {
            do {
                return try await fetchPages(checkpoint, client: client)
            } catch {
                try? checkpoints.finish(id: checkpoint.id, status: "failed", error: String(describing: error))
                throw error
            }
        }
    }

    private func fetchPages(_ checkpoint: FetchCheckpoint, client: AppStoreServerAPIClient) async throws
        -> FetchedRange
    {
        var state = checkpoint
        var result = FetchedRange(
            checkpointID: state.id, startDate: state.startDate, endDate: state.endDate,
            resumedAfterPages: state.pages
        )
        logger.info(
            state.pages > 0 ? "resuming a history range" : "fetching a history range",
            metadata: [
                "fetch.checkpoint": "\(state.id)", "fetch.start": "\(state.startDate)", "fetch.end": "\(state.endDate)",
                "fetch.pagesKept": "\(state.pages)",
            ]
        )
        var request = NotificationHistoryRequest(startDate: state.startDate, endDate: state.endDate)
        request.notificationType = state.scope.notificationType
        request.notificationSubtype = state.scope.notificationSubtype
        request.onlyFailures = state.scope.onlyFailures ? true : nil

        var file = try openPart(&state, result: &result)
        var hasRestarted = false
        do {
            while let current = file, !state.hasLastPage {
                if state.partPages >= pagesPerFile {
                    try close(current, into: &result)
                    state.filePart += 1
                    try startPart(&state)
                    file = try openPart(&state, result: &result)
                    continue
                }
                let page: NotificationHistoryPage
                do {
                    page = try await client.notificationHistoryPage(request, paginationToken: state.paginationToken) {
                        malformed in
                        try keepMalformed(malformed, checkpoint: state, result: &result)
                    }
                } catch let error as AppStoreServerAPIError
                    where error.isPaginationTokenRefused && state.paginationToken != nil && !hasRestarted
                {
                    // A token that expired while the fetch was stopped: the range starts over; the load stores each
                    // notification once, so the pages fetched twice cost only time.
                    logger.warning(
                        "Apple refused the saved pagination token; the range starts over from its first page",
                        metadata: ["fetch.checkpoint": "\(state.id)", "fetch.error": "\(error)"]
                    )
                    hasRestarted = true
                    result.restarted = true
                    try close(current, into: &result)
                    state.filePart += 1
                    state.paginationToken = nil
                    try startPart(&state)
                    file = try openPart(&state, result: &result)
                    continue
                }
                if page.count > 0 {
                    try current.append(try Self.member(page.body))
                }
                FaultPoint.reach("fetch.page-written")
                state.paginationToken = page.nextToken
                state.hasLastPage = !page.hasMore
                state.pages += 1
                state.notifications += Int64(page.count)
                state.partPages += 1
                state.partNotifications += Int64(page.count)
                state.partBytes = current.length
                try checkpoints.keepPage(state)
                FaultPoint.reach("fetch.page-committed")
                result.pages += 1
                result.notifications += Int64(page.count)
                logger.debug(
                    "history page kept",
                    metadata: [
                        "fetch.checkpoint": "\(state.id)", "fetch.page": "\(state.pages)",
                        "fetch.notifications": "\(page.count)", "fetch.attempts": "\(page.attempts)",
                    ]
                )
            }
        } catch {
            // A part that got no page yet is not left behind as an empty temporary file: the next run makes it again.
            if let file, file.length == 0 { file.discard() }
            throw error
        }
        if let file { try close(file, into: &result) }
        try checkpoints.finish(id: state.id, status: "succeeded", error: nil)
        result.totalPages = state.pages
        result.totalNotifications = state.notifications
        logger.info(
            "history range fetched",
            metadata: [
                "fetch.checkpoint": "\(state.id)", "fetch.pages": "\(result.pages)",
                "fetch.notifications": "\(result.notifications)", "fetch.files": "\(result.files.count)",
            ]
        )
        return result
    }

    /// Opens the current part's file at its recorded length; nil when the last page is kept and its file already has
    /// its final name. A part already renamed moves on to the next part; a part whose file is lost gives back its
    /// pages, which are fetched again from the part's first token.
    private func openPart(_ state: inout FetchCheckpoint, result: inout FetchedRange) throws -> HistoryPartFile? {
        while true {
            switch try HistoryPartFile.open(
                directory: directory, name: state.fileName(part: state.filePart),
                partialName: state.partialFileName(part: state.filePart), committedLength: state.partBytes
            ) {
            case .opened(let file):
                return file
            case .alreadyComplete:
                if state.hasLastPage { return nil }
                state.filePart += 1
                try startPart(&state)
            case .lost(let reason):
                logger.warning(
                    "a history file being written is lost; its pages are fetched again",
                    metadata: ["fetch.checkpoint": "\(state.id)", "fetch.reason": "\(reason)"]
                )
                result.restarted = true
                state.pages -= state.partPages
                state.notifications -= state.partNotifications
                state.paginationToken = state.partStartToken
                try startPart(&state)
            }
        }
    }

    /// Records that the pages go to a new part, from the current token on.
    private func startPart(_ state: inout FetchCheckpoint) throws {
        state.hasLastPage = false
        state.partPages = 0
        state.partNotifications = 0
        state.partBytes = 0
        state.partStartToken = state.paginationToken
        try checkpoints.startPart(state)
    }

    /// Gives a part's file its final name, or removes it when no page had notifications.
    private func close(_ file: HistoryPartFile, into result: inout FetchedRange) throws {
        if file.length > 0 {
            try file.complete()
            result.files.append(file.path)
        } else {
            file.discard()
        }
    }

    /// Keeps a malformed answer as `quarantine/history-<id>-page-<n>-try-<k>.json` and counts it.
    private func keepMalformed(
        _ malformed: MalformedPage,
        checkpoint: FetchCheckpoint,
        result: inout FetchedRange
    ) throws {
        let quarantine = (directory as NSString).appendingPathComponent("quarantine")
        let name = "history-\(checkpoint.id)-page-\(checkpoint.pages + 1)-try-\(malformed.attempt).json"
        let path = (quarantine as NSString).appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(atPath: quarantine, withIntermediateDirectories: true)
            try Data(malformed.body).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw FetchError.writeFailed(path: path, reason: (error as NSError).localizedDescription)
        }
        try checkpoints.countMalformedPage(id: checkpoint.id)
        result.malformedPages.append(path)
        logger.warning(
            "a malformed history page is kept in quarantine and requested again",
            metadata: [
                "fetch.checkpoint": "\(checkpoint.id)", "fetch.file": "\(path)", "fetch.reason": "\(malformed.reason)",
            ]
        )
    }

    /// A page's body as one JSON Lines line in a gzip member. JSON holds raw line breaks only as white space between
    /// tokens, so they become spaces and the page stays what Apple sent.
    package static func member(_ body: [UInt8]) throws -> [UInt8] {
        var line = body.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
        line.append(0x0A)
        do {
            return try GzipMember.compress(line)
        } catch {
            throw FetchError.writeFailed(path: "a history file", reason: error.description)
        }
    }
}
