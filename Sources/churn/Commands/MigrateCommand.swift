import ArgumentParser
import Store

extension Churn {
    /// `churn migrate`: bring the database schema up to date.
    struct MigrateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Create or update the database schema (load and the other commands do this themselves).",
            usage: "churn migrate [<options>]"
        )

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let logger = global.makeLogger()
            let connection = try global.target.connect(logger: logger)
            let migrator = Migrator(logger: logger)
            let applied = try migrator.migrate(connection)
            let version = try migrator.currentVersion(connection).map(String.init) ?? "none"
            print(applied.isEmpty ? "schema is current (version \(version))" : "applied \(applied.count) migration(s); schema version \(version)")
        }
    }
}
