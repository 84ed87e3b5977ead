import AppStoreServerAPI
import AppleReports
import ArgumentParser
import EmbeddedPostgres
import HistoryFetch
import Ingest
import PGClient
import Workflows

/// A failure as `churn` reports it: the exit status that classifies it and the message people read.
///
/// ``init(classifying:)`` is the one table from the errors of the domain (the workflows', the database's, Apple's
/// API's) to exit statuses. `Churn.main()` prints `churn: error: <message>` (or one JSON object under
/// `--log-format json`) and exits with `status`.
package struct CommandFailure: Equatable {
    package var status: ExitStatus
    /// What people read; nil when the command has said it with its result (`db status`, more rejects than allowed).
    package var message: String?

    package init(status: ExitStatus, message: String?) {
        self.status = status
        self.message = message
    }

    /// The status and message of `error`; nil for ArgumentParser's own errors (help, `--version`, bad usage found
    /// while parsing), which it words itself.
    package init?(classifying error: any Error) {
        switch error {
        case let status as ExitStatus:
            self.init(status: status, message: nil)
        case let error as WorkflowError:
            self.init(status: Self.status(of: error), message: error.isSaidWithTheResult ? nil : "\(error)")
        case let error as PGError where error.isAuthenticationFailure:
            self.init(
                status: .credentialsRefused,
                message: "PostgreSQL refused the credentials: \(error) (check the user and password of "
                    + "--database-url, DATABASE_URL or PGUSER/PGPASSWORD; retrying will not help)"
            )
        case let error as PGError where error.isConfigurationError:
            self.init(
                status: .configuration,
                message: "\(error) (check --database-url, DATABASE_URL or the PG* variables: the database must exist "
                    + "and the URL be postgresql://user@host:port/database; retrying will not help)"
            )
        case let error as PGError where error.isUnreachable:
            self.init(status: .unavailable, message: "\(error)")
        case let error as PGError where error.sqlState == "25006":
            // read_only_sql_transaction: a command that builds temporary tables, on a replica.
            self.init(
                status: .failure,
                message: "\(error) (this command builds temporary tables, which a read-only connection cannot: point "
                    + "--database-url at the primary; `churn query` questions other than customer and returns, and "
                    + "psql's views, work on a replica)")
        case let error as PGError:
            self.init(status: .failure, message: "\(error)")
        case let error as AppStoreServerAPIError:
            switch error {
            case .authenticationFailed:
                self.init(status: .credentialsRefused, message: "\(error)")
            case .unavailable, .stillFailing:
                self.init(status: .unavailable, message: "\(error); the next fetch resumes where this one stopped")
            case .retryLater(let until, _, _, _):
                self.init(
                    status: .temporaryFailure,
                    message: "\(error). Everything fetched so far is kept: run the same command again after "
                        + "\(AppStoreServerAPIError.iso8601(until)) and it resumes where this one stopped"
                )
            default:
                self.init(status: .failure, message: "\(error)")
            }
        case let error as FetchError:
            if case .lockBusy = error {
                self.init(status: .temporaryFailure, message: "\(error)")
            } else {
                self.init(status: .failure, message: "\(error)")
            }
        case let error as EmbeddedClusterError:
            self.init(status: .unavailable, message: "the embedded database is unavailable: \(error)")
        case let error as IngestError:
            if case .cannotOpen = error {
                self.init(status: .inputUnreadable, message: "\(error)")
            } else {
                self.init(status: .failure, message: "\(error)")
            }
        case let error as AppleReportError:
            // An App Store Connect report file that cannot be read, or lacks the columns the comparison needs.
            self.init(status: .inputUnreadable, message: "\(error)")
        case let error as ValidationError:
            // Thrown by a command's run(), after parsing: ArgumentParser would add the root command's usage.
            self.init(status: .usage, message: error.message)
        default:
            return nil
        }
    }

    private static func status(of error: WorkflowError) -> ExitStatus {
        switch error {
        case .unreadableInput: return .inputUnreadable
        case .nothingLoaded, .noMessageLog: return .failure
        case .nightlyLockBusy: return .temporaryFailure
        case .tooManyRejects: return .tooManyRejects
        case .noNewData: return .noNewExports
        case .invalidInput, .asOfAfterData, .asOfBeforeData, .unknownFilterValue, .unknownCustomer,
            .unknownQuarantineValue:
            return .usage
        }
    }
}

extension WorkflowError {
    /// Whether the command has already said what happened with its result: more rejects than allowed is a warning
    /// below the load's summary, and the exit status says the rest.
    fileprivate var isSaidWithTheResult: Bool {
        if case .tooManyRejects = self { return true }
        return false
    }
}
