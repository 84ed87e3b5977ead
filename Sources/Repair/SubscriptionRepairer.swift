import AppStoreNotifications
import AppStoreServerAPI
import Foundation
import HistoryFetch
import Logging
import PGClient
import Store

/// The work of one ``RepairJob`` run: which checks, the statuses asked a few at a time, the histories fetched page by
/// page, each step recorded in `subscription_checks`.
final class SubscriptionRepairer {
    private let job: RepairJob
    private let checks: SubscriptionChecks
    /// The exports directory, absolute.
    private let directory: String
    private let logger: Logger
    private let now: Int64

    init(job: RepairJob, checks: SubscriptionChecks, directory: String, logger: Logger, now: Int64) {
        self.job = job
        self.checks = checks
        self.directory = directory
        self.logger = logger
        self.now = now
    }

    /// Goes on with the unfinished checks, begins new ones up to the limit, asks the pending statuses and fetches
    /// the histories of those that differ.
    func run(client: AppStoreServerAPIClient) async throws -> RepairJob.Summary {
        // The blocking calls (libpq, fsync) hold a thread of their own, never one of the cooperative pool.
        try await withTaskExecutorPreference(ConnectionExecutor()) {
            var summary = RepairJob.Summary()
            let bundleID = job.credentials.bundleID
            let unfinished = try checks.unfinished(
                environment: job.environment, bundleID: bundleID, directory: directory)
            summary.resumed = unfinished.count
            let (asOf, candidates) = try checks.candidates(
                environment: job.environment, bundleID: bundleID, staleDays: job.staleDays,
                limit: job.limit - unfinished.count)
            summary.asOf = asOf
            let begun = try checks.begin(
                candidates, environment: job.environment, bundleID: bundleID, directory: directory)
            let work = unfinished + begun
            logger.info(
                "checking uncertain subscriptions with Apple",
                metadata: [
                    "repair.resumed": "\(unfinished.count)", "repair.new": "\(begun.count)",
                    "repair.asOf": "\(asOf.map(String.init) ?? "none")",
                ]
            )
            var fetching = work.filter { $0.state == "fetching" }
            fetching += try await askStatuses(of: work.filter { $0.state == "pending" }, client: client, into: &summary)
            for check in fetching {
                switch check.historyKind {
                case .notifications: try await fetchHistory(check, client: client, into: &summary)
                case .transactions: try await readTransactions(check, client: client, into: &summary)
                }
            }
            return summary
        }
    }

    // MARK: - Statuses

    /// Asks the statuses of `pending`, ``RepairJob/concurrency`` at a time, and records each answer as it comes.
    /// - Returns: the checks whose status differs, now `fetching`.
    private func askStatuses(
        of pending: [SubscriptionCheck], client: AppStoreServerAPIClient, into summary: inout RepairJob.Summary
    ) async throws -> [SubscriptionCheck] {
        let verifier = job.verifier
        let bundleID = job.credentials.bundleID
        var differing: [SubscriptionCheck] = []
        try await withThrowingTaskGroup(of: (SubscriptionCheck, StatusAnswer).self) { group in
            var queue = pending.makeIterator()
            func ask(_ check: SubscriptionCheck) {
                group.addTask {
                    (check, try await StatusAnswer.ask(check, client: client, verifier: verifier, bundleID: bundleID))
                }
            }
            for _ in 0..<max(1, job.concurrency) {
                guard let check = queue.next() else { break }
                ask(check)
            }
            while let (check, answer) = try await group.next() {
                var history: (start: Int64, end: Int64)?
                var kind = SubscriptionCheck.HistoryKind.notifications
                if answer.verdict == .differs {
                    let retention = HistoryScope(environment: job.environment, bundleID: bundleID)
                        .retentionMilliseconds
                    let earliest = now - retention + HistoryFetcher.retentionMarginMilliseconds
                    if check.episodeStart < earliest, let windowEnd = check.retryWindowEnd {
                        // Older than Apple's notification history: the signed transactions of its retry window.
                        kind = .transactions
                        history = (check.episodeStart, windowEnd)
                    } else {
                        history = (earliest, now)
                    }
                }
                try checks.recordStatus(
                    id: check.id, verdict: answer.verdict, apple: answer.apple, error: answer.problem,
                    appleErrorCode: answer.appleErrorCode, history: history, historyKind: kind)
                FaultPoint.reach("repair.status-recorded")
                summary.verdicts[answer.verdict, default: 0] += 1
                logger.debug(
                    "status checked",
                    metadata: [
                        "repair.check": "\(check.id)", "repair.reason": "\(check.reason.rawValue)",
                        "repair.verdict": "\(answer.verdict.rawValue)",
                    ]
                )
                if let history {
                    var fetching = check
                    fetching.state = "fetching"
                    fetching.verdict = .differs
                    fetching.historyStart = history.start
                    fetching.historyEnd = history.end
                    fetching.historyKind = kind
                    differing.append(fetching)
                }
                if let next = queue.next() { ask(next) }
            }
        }
        return differing
    }

