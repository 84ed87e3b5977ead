import ArgumentParser
import EmbeddedPostgres
import Foundation
import Logging

/// Options every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp(
            "PostgreSQL connection URI or conninfo (default: DATABASE_URL, then PG* variables, then the embedded cluster).",
            valueName: "url"
        )
    )
    var databaseURL: String?

    @Option(help: ArgumentHelp("Least severe log level written to stderr.", valueName: "level"))
    var logLevel: LogLevel = .notice

    @Option(help: ArgumentHelp("Log format on stderr; json writes one object per line.", valueName: "format"))
    var logFormat: LogFormat = .text

    /// Sets up logging once, to stderr.
    func makeLogger() -> Logger {
        LoggingBootstrap.run(format: logFormat)
        var logger = Logger(label: "churn")
        logger.logLevel = logLevel.level
        return logger
    }

    var target: DatabaseTarget {
        DatabaseTarget.resolve(explicitURL: databaseURL)
    }
}
