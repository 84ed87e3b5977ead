import Analysis
import Foundation
import Reports
import Testing

/// Every file of a report compared with its golden file (see `Golden` for `UPDATE_GOLDEN=1`).
@Suite struct GoldenReportTests {
    @Test(arguments: Report.fileNames)
    func sampleReportMatchesGolden(name: String) throws {
        let files = try Sample.report().files()
        let file = try #require(files.first { $0.name == name })
        try Golden.check(file.contents, scenario: "sample", name: name)
    }

    @Test(arguments: Report.fileNames)
    func billingLifecycleMatchesGolden(name: String) throws {
        let files = try Lifecycle.report().files()
        let file = try #require(files.first { $0.name == name })
        try Golden.check(file.contents, scenario: "billing-lifecycle", name: name)
    }

    @Test func filesComeInTheDocumentedOrder() throws {
        #expect(try Sample.report().files().map(\.name) == Report.fileNames)
        #expect(
            Report.fileNames == [
                "recovery_by_cohort.csv", "recovery_curve.csv", "grace_period.csv", "grace_revenue.csv",
                "message_bands.csv", "retry_days.csv", "revenue.csv", "open_episodes.csv", "forecast_check.csv",
                "grace_whatif.csv", "returns.csv", "flows.csv", "billing_failures.csv", "data_quality.csv",
                "recovery_curve.svg",
                "recovery_hazard.svg",
                "summary.md", "headline.json",
            ])
    }

    /// Written file by file, `open_episodes.csv` in parts of one row or of two, the report has the bytes of its
    /// files held whole.
    @Test(arguments: [1, 2, Report.rowsPerPart])
    func writtenInPartsGivesTheSameBytes(rowsPerPart: Int) throws {
        // The sample's open episodes make parts of one row each.
        #expect(Sample.report().figures.openEpisodes.count >= 2)
        for report in [Sample.report(), Lifecycle.report()] {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try report.write(to: directory.url, rowsPerPart: rowsPerPart)
            for file in try report.files() {
                let written = try Data(contentsOf: directory.url.appendingPathComponent(file.name))
                #expect(written == Data(file.contents.utf8), "\(file.name)")
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            #expect(Set(names) == Set(Report.fileNames))
        }
    }

    @Test func sameDataGivesIdenticalBytes() throws {
        let first = try Sample.report().files()
        // Events in another order, built again: still the same bytes.
        let shuffled = EpisodeBuilder(options: .init(asOf: Sample.asOf)).dataset(Sample.events.reversed())
        let second = try Report(
            dataset: shuffled, options: .init(rejections: Sample.rejections, previous: Sample.previous),
            forecastCheck: Sample.forecastCheck
        ).files()
        #expect(first == second)

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let one = directory.url.appendingPathComponent("one")
        let two = directory.url.appendingPathComponent("two")
        try Sample.report().write(to: one)
        try Sample.report().write(to: two)
        for name in Report.fileNames {
            let a = try Data(contentsOf: one.appendingPathComponent(name))
            let b = try Data(contentsOf: two.appendingPathComponent(name))
            #expect(a == b, "\(name) differs between two runs")
            #expect(a == Data(try #require(first.first { $0.name == name }).contents.utf8))
        }
    }

    /// Every CSV file of a report has the columns docs/METRICS.md ("Report files") lists for it, grouping columns
    /// first, and every record as many fields as its header (read by an RFC 4180 reader of the test's own); every
    /// file the table lists is written, but for the commitment plans' curve (``CommitmentReportTests``) and
    /// `grace_change.csv`, written only when a grace setting changed (its header is checked here, its rows in
    /// PlantedGraceChangeTests), and the message log's files, written only with a log (their headers here, their
    /// rows in MessageLogSectionTests and PlantedSheetTests).
    @Test func csvFilesHaveTheColumnsTheMetricsDocumentNames() throws {
        let documented = try Self.documentedColumns()
        for report in [Sample.report(), Lifecycle.report()] {
            let files = try report.files().filter { $0.name.hasSuffix(".csv") }
            // The commitment plans' curve is written only for a scope that holds a commitment episode,
            // grace_change.csv only when a grace setting changed, and the message log's two files only with a log.
            #expect(
                Set(files.map(\.name))
                    == Set(documented.keys).subtracting([
                        RecoveryCurve.commitmentFileName, GraceChange.fileName, ShownDays.fileName,
                        MessageExperiment.fileName,
                    ]))
            for file in files {
                let records = Self.records(file.contents)
                #expect(records.first == documented[file.name], "\(file.name)'s header")
                for (index, record) in records.enumerated() {
                    #expect(record.count == records.first?.count, "\(file.name), record \(index + 1)")
                }
            }
        }
        #expect(GraceChange.table([]).columns == documented[GraceChange.fileName])
        #expect(ShownDays.table([]).columns == documented[ShownDays.fileName])
        #expect(MessageExperiment.table([]).columns == documented[MessageExperiment.fileName])
    }

    /// File name → the columns the table of docs/METRICS.md's "Report files" lists, grouping columns first.
    static func documentedColumns(file: String = #filePath) throws -> [String: [String]] {
        let root = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let metrics = String(
            decoding: try Data(contentsOf: root.appendingPathComponent("docs/METRICS.md")), as: UTF8.self)
        let section = try #require(metrics.range(of: "## 8. Report files"))
        var columns: [String: [String]] = [:]
        for line in metrics[section.upperBound...].split(separator: "\n") {
            guard line.hasPrefix("| `"), line.contains(".csv`") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3 else { continue }
            let name = cells[0].split(separator: "`")[0]
            let grouping =
                cells[1].hasPrefix("—")
                ? []
                : cells[1].split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            columns[String(name)] =
                grouping + cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return columns
    }

    /// The records of RFC 4180 text: fields split at commas outside quotes, `""` inside quotes for one quote.
    static func records(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var justClosed = false
        for character in text {
            let afterClosingQuote = justClosed
            justClosed = false
            switch (quoted, character) {
            case (true, "\""):
                quoted = false
                justClosed = true
            case (true, _):
                field.append(character)
            case (false, "\""):
                // A quote right after a closing quote is an escaped quote.
                if afterClosingQuote { field.append("\"") }
                quoted = true
            case (false, ","):
                record.append(field)
                field = ""
            case (false, "\n"), (false, "\r\n"):
                record.append(field)
                records.append(record)
                (record, field) = ([], "")
            default:
                field.append(character)
            }
        }
        if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
        return records
    }

    @Test func billingLifecycleEndToEnd() throws {
        let report = Lifecycle.report()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.url.appendingPathComponent(Report.directoryName(asOf: report.asOf))
        try report.write(to: target)
        #expect(target.lastPathComponent == "2024-07-19")

        let summary = try TemporaryDirectory.read(target.appendingPathComponent("summary.md"))
        #expect(summary.hasPrefix("# Involuntary churn: Sandbox, as of 2024-07-19 00:00 UTC\n"))
        // The March episode is mature (recovered); the May one expired at day 60 but started 60 days before the
        // as-of time, one day short of mature.
        #expect(
            summary.contains(
                "**Retry recovers 100.0%** of failed renewals (1 of 1 decided; 95% confidence interval "
                    + "20.7%–100.0%); "
                    + "**0.0% expire unpaid**, the involuntary churn (0; 0.0%–79.3%)."))
        #expect(summary.contains("**Saved in grace: 0.0% (0 of 1)**"))
        // Without the latest signedDate, the as-of time counts as the latest data: the March cohort's episode
        // matured in May, long before the 7 days whose notifications may still arrive, so its figures are final.
        #expect(
            summary.contains(
                "| 2024-03 | 1 | 0 | 1 | 100.0% (20.7%–100.0%) | 0.0% (0.0%–79.3%) | 100.0% | final |"))
        #expect(summary.contains("| 2024-05 | 1 | 0 | 0 | n/a | n/a | 0.0% | still changing (final on 2024-07-27) |"))
        #expect(summary.contains("`rejected_bad_signature` 1"))
        #expect(summary.contains("![Recovery curve](recovery_curve.svg)"))
        #expect(summary.contains("![Chance of recovery, day by day](recovery_hazard.svg)"))
        #expect(summary.contains("> **The latest 7 days may still change:**"))
        #expect(!summary.contains("Changes since the previous report"))

        let curve = try TemporaryDirectory.read(target.appendingPathComponent("recovery_curve.csv"))
        #expect(curve.split(separator: "\n")[20] == "20,2,1,0.500000")
        let headline = try Headline.read(fromReportDirectory: target)
        #expect(headline == .current(report.headline))
        #expect(headline.environment == "Sandbox")
        #expect(report.headline.all.recoveryRate == 0.5)
        #expect(report.headline.mature == .init(episodes: 1, recovered: 1, expired: 0))
    }
}
