import ArgumentParser
import Ingest
import Reports
import Workflows

extension Churn {
    /// `churn quarantine`: the refused inputs, listed and cleared.
    struct QuarantineCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "quarantine",
            abstract: "List or clear the inputs loads refused (the quarantine table).",
            discussion: """
                Every input a load refuses is kept with its file, line, reason and raw
                text. Until a later load resolves it (stores its notification, or
                accepts it once an option is fixed) it counts in every report's
                rejected_<reason> and, for a file whose refusal an option can mend, the
                next nightly loads the file again. Clear the rows that will never be
                mended: a line cut short because its file was still being written, a
                file loaded by mistake.

                Examples:
                  churn quarantine list
                  churn quarantine list --reason not_json --format csv
                  churn quarantine clear --file /srv/exports/2025-12-31.jsonl --reason not_json
                  churn quarantine clear --id 17 --id 18

                From psql:  SELECT file, line, reason, detail FROM quarantine WHERE resolved_by_run IS NULL;
                """,
            subcommands: [ListCommand.self, ClearCommand.self]
        )

        /// The rows a subcommand works on.
        struct Selection: ParsableArguments {
            @Option(name: .customLong("id"), help: ArgumentHelp("Only this row (repeatable).", valueName: "id"))
            var ids: [Int64] = []

            @Option(help: ArgumentHelp("Only inputs refused for this reason (not_json, …).", valueName: "reason"))
            var reason: String?

            @Option(
                help: ArgumentHelp(
                    "Only inputs of this file: its path as the load named it, or that path from here.",
                    valueName: "path"))
            var file: String?

            func selection(resolved: Bool) -> QuarantineRows.Selection {
                QuarantineRows.Selection(ids: ids, reason: reason, files: file.map { [$0] } ?? [], resolved: resolved)
            }
        }

        struct ListCommand: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "List the refused inputs that still count, oldest first."
            )

            @OptionGroup var global: GlobalOptions
            @OptionGroup var selection: Selection

            @Flag(help: "Also the inputs a later load resolved (they count nowhere).")
            var resolved = false

            @Option(help: ArgumentHelp("table, csv, json or markdown.", valueName: "format"))
            var format: TableRenderer.Format = .table

            func run() throws {
                let rows = try QuarantineWorkflow(target: global.target, logger: global.makeLogger())
                    .list(selection.selection(resolved: resolved))
                if rows.isEmpty, format == .table {
                    print("no quarantined input" + (resolved ? "" : " counts") + " (of those selected)")
                    return
                }
                let table = ReportTable(
                    name: "quarantine",
                    columns: ["id", "run", "file", "line", "reason", "detail", "quarantined_at", "resolved_by_run"],
                    rows: rows.map { row in
                        [
                            .integer(Int(row.id)), .integer(Int(row.loadRunID)), .text(row.file),
                            row.line.map { .integer(Int($0)) } ?? .empty, .text(row.reason),
                            .text(format == .table ? Self.shortened(row.detail) : row.detail),
                            .text(row.quarantinedAt), row.resolvedByRun.map { .integer(Int($0)) } ?? .empty,
                        ]
                    })
                print(TableRenderer.render(table, as: format), terminator: "")
                if format == .table, rows.contains(where: { $0.detail.count > Self.detailWidth }) {
                    print("(details cut at \(Self.detailWidth) characters: --format csv or json shows them whole)")
                }
            }

            /// The most of a detail the aligned table shows: one long detail (a certificate chain's) would pad every
            /// row to its width.
            static let detailWidth = 100

            static func shortened(_ detail: String) -> String {
                detail.count <= detailWidth ? detail : String(detail.prefix(detailWidth - 1)) + "…"
            }
        }

        struct ClearCommand: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "clear",
                abstract: "Delete the selected refused inputs: they stop counting in reports.",
                discussion: """
                    Needs --id, --reason or --file (together they narrow), so that
                    nothing is cleared by accident; --all-unresolved clears every input
                    that still counts. The rows, raw text included, are deleted.
                    """
            )

            @OptionGroup var global: GlobalOptions
            @OptionGroup var selection: Selection

            @Flag(help: "Clear every input that still counts.")
            var allUnresolved = false

            func validate() throws {
                let narrowed = selection.selection(resolved: false).isNarrowed
                if !narrowed && !allUnresolved {
                    throw ValidationError(
                        "say which inputs to clear: --id, --reason or --file (see churn quarantine list), "
                            + "or --all-unresolved for every one.")
                }
                if narrowed && allUnresolved {
                    throw ValidationError("--all-unresolved clears every input: leave out --id, --reason and --file.")
                }
            }

            func run() throws {
                let cleared = try QuarantineWorkflow(target: global.target, logger: global.makeLogger())
                    .clear(selection.selection(resolved: false))
                print(
                    "cleared \(cleared) quarantined input(s): "
                        + (cleared == 0
                            ? "none matched (churn quarantine list shows what counts)"
                            : "they no longer count in reports, and nightly no longer loads their files again for them")
                )
            }
        }
    }
}
