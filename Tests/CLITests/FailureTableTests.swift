import AppStoreServerAPI
import EmbeddedPostgres
import HistoryFetch
import Ingest
import PGClient
import Testing
import Workflows
import churn

/// The one table from the domain's errors to exit statuses (`CommandFailure(classifying:)`): each error its
/// documented status and message, and nothing left to ArgumentParser but its own errors.
@Suite struct FailureTableTests {
    static let cases: [(error: any Error & Sendable, status: churn.ExitStatus, message: String?)] = [
        (
            WorkflowError.unreadableInput(name: "/no/such", reason: "No such file or directory"), .inputUnreadable,
            "cannot read /no/such: No such file or directory."
        ),
        (
            WorkflowError.invalidInput(name: "--exchange-rates r.csv", line: 3, reason: "\"abc\" is not a rate"),
            .usage, "--exchange-rates r.csv, line 3: \"abc\" is not a rate."
        ),
        (
            WorkflowError.nothingLoaded(database: "db:5432 database churn as me"), .failure,
            "nothing is loaded yet in db:5432 database churn as me: run `churn load FILE…` first"
        ),
        (
            WorkflowError.nightlyLockBusy(waitedSeconds: 60), .temporaryFailure,
            "another nightly run holds the lock (waited 60 s); try again later"
        ),
        // The command warns of the rejects below its summary: the status says the rest.
        (WorkflowError.tooManyRejects(rejected: 3, limit: 0), .tooManyRejects, nil),
        (
            WorkflowError.noNewData(.init(paths: ["/srv"], glob: ["*.jsonl"], newFiles: 0, skipped: 2, unmatched: 0)),
            .noNewExports, "no new export file arrived (--expect-new): 2 file(s) under /srv were all loaded before"
        ),
        (
            WorkflowError.asOfBeforeData(asOf: 1_262_304_000_000, earliest: 1_735_689_600_000), .usage,
            "--as-of 2010-01-01 00:00 UTC is before the earliest notification loaded (signed 2025-01-01 00:00 UTC)"
        ),
        (
            WorkflowError.unknownQuarantineValue(option: "--file", value: "/srv/x.jsonl", known: ["x.jsonl (2)"]),
            .usage,
            "--file '/srv/x.jsonl' matches no quarantined input. The quarantine's files (paths as the load "
                + "named them), with their inputs: x.jsonl (2)."
        ),
        (
            FetchError.lockBusy(waitedSeconds: 5), .temporaryFailure,
            "another fetch holds the lock (waited 5 s); try again later"
        ),
        (
            FetchError.writeFailed(path: "/x", reason: "No space left on device"), .failure,
            "cannot write /x: No space left on device"
        ),
        (AppStoreServerAPIError.invalidConfiguration("no"), .failure, nil),
        // Apple's Retry-After past --max-retry-wait: 75, and the instant Apple named to run again after.
        (
            AppStoreServerAPIError.retryLater(
                until: 1_798_761_600_000, status: 429, payload: ErrorPayload(errorCode: 4_290_000),
                maxWaitingSeconds: 300),
            .temporaryFailure, "run the same command again after 2027-01-01T00:00:00Z and it resumes"
        ),
        (
            AppStoreServerAPIError.stillFailing(
                status: 500, payload: ErrorPayload(errorCode: 5_000_001), attempts: 6),
            .unavailable, "HTTP 500, error 5000001 after 6 attempt(s)"
        ),
        (IngestError.cannotOpen(path: "/x", reason: "gone"), .inputUnreadable, "cannot open /x: gone"),
        (IngestError.readFailed(path: "/x", reason: "I/O error"), .failure, "cannot read /x: I/O error"),
        (EmbeddedClusterError.notPermitted("no"), .unavailable, nil),
        (PGError(kind: .connectionFailed, message: "could not connect"), .unavailable, "could not connect"),
        (PGError(kind: .statementFailed, message: "syntax", sqlState: "42601"), .failure, nil),
        (PGError(kind: .statementFailed, message: "denied", sqlState: "28P01"), .credentialsRefused, nil),
        (
            PGError(kind: .connectionFailed, message: "FATAL:  database \"x\" does not exist"), .configuration,
            "retrying will not help"
        ),
        (PGError(kind: .connectionFailed, message: "invalid URI query parameter: \"y\""), .configuration, nil),
        (
            PGError(kind: .connectionFailed, message: "failed: Connection refused\n\tIs the server running?"),
            .unavailable, "failed: Connection refused; Is the server running?"
        ),
        (churn.ExitStatus.clusterStopped, .clusterStopped, nil),
        (churn.ExitStatus.clusterNotCreated, .clusterNotCreated, nil),
    ]

    @Test(arguments: cases.indices)
    func eachDomainErrorHasItsStatusAndMessage(index: Int) throws {
        let (error, status, message) = Self.cases[index]
        let failure = try #require(CommandFailure(classifying: error), "\(error)")
        #expect(failure.status == status, "\(error)")
        if let message {
            #expect(failure.message?.contains(message) == true, "\(failure.message ?? "nil")")
        }
    }

    @Test func anAPIFailurePastTheRetriesIsUnavailableAndSaysTheNextFetchResumes() throws {
        let failure = try #require(
            CommandFailure(classifying: AppStoreServerAPIError.unavailable(attempts: 6, seconds: 300, last: "503")))
        #expect(failure.status == .unavailable)
        #expect(failure.message?.hasSuffix("the next fetch resumes where this one stopped") == true)
    }

    @Test func refusedDatabaseCredentialsSayRetryingWillNotHelp() throws {
        let error = PGError(kind: .connectionFailed, message: "password authentication failed for user \"x\"")
        let failure = try #require(CommandFailure(classifying: error))
        #expect(failure.status == .credentialsRefused)
        #expect(failure.message?.contains("retrying will not help") == true)
    }

    @Test func anErrorOutsideTheDomainIsLeftToArgumentParser() {
        struct Unknown: Error {}
        #expect(CommandFailure(classifying: Unknown()) == nil)
    }
}