    // MARK: - History

    /// Fetches the notification history of a check's subscription into `repair-<id>.jsonl.gz`, page by page, each
    /// page durable before it is recorded; a check stopped midway goes on after its last recorded page.
    ///
    /// An error Apple answers about this subscription alone (``AppStoreServerAPIError/isAboutTheRequest``: a 404
    /// TransactionIdNotFoundError, or a retryable error that stayed through the retries) ends this check `failed`,
    /// with Apple's code, keeping the pages fetched before; the repair goes on with the next check. Every other
    /// failure (credentials, Apple unavailable, a `Retry-After` past the bound) ends the run, the check resumable.
    private func fetchHistory(
        _ check: SubscriptionCheck, client: AppStoreServerAPIClient, into summary: inout RepairJob.Summary
    ) async throws {
        var state = check
        guard let start = state.historyStart, let end = state.historyEnd else {
            throw PGError(
                kind: .unexpectedResult, message: "subscription check \(check.id) is fetching without a range")
        }
        var request = NotificationHistoryRequest(startDate: start, endDate: end)
        request.transactionId = state.originalTransactionID
        let isLastPageKept = { (check: SubscriptionCheck) in check.pages > 0 && check.paginationToken == nil }
        var file = try open(&state)
        var hasRestarted = false
        while let current = file, !isLastPageKept(state) {
            let page: NotificationHistoryPage
            do {
                page = try await client.notificationHistoryPage(request, paginationToken: state.paginationToken) {
                    malformed in
                    logger.warning(
                        "a malformed history page; requesting it again",
                        metadata: ["repair.check": "\(check.id)", "repair.reason": "\(malformed.reason)"]
                    )
                }
            } catch let error as AppStoreServerAPIError
                where error.isPaginationTokenRefused && state.paginationToken != nil && !hasRestarted
            {
                // A token that expired while the run was stopped: the history starts over, in the same file.
                logger.warning(
                    "Apple refused the saved pagination token; the subscription's history starts over",
                    metadata: ["repair.check": "\(check.id)", "repair.error": "\(error)"]
                )
                hasRestarted = true
                current.discard()
                try restart(&state)
                file = try open(&state)
                continue
            } catch let error as AppStoreServerAPIError where error.isAboutTheRequest {
                try failHistory(state, file: current, error: error, into: &summary)
                return
            }
            if page.count > 0 {
                try current.append(try HistoryFetcher.member(page.body))
            }
            FaultPoint.reach("repair.page-written")
            state.paginationToken = page.nextToken
            state.pages += 1
            state.notifications += page.count
            state.partBytes = current.length
            try checks.keepPage(state)
            FaultPoint.reach("repair.page-committed")
            summary.pages += 1
            summary.notifications += page.count
        }
        var path: String?
        if let current = file {
            if current.length > 0 {
                try current.complete()
                path = current.path
            } else {
                current.discard()
            }
        } else if state.notifications > 0 {
            path = (directory as NSString).appendingPathComponent(state.fileName)
        }
        try checks.finish(id: state.id, historyFile: path)
        summary.histories += 1
        if let path { summary.files.append(path) }
        logger.info(
            "history of a subscription whose status differs fetched",
            metadata: [
                "repair.check": "\(state.id)", "repair.pages": "\(state.pages)",
                "repair.notifications": "\(state.notifications)",
            ]
        )
    }

