import ArgumentParser
import EmbeddedPostgres
import Store

extension Churn {
    /// `churn migrate`: bring the database schema up to date, creating it with the layout asked for.
    struct MigrateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Create or update the database schema (load and the other commands do this themselves).",
            usage: "churn migrate [<options>]",
            discussion: """
                A new schema gets the layout --layout names, else the one the
                CHURN_SCHEMA_LAYOUT variable names (which every command that creates
                a schema reads), else plain:
                  plain        one table each.
                  partitioned  notifications, billing_episodes, subscription_analysis
                               and subscription_renewals hash-partitioned by
                               original_transaction_id, --partitions partitions each
                               (CHURN_SCHEMA_PARTITIONS with the variable; 8 when
                               neither is given).
                Both layouts hold the same rows and give the same reports; the
                partitioned one has the key rule of a database distributed by
                subscription (docs/SCALING.md). A schema keeps the layout it was
                created with: converting an existing schema is not supported, and
                --layout naming another layout than the schema's fails.
                """
        )

        /// The layouts `--layout` takes.
        enum LayoutName: String, NameArgument {
            case plain, partitioned
        }

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("The layout of a new schema.", valueName: "layout"))
        var layout: LayoutName?

        @Option(help: ArgumentHelp("Partitions per table of the partitioned layout (1-1024).", valueName: "n"))
        var partitions: Int?

        func validate() throws {
            if partitions != nil, layout != .partitioned {
                throw ValidationError("--partitions needs --layout partitioned.")
            }
            if let partitions, !SchemaLayout.partitionRange.contains(partitions) {
                throw ValidationError(
                    "--partitions takes \(SchemaLayout.partitionRange.lowerBound) to "
                        + "\(SchemaLayout.partitionRange.upperBound), not \(partitions)."
                )
            }
        }

        func run() throws {
            let logger = global.makeLogger()
            let connection = try global.target.connect(logger: logger)
            let requested = try layout.map { try SchemaLayout(name: $0.rawValue, partitions: partitions) }
            let migrator = Migrator(logger: logger, layout: requested)
            let applied = try migrator.migrate(connection)
            let version = try migrator.currentVersion(connection).map(String.init) ?? "none"
            let layout = try migrator.layout(connection).map(String.init(describing:)) ?? "plain layout"
            print(
                applied.isEmpty
                    ? "schema is current (version \(version), \(layout))"
                    : "applied \(applied.count) migration(s); schema version \(version), \(layout)"
            )
        }
    }
}
