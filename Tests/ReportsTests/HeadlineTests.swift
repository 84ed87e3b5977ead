import Analysis
import Foundation
import Reports
import TestSupport
import Testing

@Suite struct HeadlineTests {
    @Test func roundTripsThroughJSON() throws {
        let headline = Sample.report().headline
        let text = try headline.encoded()
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains("\"format\" : 2"))
        #expect(try Headline.decode(Data(text.utf8), path: "headline.json") == headline)
        #expect(try PreviousHeadline.decode(Data(text.utf8), path: "headline.json") == .current(headline))
        let previous = try Sample.previousHeadline.encoded()
        #expect(try Headline.decode(Data(previous.utf8), path: "x") == Sample.previousHeadline)
    }

    @Test func holdsTheReportsFigures() {
        let report = Sample.report()
        let headline = report.headline
        #expect(headline.format == 2)
        #expect(headline.asOf == Sample.asOf)
        #expect(headline.environment == "Production")
        // S10 (March) has no closing notification: it ended expired at day 60 by inference.
        #expect(headline.all == .init(episodes: 12, recovered: 5, expired: 2, cancelled: 2, other: 1, open: 2))
        #expect(headline.all.closed == 10)
        #expect(headline.all.recoveryRate == 0.5)
        // Mature: the March and April episodes (t0 + 61 days ≤ 2024-07-01).
        #expect(headline.mature == .init(episodes: 8, recovered: 4, expired: 2))
        #expect(headline.mature.counts.recoveryRate == 0.5)
        #expect(headline.mature.counts.expiredRate == 0.25)
        #expect(headline.mature.counts.expiredRateInterval == ConfidenceInterval.wilson(successes: 2, trials: 8))
        #expect(headline.grace == .init(graceEpisodes: 4, savedInGrace: 2, decided: 4))
        #expect(
            headline.money == [
                // The sample's failure notices carry no price: the expired and open episodes have none at stake.
                .init(
                    currency: "", recoveredMilliunits: 0, savedInGraceMilliunits: 0, expiredEpisodes: 2,
                    lostMilliunits: 0, openEpisodes: 2, atRiskMilliunits: 0),
                .init(
                    currency: "EUR", recoveredEpisodes: 2, recoveredMilliunits: 99_980, savedInGraceEpisodes: 1,
                    savedInGraceMilliunits: 49_990),
                .init(
                    currency: "USD", recoveredEpisodes: 3, recoveredMilliunits: 29_970, savedInGraceEpisodes: 1,
                    savedInGraceMilliunits: 9990),
            ])
        #expect(headline.recoveryCurve.map(\.day) == [3, 16, 28, 60])
        #expect(headline.cifRecovery(day: 60) == report.curve.last?.cifRecovery)
        #expect(headline.count(of: "inferred_expiry") == 1)
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
        #expect {
            try PreviousHeadline.decode(Data("{}".utf8), path: "h.json")
        } throws: { error in
            "\(error)".contains("format: missing")
        }
        let future = good.replacingOccurrences(of: "\"format\" : 2", with: "\"format\" : 3")
        #expect {
            try PreviousHeadline.decode(Data(future.utf8), path: "h.json")
        } throws: { error in
            "\(error)".contains("format 3 is not one this version reads")
        }
        // A format-1 snapshot is a previous report, not this version's figures.
        #expect {
            try Headline.decode(Data(Self.formatOne.utf8), path: "h.json")
        } throws: { error in
            "\(error)".contains("format 1")
        }
    }

    /// A `headline.json` written by the version before METRICS.md v2 (format 1), cut to its first two checks.
    static let formatOne = """
        {
          "all" : { "cancelled" : 1, "episodes" : 9, "expired" : 1, "open" : 2, "other" : 1, "recovered" : 4 },
          "as_of" : 1717200000000,
          "data_quality" : [
            { "check" : "duplicates_skipped", "count" : 3 },
            { "check" : "unresolved_open_episodes", "count" : 2 },
            { "check" : "orphan_did_renew_billing_recovery", "count" : 4 },
            { "check" : "rejected_bad_signature", "count" : 1 }
          ],
          "environment" : "Production",
          "format" : 1,
          "grace" : { "decided" : 2, "grace_episodes" : 3, "saved_in_grace" : 2 },
          "recovery_curve" : [ { "cif_recovery" : 0.45, "day" : 60 } ],
          "revenue" : [ { "currency" : "EUR", "milliunits" : 49990, "saved_episodes" : 1 } ],
          "with_grace" : { "cancelled" : 0, "episodes" : 3, "expired" : 0, "open" : 1, "other" : 0, "recovered" : 2 },
          "without_grace" : { "cancelled" : 1, "episodes" : 6, "expired" : 1, "open" : 1, "other" : 1, "recovered" : 2 }
        }

        """

    @Test func formatOneIsReadForWhatStillMeansTheSame() throws {
        let previous = try PreviousHeadline.decode(Data(Self.formatOne.utf8), path: "h.json")
        guard case .earlier(let earlier) = previous else {
            Issue.record("a format-1 snapshot must read as an earlier report, got \(previous)")
            return
        }
        #expect(earlier.format == 1)
        #expect(previous.asOf == T.june1)
        #expect(previous.environment == "Production")
        #expect(earlier.count(of: "duplicates_skipped") == 3)
        // Further copies count by their signed date since METRICS.md 2.1: not the format-1 count.
        #expect(!PreviousHeadline.Earlier.isComparable("duplicates_skipped"))
        #expect(PreviousHeadline.Earlier.isComparable("rejected_bad_signature"))
        #expect(!PreviousHeadline.Earlier.isComparable("orphan_did_renew_billing_recovery"))
        #expect(!PreviousHeadline.Earlier.isComparable("inferred_expiry"))

        let summary = SummaryDocument(report: Sample.report(previous: previous)).markdown
        #expect(summary.contains("## Changes since the previous report"))
        #expect(summary.contains("The previous report is as of 2024-06-01 00:00 UTC."))
        #expect(summary.contains("It was written with the earlier definitions of the figures"))
        #expect(!summary.contains("| `duplicates_skipped` |"))
        #expect(summary.contains("| `rejected_bad_signature` | 1 | 2 | +1 |"))
        #expect(summary.contains("| `rejected_not_json` | 0 | 1 | +1 |"))
        #expect(summary.contains("| `outside_environment` | 0 | 1 | +1 |"))
        // Figures whose meaning changed are not compared.
        let changes = try #require(summary.range(of: "## Changes since the previous report"))
        let next = try #require(summary.range(of: "## Week by week"))
        let section = summary[changes.upperBound..<next.lowerBound]
        let changedMeaning = [
            "| Episodes |", "Recovered", "Involuntary churn", "`orphan_", "`unresolved_", "`inferred_", "EUR",
        ]
        for figure in changedMeaning {
            #expect(!section.contains(figure), "\(figure) compared with a format-1 report")
        }
    }

    @Test func formatOneWithNothingComparableSaysSo() throws {
        let earlier = PreviousHeadline.earlier(.init(asOf: T.june1, environment: "Production"))
        let dataset = EpisodeBuilder(options: .init(asOf: T.july1)).dataset([NotificationEvent]())
        let summary = SummaryDocument(report: Report(dataset: dataset, options: .init(previous: earlier))).markdown
        #expect(summary.contains("Both reports count none of them."))
    }

    @Test func aFormatOneReportInTheRootDoesNotStopTheNext() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let june = root.url.appendingPathComponent("2024-06-01")
        try FileManager.default.createDirectory(at: june, withIntermediateDirectories: true)
        try Data(Self.formatOne.utf8).write(to: june.appendingPathComponent("headline.json"))
        let previous = try #require(
            try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Production"))
        #expect(previous.format == 1)
        let report = Sample.report(previous: previous)
        try report.write(to: root.url.appendingPathComponent("2024-07-01"))
        // The next report finds this one, of the current format.
        let next = try Headline.latest(inReportsRoot: root.url, before: T.july1 + T.day, environment: "Production")
        #expect(next == .current(report.headline))
    }

    @Test func latestFindsTheNewestEarlierReportOfTheEnvironment() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        func write(asOf: Int64, environment: String = "Production") throws -> Report {
            let dataset = EpisodeBuilder(options: .init(environment: environment, asOf: asOf)).dataset(Sample.events)
            let report = Report(dataset: dataset, options: .init(environment: environment))
            try report.write(to: root.url.appendingPathComponent(Report.directoryName(asOf: asOf)))
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
        #expect(found == .current(june.headline))
        #expect(
            try Headline.latest(inReportsRoot: root.url, before: T.june1, environment: "Production")
                == .current(may.headline))
        #expect(try Headline.latest(inReportsRoot: root.url, before: T.may1, environment: "Production") == nil)
        #expect(
            try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Sandbox")?.asOf == T.june1
                + T.day)
        let absent = root.url.appendingPathComponent("absent")
        #expect(try Headline.latest(inReportsRoot: absent, before: T.july1, environment: "Production") == nil)
    }

    @Test func onlyReportsAsOfTheirLatestDataWithTheSameGranularityAreAPreviousReport() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        func write(asOf: Int64, given: Bool, _ granularity: CalendarPeriod.Granularity) throws -> Report {
            let report = Report(
                dataset: Sample.dataset(asOf: asOf), options: .init(granularity: granularity, isAsOfGiven: given))
            try report.write(to: root.url.appendingPathComponent(Report.directoryName(asOf: asOf)))
            return report
        }
        let nightly = try write(asOf: T.may1, given: false, .month)
        let weekly = try write(asOf: T.may1 + T.day, given: false, .week)
        _ = try write(asOf: T.june1, given: true, .month)  // `--as-of` asked for by hand: never a previous report
        let written = try String(
            contentsOf: root.url.appendingPathComponent("2024-06-01/headline.json"), encoding: .utf8)
        #expect(written.contains(#""as_of_given" : true"#) && written.contains(#""granularity" : "month""#))
        #expect(
            try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Production")
                == .current(nightly.headline))
        #expect(
            try Headline.latest(
                inReportsRoot: root.url, before: T.july1, environment: "Production", granularity: .week)
                == .current(weekly.headline))
        let latestData = try write(asOf: T.june1 + T.day, given: false, .month)
        #expect(
            try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Production")
                == .current(latestData.headline))
        let plain = try String(
            contentsOf: root.url.appendingPathComponent("2024-06-02/headline.json"), encoding: .utf8)
        #expect(!plain.contains("as_of_given"))
    }

    @Test func comparisonWithThePreviousReport() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let june = Report(dataset: Sample.dataset(asOf: T.june1), options: .init(rejections: ["bad_signature": 1]))
        try june.write(to: root.url.appendingPathComponent(Report.directoryName(asOf: T.june1)))
        let previous = try #require(
            try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Production"))
        #expect(previous == .current(june.headline))

        let july = Report(dataset: Sample.dataset(), options: .init(rejections: Sample.rejections, previous: previous))
        let summary = SummaryDocument(report: july).markdown
        #expect(summary.contains("## Changes since the previous report"))
        #expect(summary.contains("The previous report is as of 2024-06-01 00:00 UTC."))
        #expect(!summary.contains("not comparable"))
        #expect(!summary.contains("earlier definitions"))
        #expect(june.headline.all.episodes == 10)
        #expect(summary.contains("| Episodes | 10 | 12 | +2 |"))
        // As of June 1 the four March episodes and S07 (t0 2024-04-01) are mature; as of July 1, eight.
        #expect(june.headline.mature == .init(episodes: 5, recovered: 2, expired: 2))
        #expect(summary.contains("| Mature episodes | 5 | 8 | +3 |"))
        #expect(summary.contains("| Recovered (mature episodes) | 40.0% | 50.0% | +10.0 pp |"))
        #expect(summary.contains("| Involuntary churn (mature episodes) | 40.0% | 25.0% | -15.0 pp |"))
        #expect(summary.contains("| Recovered (USD) | USD 19.98 | USD 29.97 | USD +9.99 |"))
        // What did not move is left out; the headline figures are always there.
        #expect(!summary.contains("| Recovered (EUR) |"))
        #expect(summary.contains("The headline figures are always shown; the others only when they moved."))
        // Amounts at 0 in both reports are not listed.
        #expect(!summary.contains("| Lost to expiry (EUR)"))
        #expect(!summary.contains("| Recovered (no currency)"))
        #expect(summary.contains("| `rejected_bad_signature` | 1 | 2 | +1 |"))
        #expect(summary.contains("| `rejected_not_json` | 0 | 1 | +1 |"))
        // Checks at 0 in both reports are not listed.
        #expect(!summary.contains("`orphan_expired_billing_retry`"))

        // The section comes after the headline and the money, before the weeks.
        let changes = try #require(summary.range(of: "## Changes since the previous report"))
        let money = try #require(summary.range(of: "## Money"))
        let weeks = try #require(summary.range(of: "## Week by week"))
        #expect(money.lowerBound < changes.lowerBound && changes.lowerBound < weeks.lowerBound)
    }

    @Test func noPreviousReportNoSection() {
        let summary = SummaryDocument(report: Sample.report(previous: nil)).markdown
        #expect(!summary.contains("Changes since the previous report"))
    }

    @Test func previousOfAnotherEnvironmentIsFlagged() {
        var previous = Sample.previousHeadline
        previous.environment = "Sandbox"
        previous.asOf = T.july1 + T.day
        let summary = SummaryDocument(report: Sample.report(previous: .current(previous))).markdown
        #expect(summary.contains("It covers the Sandbox environment, this one Production: the two are not comparable."))
        #expect(summary.contains("Its as-of time is not earlier than this report's."))
    }

    @Test func onlyDirectoriesNamedForTheirAsOfDateAreHistory() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let june = Report(dataset: Sample.dataset(asOf: T.june1), options: .init())
        // The same complete report under names that are not the date of its as-of time.
        for name in ["example", "2024-06-01-copy", "2024-05-31", "latest"] {
            try june.write(to: root.url.appendingPathComponent(name))
        }
        #expect(try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Production") == nil)
        try june.write(to: root.url.appendingPathComponent("2024-06-01"))
        #expect(
            try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Production")
                == .current(june.headline))
    }

    @Test func anUnreadableHeadlineOutsideADatedDirectoryIsNotRead() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let example = root.url.appendingPathComponent("example")
        try FileManager.default.createDirectory(at: example, withIntermediateDirectories: true)
        try Data("{\"format\": 99}".utf8).write(to: example.appendingPathComponent("headline.json"))
        #expect(try Headline.latest(inReportsRoot: root.url, before: T.july1, environment: "Production") == nil)
    }

    @Test func onlyReportsOfTheSameDatabaseAreHistory() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        func write(asOf: Int64, databaseID: String?) throws -> Report {
            let report = Report(dataset: Sample.dataset(asOf: asOf), options: .init(databaseID: databaseID))
            try report.write(to: root.url.appendingPathComponent(Report.directoryName(asOf: asOf)))
            return report
        }
        let legacy = try write(asOf: T.may1, databaseID: nil)
        let ours = try write(asOf: T.june1, databaseID: "ours")
        _ = try write(asOf: T.june1 + T.day, databaseID: "theirs")
        let written = try String(
            contentsOf: root.url.appendingPathComponent("2024-06-01/headline.json"), encoding: .utf8)
        #expect(written.contains(#""database_id" : "ours""#))

        func latest(_ databaseID: String?, before asOf: Int64 = T.july1) throws -> PreviousHeadline? {
            try Headline.latest(
                inReportsRoot: root.url, before: asOf, environment: "Production", databaseID: databaseID)
        }
        #expect(try latest("ours") == .current(ours.headline))
        #expect(try latest("theirs")?.asOf == T.june1 + T.day)
        // A snapshot that names no database (written before reports recorded it) still counts …
        #expect(try latest("ours", before: T.june1) == .current(legacy.headline))
        #expect(try latest("another") == .current(legacy.headline))
        // … and a report made without a database compares only with such snapshots.
        #expect(try latest(nil) == .current(legacy.headline))
    }

    @Test func aPreviousReportOfAnotherOrAnUnknownDatabaseIsFlagged() {
        var previous = Sample.previousHeadline
        let now = Report(
            dataset: Sample.dataset(), options: .init(databaseID: "ours", previous: .current(previous)))
        #expect(SummaryDocument(report: now).markdown.contains("It does not record which database it was made from"))
        previous.databaseID = "theirs"
        let other = Report(
            dataset: Sample.dataset(), options: .init(databaseID: "ours", previous: .current(previous)))
        #expect(SummaryDocument(report: other).markdown.contains("It was made from another database"))
        previous.databaseID = "ours"
        let same = Report(dataset: Sample.dataset(), options: .init(databaseID: "ours", previous: .current(previous)))
        let summary = SummaryDocument(report: same).markdown
        #expect(!summary.contains("another database") && !summary.contains("does not record which database"))
    }
}
