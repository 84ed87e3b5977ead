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
                "grace_whatif.csv", "flows.csv", "billing_failures.csv", "data_quality.csv", "recovery_curve.svg",
                "recovery_hazard.svg",
                "summary.md", "headline.json",
            ])
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

    @Test func csvFilesAreTheAnalysisTablesRendered() throws {
        let report = Sample.report()
        let files = try report.files()
        for table in report.tables {
            #expect(files.first { $0.name == table.name }?.contents == CSVWriter.render(table))
        }
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
        #expect(summary.contains("**Recovered: 100.0%** of mature episodes (1 of 1; 95% interval 20.7%–100.0%)"))
        #expect(summary.contains("**Involuntary churn: 0.0%** of mature episodes (0 of 1; 95% interval 0.0%–79.3%)"))
        #expect(summary.contains("**Saved in grace: 0.0% (0 of 1)**"))
        // Without the latest signedDate, no notification after the as-of time is known to be loaded: the mature
        // March cohort waits for late notifications until 7 days after the as-of time.
        #expect(
            summary.contains(
                "| 2024-03 | 1 | 0 | 1 | 100.0% (20.7%–100.0%) | 0.0% (0.0%–79.3%) | 100.0% | awaiting late "
                    + "notifications (final on 2024-07-26) |"))
        #expect(summary.contains("| 2024-05 | 1 | 0 | 0 | n/a | n/a | 0.0% | still changing (final on 2024-07-27) |"))
        #expect(summary.contains("`rejected_bad_signature` 1"))
        #expect(summary.contains("![Recovery curve](recovery_curve.svg)"))
        #expect(summary.contains("![Daily recovery hazard](recovery_hazard.svg)"))
        #expect(summary.contains("**The latest 7 days may still be incomplete.**"))
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
