import ArgumentParser
import EmbeddedPostgres
import Foundation

extension Churn {
    /// `churn db start|stop|status|url`: manage the embedded PostgreSQL cluster, and say which database is used.
    struct DatabaseCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db",
            abstract: "Manage the embedded PostgreSQL cluster (under $CHURN_HOME, default ./.churn).",
            discussion: """
                The embedded cluster is used when no --database-url, DATABASE_URL or
                PG* variable is set. It listens only on a Unix socket in
                $CHURN_HOME/run. When run as root, the server runs as the postgres
                user.

                start, stop and status manage only the embedded cluster: they refuse
                --database-url, and say so when DATABASE_URL or PG* variables point
                the other commands elsewhere. url prints the database the other
                commands use, whichever it is.

                Connect with psql:  psql "$(churn db url)"
                """,
            subcommands: [Start.self, Stop.self, Status.self, URL.self]
        )

        struct Start: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Create (if needed) and start the embedded cluster.", usage: "churn db start [<options>]"
            )
            @OptionGroup var global: GlobalOptions

            func validate() throws {
                try DatabaseCommand.refuseDatabaseURL(global, subcommand: "start")
            }

            func run() throws {
                let logger = global.makeLogger()
                let cluster = EmbeddedCluster(home: EmbeddedCluster.defaultHome())
                let started = try cluster.start(logger: logger)
                print(
                    started
                        ? "started PostgreSQL in \(cluster.home.path)"
                        : "PostgreSQL is already running in \(cluster.home.path)")
                DatabaseCommand.noteOtherTarget()
            }
        }

        struct Stop: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Stop the embedded cluster.", usage: "churn db stop [<options>]"
            )
            @OptionGroup var global: GlobalOptions

            func validate() throws {
                try DatabaseCommand.refuseDatabaseURL(global, subcommand: "stop")
            }

            func run() throws {
                let cluster = EmbeddedCluster(home: EmbeddedCluster.defaultHome())
                print(try cluster.stop() ? "stopped PostgreSQL in \(cluster.home.path)" : "PostgreSQL is not running")
                DatabaseCommand.noteOtherTarget()
            }
        }

        struct Status: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Say whether the embedded cluster exists and runs (exit 0 running, 3 stopped, 4 not created).",
                usage: "churn db status [<options>]"
            )
            @OptionGroup var global: GlobalOptions

            func validate() throws {
                try DatabaseCommand.refuseDatabaseURL(global, subcommand: "status")
            }

            func run() throws {
                let cluster = EmbeddedCluster(home: EmbeddedCluster.defaultHome())
                DatabaseCommand.noteOtherTarget()
                switch try cluster.status() {
                case .running:
                    print("running (\(cluster.home.path))")
                case .stopped:
                    print("stopped (\(cluster.home.path)); start it with: churn db start")
                    throw ExitStatus.clusterStopped
                case .notInitialized:
                    print("not created yet (\(cluster.home.path)); churn db start creates it")
                    throw ExitStatus.clusterNotCreated
                }
            }
        }

        struct URL: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print the connection string of the database the other commands use (for psql).",
                usage: "churn db url [<options>]",
                discussion: """
                    The first that is set: --database-url, DATABASE_URL (either printed
                    exactly as given, password included, because psql needs it to
                    connect), the PG* variables (as a conninfo string without the
                    password, which psql reads from PGPASSWORD or ~/.pgpass itself), or
                    the embedded cluster (which needs no password).
                    """
            )
            @OptionGroup var global: GlobalOptions

            func run() throws {
                print(global.target.connectionString)
            }
        }

        /// Refuses `--database-url` for a subcommand that manages only the embedded cluster.
        static func refuseDatabaseURL(_ global: GlobalOptions, subcommand: String) throws {
            guard global.databaseURL != nil else { return }
            throw ValidationError(
                "churn db \(subcommand) manages only the embedded cluster in "
                    + "\(EmbeddedCluster.defaultHome().path), not the server --database-url names. "
                    + "Drop --database-url; `churn db url` prints the database the other commands use."
            )
        }

        /// Says on stderr when DATABASE_URL or PG* variables point the other commands away from the embedded cluster.
        static func noteOtherTarget() {
            let target = DatabaseTarget.resolve(explicitURL: nil)
            if case .embedded = target { return }
            Console.warn("the other commands use \(target.summary), not this cluster (`churn db url` prints it).")
        }
    }
}
