import ArgumentParser
import Foundation
import Store

extension Churn {
    /// `churn db start|stop|status|url`: manage the embedded PostgreSQL cluster.
    struct DatabaseCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db",
            abstract: "Manage the embedded PostgreSQL cluster (under $CHURN_HOME, default ./.churn).",
            discussion: """
                The embedded cluster is used when no --database-url, DATABASE_URL or
                PG* variable is set. It listens only on a Unix socket in
                $CHURN_HOME/run. When run as root, the server runs as the postgres
                user.

                Connect with psql:  psql "$(churn db url)"
                """,
            subcommands: [Start.self, Stop.self, Status.self, URL.self]
        )

        struct Start: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Create (if needed) and start the embedded cluster.", usage: "churn db start [<options>]"
            )
            @OptionGroup var global: GlobalOptions

            func run() throws {
                let logger = global.makeLogger()
                let cluster = EmbeddedCluster(home: EmbeddedCluster.defaultHome())
                let started = try cluster.start(logger: logger)
                print(started ? "started PostgreSQL in \(cluster.home.path)" : "PostgreSQL is already running in \(cluster.home.path)")
            }
        }

        struct Stop: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Stop the embedded cluster.")

            func run() throws {
                let cluster = EmbeddedCluster(home: EmbeddedCluster.defaultHome())
                print(try cluster.stop() ? "stopped PostgreSQL in \(cluster.home.path)" : "PostgreSQL is not running")
            }
        }

        struct Status: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Say whether the embedded cluster exists and runs (exit 0 running, 3 stopped, 4 not created)."
            )

            func run() throws {
                let cluster = EmbeddedCluster(home: EmbeddedCluster.defaultHome())
                switch try cluster.status() {
                case .running:
                    print("running (\(cluster.home.path))")
                case .stopped:
                    print("stopped (\(cluster.home.path)); start it with: churn db start")
                    throw ExitCode(3)
                case .notInitialized:
                    print("not created yet (\(cluster.home.path)); churn db start creates it")
                    throw ExitCode(4)
                }
            }
        }

        struct URL: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print the embedded database's connection string (for psql or DATABASE_URL)."
            )

            func run() throws {
                print(EmbeddedCluster(home: EmbeddedCluster.defaultHome()).uri)
            }
        }
    }
}