    /// Reads the signed transactions of a check's subscription purchased within the episode's retry window (Get
    /// Transaction History, `revision` by `revision` while `hasMore`), verifies each as the loader verifies
    /// notifications, and records the renewal purchased first (``RecoveryProof``) on the check, with how many were
    /// read. Apple orders them by the date each was last modified, so every set is read.
    ///
    /// Nothing is written to the exports directory: Apple signed these transactions, not notifications, so none is
    /// made into one. A refusal about this subscription (``AppStoreServerAPIError/isAboutTheRequest``), an answer for
    /// another app or a transaction that fails verification ends the check `failed`, the repair going on.
    private func readTransactions(
        _ check: SubscriptionCheck, client: AppStoreServerAPIClient, into summary: inout RepairJob.Summary
    ) async throws {
        guard let start = check.historyStart, let windowEnd = check.historyEnd else {
            throw PGError(
                kind: .unexpectedResult, message: "subscription check \(check.id) is fetching without a range")
        }
        let bundleID = job.credentials.bundleID
        var revision: String?
        var count = 0
        var proof: RecoveryProof?
        func fail(_ problem: String, code: Int64? = nil) throws {
            try checks.fail(id: check.id, appleErrorCode: code, error: problem, historyFile: nil)
            summary.failedHistories += 1
            logger.warning(
                "a subscription's transaction history was refused or not trusted; the repair goes on with the next",
                metadata: ["repair.check": "\(check.id)", "repair.problem": "\(problem)"]
            )
        }
        while true {
            let response: HistoryResponse
            do {
                response = try await client.transactionHistory(
                    transactionId: check.originalTransactionID, purchasedFrom: start,
                    purchasedBefore: min(windowEnd, .max - 1) + 1,
                    revision: revision)
            } catch let error as AppStoreServerAPIError where error.isAboutTheRequest {
                try fail(error.description, code: error.errorCode)
                return
            }
            if let answered = response.bundleId, answered != bundleID {
                try fail("the transaction history is for the app \(answered), not \(bundleID)")
                return
            }
            for (index, token) in (response.signedTransactions ?? []).enumerated() {
                let transaction: JWSTransactionDecodedPayload
                do {
                    transaction = try StatusAnswer.verified(
                        token, verifier: job.verifier, decode: NotificationDecoder.decodeTransaction(from:),
                        signedDate: \.signedDate)
                } catch {
                    try fail("signedTransactions[\(index)] (after \(count) verified): \(error)")
                    return
                }
                if let bundle = transaction.bundleId, bundle != bundleID {
                    try fail("signedTransactions[\(index)] is of the app \(bundle), not \(bundleID)")
                    return
                }
                count += 1
                // Apple sorts by the date a transaction was last modified: the first renewal purchased is the proof.
                if let candidate = RecoveryProof(
                    transaction, signed: token, originalTransactionID: check.originalTransactionID, start: start,
                    windowEnd: windowEnd),
                    candidate.purchaseDate < proof?.purchaseDate ?? .max
                {
                    proof = candidate
                }
            }
            guard response.hasMore == true, let next = response.revision else { break }
            revision = next
        }
        try checks.finishTransactions(id: check.id, transactions: count, proof: proof)
        summary.transactionHistories += 1
        if proof != nil { summary.recoveriesProven += 1 }
        logger.info(
            "transaction history of a subscription older than the notification history read",
            metadata: [
                "repair.check": "\(check.id)", "repair.transactions": "\(count)",
                "repair.proof": "\(proof?.transactionID ?? "none")",
            ]
        )
    }

    /// Records a history Apple refused: the pages kept so far complete the check's file (they are Apple's signed
    /// notifications, loaded like any other), and the check is `failed` with Apple's code.
    private func failHistory(
        _ state: SubscriptionCheck, file: HistoryPartFile, error: AppStoreServerAPIError,
        into summary: inout RepairJob.Summary
    ) throws {
        var path: String?
        if file.length > 0 {
            try file.complete()
            path = file.path
        } else {
            file.discard()
        }
        try checks.fail(id: state.id, appleErrorCode: error.errorCode, error: error.description, historyFile: path)
        summary.failedHistories += 1
        if let path { summary.files.append(path) }
        logger.warning(
            "Apple refused the history of a subscription; the repair goes on with the next",
            metadata: [
                "repair.check": "\(state.id)", "repair.pages": "\(state.pages)",
                "repair.appleErrorCode": "\(error.errorCode.map(String.init) ?? "none")",
            ]
        )
    }

    /// The check's file, cut back to its recorded length; nil when it was completed already. A file that is gone
    /// makes the history start over.
    private func open(_ state: inout SubscriptionCheck) throws -> HistoryPartFile? {
        switch try HistoryPartFile.open(
            directory: directory, name: state.fileName, partialName: state.partialFileName,
            committedLength: state.partBytes
        ) {
        case .opened(let file):
            return file
        case .alreadyComplete:
            return nil
        case .lost(let reason):
            logger.warning(
                "a repair's history file is lost; its history starts over",
                metadata: ["repair.check": "\(state.id)", "repair.reason": "\(reason)"]
            )
            try restart(&state)
            return try open(&state)
        }
    }

    /// Takes the check's history back to its first page.
    private func restart(_ state: inout SubscriptionCheck) throws {
        state.paginationToken = nil
        state.pages = 0
        state.notifications = 0
        state.partBytes = 0
        try checks.keepPage(state)
    }
}

