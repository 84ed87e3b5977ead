import ArgumentParser
import Foundation
import Logging

/// The `churn` command: loads App Store Server Notifications into PostgreSQL and reports on involuntary churn.
@main
struct Churn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "churn",
        abstract: "Load App Store Server Notifications into PostgreSQL and report on involuntary churn.",
        discussion: """
            Typical use:
              churn nightly /srv/exports       load new exports, rebuild, report
              churn nightly --fetch /srv/exports
                                               the same, fetching Apple's history first
              churn load export.jsonl.gz       verify and store one export
              churn fetch --out /srv/exports   Apple's history since the last fetch
              churn gaps --from 2026-05-01     what Apple has and the database lacks
              churn report --as-of 2025-10-31  the report as of another time
              churn query recovery-rate --group-by cohort-month
              churn quarantine list            the inputs loads refused, to clear
              psql "$(churn db url)"           your own questions in SQL

            Database: --database-url, else DATABASE_URL, else libpq's PG* variables,
            else an embedded PostgreSQL cluster the tool creates and starts under
            $CHURN_HOME (default ./.churn).

            Exit codes:
            \(ExitStatus.table)
            """,
        version: "0.1.0",
        subcommands: [
            NightlyCommand.self, LoadCommand.self, FetchCommand.self, RepairCommand.self, GapsCommand.self,
            AnalyzeCommand.self, ReportCommand.self, QueryCommand.self, CompareAppleCommand.self,
            MessagesCommand.self, QuarantineCommand.self, SimulateCommand.self, MigrateCommand.self,
            DatabaseCommand.self,
        ]
    )

    /// Runs the command and turns every failure into one clear message and a documented exit code.
    static func main() async {
        Allocator.configure()
        let arguments = Array(CommandLine.arguments.dropFirst())
        Console.use(LogFormat.requested(in: arguments))
        do {
            try refuseUnknownHelpTopic(arguments)
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(with: error)
        }
    }

    /// Prints `error` as people (or log collectors) read it and exits with its status.
    private static func exit(with error: any Error) -> Never {
        let failure: CommandFailure
        if let classified = CommandFailure(classifying: error) {
            failure = classified
        } else {
            // ArgumentParser's own errors: help and --version (status 0), usage errors, and ExitCode.
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                Foundation.exit(code.rawValue)
            }
            failure = CommandFailure(
                status: ExitStatus(rawValue: code.rawValue) ?? .failure,
                message: message.isEmpty ? nil : usageMessage(message)
            )
        }
        if let message = failure.message {
            Console.error(message, fields: ["exit_code": .stringConvertible(Int(failure.status.rawValue))])
        }
        Foundation.exit(failure.status.rawValue)
    }

    /// ArgumentParser's text without its own `Error: ` prefix, so every error reads `churn: error: …`.
    private static func usageMessage(_ message: String) -> String {
        let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.hasPrefix("Error: ") ? String(trimmed.dropFirst("Error: ".count)) : trimmed
    }

    /// `churn help nosuch` is bad usage: ArgumentParser would print the root help and exit 0.
    private static func refuseUnknownHelpTopic(_ arguments: [String]) throws {
        guard arguments.first == "help" else { return }
        var subcommands = configuration.subcommands
        var path = "churn"
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            let names = subcommands.map { $0._commandName }
            guard let index = names.firstIndex(of: name) else {
                let known = names.isEmpty ? "has no subcommands" : "has " + names.joined(separator: ", ")
                throw ValidationError("no help topic '\(name)': \(path) \(known).")
            }
            path += " " + name
            subcommands = subcommands[index].configuration.subcommands
        }
    }
}
