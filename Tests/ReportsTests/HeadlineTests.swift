import Analysis
import Foundation
import Reports
import Testing
import TestSupport

@Suite struct HeadlineTests {
    @Test func roundTripsThroughJSON() throws {
        let headline = Sample.report().headline
        let text = try headline.encoded()
        #expect(text.hasSuffix("}\n"))
        #expect(try Headline.decode(Data(text.utf8), path: "headline.json") == headline)
        #expect(try Headline.decode(Data(try Sample.previous.encoded().utf8), path: "x") == Sample.previous)
    }

    @Test func holdsTheReportsFigures() {
        let report = Sample.report()
        let headline = report.headline
        #expect(headline.asOf == Sample.asOf)
        #expect(headline.environment == "Production")
        #expect(headline.all == .init(episodes: 12, recovered: 5, expired: 1, cancelled: 2, other: 1, open: 3))
        #expect(headline.all.closed == 9)
        #expect(headline.all.involuntaryChurnRate == 1.0 / 9.0)
        #expect(headline.grace == .init(graceEpisodes: 4, savedInGrace: 2, decided: 4))
        #expect(
            headline.revenue == [
                .init(currency: "EUR", savedEpisodes: 1, milliunits: 49_990),
                .init(currency: "USD", savedEpisodes: 1, milliunits: 9990),
            ])
        #expect(headline.recoveryCurve.map(\.day) == [3, 16, 28, 60])
        #expect(headline.cifRecovery(day: 60) == report.curve.last?.cifRecovery)
        #expect(headline.count(of: "rejected_not_json") == 1)
        #expect(headline.count(of: "no_such_check") == 0)
    }

    @Test func badSnapshotsNameTheField() throws {
        let good = try Sample.report().headline.encoded()
        let missing = good.replacingOccurrences(of: "\"saved_in_grace\"", with: "\"saved\"")
        #expect {
            try Headline.decode(Data(missing.utf8), path: "reports/2024-06-01/headline.json")
        } throws: { error in
            "\(error)".contains("reports/2024-06-01/headline.json")
                && "\(error)".contains("grace.saved_in_grace: missing")
        }
        let wrongType = good.replacingOccurrences(of: "\"episodes\" : 12", with: "\"episodes\" : \"12\"")
        #expect(wrongType != good)
        #expect {
            try Headline.decode(Data(wrongType.utf8), path: "h.json")
        } throws: { error in
            "\(error)".contains("all.episodes")
        }
        #expect(throws: ReportsError.self) { try Headline.decode(Data("not json".utf8), path: "h.json") }
        let future = good.replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : 2")
        #expect {
            try Headline.decode(Data(future.utf8), path: "h.json")
        } throws: { error in
            "\(error)".contains("format 2")
        }
    }

    @Test func latestFindsTheNewestEarlierReportOfTheEnvironment() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        func write(asOf: Int64, environment: String = "Production") throws -> Report {
            let dataset = EpisodeBuilder(options: .init(environment: environment, asOf: asOf)).dataset(Sample.events)
            let report = Report(dataset: dataset, options: .init(environment: environment))
            let name = Report.directoryName(asOf: asOf) + (environment == "Production" ? "" : "-" + environment)
            try report.write(to: root.url.appendingPathComponent(name))
            return report
        }
        let may = try write(asOf: T.may1)
        let june = try write(asOf: T.june1)
        _ = try write(asOf: T.june1 + T.day, environment: "Sandbox")
        _ = try write(asOf: T.july1)  // the report being compared: not earlier than itself
        // An incomplete report directory (no headline.json) and a stray file are skipped.
        try FileManager.default.createDirectory(
            at: root.url.appendingPathComponent("2024-06-20"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.url.appendingPathComponent("README"))

        let found = try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Production")
        #expect(found == june.headline)
        #expect(
            try Headline.latest(inReportsRoot: root.url, before: T.june1, environment: "Production") == may.headline)
        #expect(try Headline.latest(inReportsRoot: root.url, before: T.may1, environment: "Production") == nil)
        #expect(
            try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Sandbox")?.asOf == T.june1
                + T.day)
        let absent = root.url.appendingPathComponent("absent")
        #expect(try Headline.latest(inReportsRoot: absent, before: T.july1, environment: "Production") == nil)
    }

    @Test func comparisonWithThePreviousReport() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let june = Report(dataset: Sample.dataset(asOf: T.june1), options: .init(rejections: ["bad_signature": 1]))
        try june.write(to: root.url.appendingPathComponent(Report.directoryName(asOf: T.june1)))
        let previous = try #require(
            try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Production"))
        #expect(previous == june.headline)

        let july = Report(dataset: Sample.dataset(), options: .init(rejections: Sample.rejections, previous: previous))
        let summary = SummaryDocument(report: july).markdown
        #expect(summary.contains("## Changes since the previous report"))
        #expect(summary.contains("The previous report is as of 2024-06-01T00:00:00Z."))
        #expect(!summary.contains("not comparable"))
        let june1Outcomes = june.headline.all
        #expect(june1Outcomes.episodes == 10)
        #expect(summary.contains("| Episodes | 10 | 12 | +2 |"))
        #expect(summary.contains("| Revenue saved in grace (USD) | USD 9.99 | USD 9.99 | USD 0.00 |"))
        #expect(summary.contains("| `rejected_bad_signature` | 1 | 2 | +1 |"))
        #expect(summary.contains("| `rejected_not_json` | 0 | 1 | +1 |"))
        // Checks at 0 in both reports are not listed.
        #expect(!summary.contains("`orphan_expired_billing_retry`"))

        // The section comes after the headline figures and before the curve.
        let changes = try #require(summary.range(of: "## Changes since the previous report"))
        let headline = try #require(summary.range(of: "## Headline figures"))
        let pace = try #require(summary.range(of: "## How fast recoveries come"))
        #expect(headline.lowerBound < changes.lowerBound && changes.lowerBound < pace.lowerBound)
    }

    @Test func noPreviousReportNoSection() {
        let summary = SummaryDocument(report: Sample.report(previous: nil)).markdown
        #expect(!summary.contains("Changes since the previous report"))
    }

    @Test func previousOfAnotherEnvironmentIsFlagged() {
        var previous = Sample.previous
        previous.environment = "Sandbox"
        previous.asOf = T.july1 + T.day
        let summary = SummaryDocument(report: Sample.report(previous: previous)).markdown
        #expect(summary.contains("It covers the Sandbox environment, this one Production: the two are not comparable."))
        #expect(summary.contains("Its as-of time is not earlier than this report's."))
    }
}