/// Apple's answer for one check, verified: the verdict and what Apple said.
struct StatusAnswer: Sendable {
    var verdict: SubscriptionCheck.Verdict
    var apple: AppleStatus?
    /// Why the answer is not a status (refused, unverified, not found).
    var problem: String?
    /// Apple's error code of a refused request.
    var appleErrorCode: Int64?

    /// Asks Get All Subscription Statuses for the check's subscription and judges the answer.
    /// A request Apple answers with an error about this subscription (``AppStoreServerAPIError/isAboutTheRequest``: a
    /// 404, a retryable error that stayed through the retries) is `refused`, with Apple's code.
    /// - Throws: `AppStoreServerAPIError` about the service rather than the request (credentials refused, Apple
    ///   unavailable, a `Retry-After` past the bound).
    static func ask(
        _ check: SubscriptionCheck, client: AppStoreServerAPIClient, verifier: JWSVerifier, bundleID: String
    ) async throws -> StatusAnswer {
        let response: StatusResponse
        do {
            response = try await client.subscriptionStatuses(transactionId: check.originalTransactionID).response
        } catch let error as AppStoreServerAPIError {
            guard error.isAboutTheRequest else { throw error }
            return StatusAnswer(verdict: .refused, problem: error.description, appleErrorCode: error.errorCode)
        }
        return judge(response, check: check, verifier: verifier, bundleID: bundleID)
    }

    /// Verifies every signed item of `response` and compares the check's subscription's status with what the
    /// notifications made of its episode.
    static func judge(
        _ response: StatusResponse, check: SubscriptionCheck, verifier: JWSVerifier, bundleID: String
    ) -> StatusAnswer {
        if let answered = response.bundleId, answered != bundleID {
            return StatusAnswer(verdict: .unverified, problem: "the answer is for the app \(answered), not \(bundleID)")
        }
        let items = (response.data ?? []).flatMap { $0.lastTransactions ?? [] }
        var ours:
            (
                item: LastTransactionsItem, transaction: JWSTransactionDecodedPayload?,
                renewal: JWSRenewalInfoDecodedPayload?
            )?
        for (index, item) in items.enumerated() {
            let transaction: JWSTransactionDecodedPayload?
            let renewal: JWSRenewalInfoDecodedPayload?
            do {
                transaction = try item.signedTransactionInfo.map {
                    try verified(
                        $0, verifier: verifier, decode: NotificationDecoder.decodeTransaction(from:),
                        signedDate: \.signedDate)
                }
                renewal = try item.signedRenewalInfo.map {
                    try verified(
                        $0, verifier: verifier, decode: NotificationDecoder.decodeRenewalInfo(from:),
                        signedDate: \.signedDate)
                }
            } catch {
                return StatusAnswer(
                    verdict: .unverified, problem: "data.lastTransactions[\(index)]: \(error)")
            }
            if item.originalTransactionId == check.originalTransactionID {
                ours = (item, transaction, renewal)
            }
        }
        guard let ours else {
            return StatusAnswer(
                verdict: .notFound,
                problem: "no subscription with original transaction id \(check.originalTransactionID) in the answer")
        }
        guard let status = ours.item.status else {
            return StatusAnswer(verdict: .unverified, problem: "the subscription's item has no status")
        }
        if let signed = ours.transaction?.originalTransactionId, signed != check.originalTransactionID {
            return StatusAnswer(
                verdict: .unverified,
                problem: "the signed transaction is of \(signed), not \(check.originalTransactionID)")
        }
        let apple = AppleStatus(
            status: status, expiresDate: ours.transaction?.expiresDate,
            gracePeriodExpiresDate: ours.renewal?.gracePeriodExpiresDate,
            isInBillingRetryPeriod: ours.renewal?.isInBillingRetryPeriod
        )
        return StatusAnswer(verdict: check.expected.agrees(with: status) ? .agrees : .differs, apple: apple)
    }

    /// Parses, decodes and verifies one signed item at its own `signedDate`, as the loader verifies notifications.
    static func verified<Payload>(
        _ token: String, verifier: JWSVerifier, decode: (Data) throws -> Payload, signedDate: KeyPath<Payload, Int64?>
    ) throws -> Payload {
        let jws = try JWS.parse(token)
        let payload = try decode(jws.payload)
        guard let milliseconds = payload[keyPath: signedDate] else {
            throw JWSVerificationError(.badSignature, "the signed item has no signedDate to verify it at")
        }
        try verifier.verify(jws, at: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        return payload
    }
}
