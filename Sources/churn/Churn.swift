import AppStoreServerAPI
import ArgumentParser
import Foundation
import Ingest
import PGClient
import Store

/// The `churn` command: loads App Store Server Notifications into PostgreSQL and reports on involuntary churn.
@main
struct Churn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "churn",
        abstract: "Load App Store Server Notifications into PostgreSQL and report on involuntary churn.",
        discussion: """
            Typical use:
              churn nightly /srv/exports      load new exports, rebuild, write the report
              churn nightly --fetch /srv/exports
                                              the same, fetching Apple's history first
              churn load export.jsonl.gz      verify and store one export
              churn fetch --out /srv/exports  Apple's history since the last fetch
              churn gaps --from 2026-05-01    what Apple has and the database lacks
              churn report --as-of 2026-10-31 the report as of another time
              churn query recovery-rate --group-by cohort-month
              psql "$(churn db url)"          ask your own questions in SQL

            Database: --database-url, else DATABASE_URL, else libpq's PG* variables,
            else an embedded PostgreSQL cluster the tool creates and starts under
            $CHURN_HOME (default ./.churn).

            Exit codes:
              0   success
              1   failure (see the message)
              2   completed, but more inputs were rejected than --max-rejects allows
              64  bad usage (unknown option, missing argument)
              66  an input file cannot be opened
              69  the database is unreachable, or the App Store Server API
                  after its retries (try again later: a fetch resumes)
              75  another run holds the lock (try again later)
              77  the App Store Server API refused the credentials (401/403)
            """,
        version: "0.1.0",
        subcommands: [
            NightlyCommand.self, LoadCommand.self, FetchCommand.self, GapsCommand.self, AnalyzeCommand.self,
            ReportCommand.self, QueryCommand.self, SimulateCommand.self, MigrateCommand.self, DatabaseCommand.self,
        ]
    )

    /// Runs the command and turns run-level failures into a clear message and a documented exit code.
    static func main() async {
        do {
            var command = try parseAsRoot(nil)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as PGError where error.isUnreachable {
            fail("\(error)", code: .unavailable)
        } catch let error as EmbeddedClusterError {
            fail("the embedded database is unavailable: \(error)", code: .unavailable)
        } catch let error as AppStoreServerAPIError {
            switch error {
            case .authenticationFailed: fail("\(error)", code: .credentialsRefused)
            case .unavailable: fail("\(error); the next fetch resumes where this one stopped", code: .unavailable)
            default: fail("\(error)", code: .failure)
            }
        } catch let error as IngestError {
            if case .cannotOpen = error {
                fail("\(error)", code: .inputUnreadable)
            }
            fail("\(error)", code: .failure)
        } catch let error as PGError {
            fail("\(error)", code: .failure)
        } catch {
            exit(withError: error)
        }
    }

    private static func fail(_ message: String, code: ExitStatus) -> Never {
        FileHandle.standardError.write(Data("churn: error: \(message)\n".utf8))
        Foundation.exit(code.rawValue)
    }
}
