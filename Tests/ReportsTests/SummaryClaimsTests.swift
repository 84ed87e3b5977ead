import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// What `summary.md` claims, held to what the figures know: one test per claim.
@Suite struct SummaryClaimsTests {
    static func summary(_ report: Report) -> String {
        SummaryDocument(report: report).markdown
    }

    /// The latest `signedDate` loaded `ahead` after the Sample's as-of time.
    static func sample(ahead: Int64) -> Report {
        Sample.report(latestSignedDate: Sample.asOf + ahead)
    }

    // MARK: - Final only when it is

    @Test(arguments: [
        // (latest signedDate − as-of, whether the headline's rates over mature episodes are final)
        (3 * T.day, false),
        (7 * T.day - 1, false),
        (7 * T.day, true),
        (8 * T.day, true),
    ])
    func matureFiguresAreFinalOnlyWithSevenDaysOfLaterData(ahead: Int64, isFinal: Bool) throws {
        let report = Self.sample(ahead: ahead)
        let march = try #require(report.cohorts.first { $0.period.description == "2024-03" })
        let may = try #require(report.cohorts.first { $0.period.description == "2024-05" })
        #expect(march.figures.isMature)
        // An episode may have matured at the as-of time itself: the headline waits for 7 days of later data.
        let expected: Report.Finality =
            isFinal ? .final : .awaitingLateNotifications(finalFrom: Sample.asOf + 7 * T.day)
        #expect(report.finalityOfMatureEpisodes == expected)
        // March's last episode (S10, t0 2024-03-20) matured on 2024-05-20: final whatever the latest 7 days bring.
        #expect(report.finality(of: march.figures) == .final)
        // May is not mature whatever the data hold: final 7 days after S08 (t0 2024-05-20) matures.
        let mayFinal = T.may1 + 19 * T.day + 61 * T.day + 7 * T.day
        #expect(report.finality(of: may.figures) == .maturing(finalFrom: mayFinal))

        let summary = Self.summary(report)
        let marchRow = try #require(summary.split(separator: "\n").first { $0.hasPrefix("| 2024-03 |") })
        #expect(marchRow.hasSuffix("| final |"))
        #expect(summary.contains("| still changing (final on 2024-07-27) |"))
        #expect(summary.contains("Those rates are final") == isFinal)
        #expect(
            summary.contains(
                "Those rates are not final until 2024-07-08, once 7 days of later notifications can be loaded.")
                == !isFinal)
    }

    /// A cohort whose last episode matured 7 days or more before the latest notification loaded is final: a
    /// notification still on its way was signed after that, past every one of its episodes' day 61, and closes none
    /// of them. April's last episode (S06, t0 2024-04-25) matured on 2024-06-25, six days before the as-of time.
    @Test(arguments: [
        // (latest signedDate − as-of, or nil when unknown; April's status)
        (Int64?.none, "awaiting late notifications (final on 2024-07-02)"),
        (Int64?.some(0), "awaiting late notifications (final on 2024-07-02)"),
        (Int64?.some(T.day - 1), "awaiting late notifications (final on 2024-07-02)"),
        (Int64?.some(T.day), "final"),
    ])
    func aCohortIsFinalSevenDaysAfterItsLastEpisodeMatured(ahead: Int64?, april: String) throws {
        let report = Sample.report(latestSignedDate: ahead.map { Sample.asOf + $0 })
        let rows = Self.summary(report).split(separator: "\n")
        let marchRow = try #require(rows.first { $0.hasPrefix("| 2024-03 |") })
        let aprilRow = try #require(rows.first { $0.hasPrefix("| 2024-04 |") })
        #expect(marchRow.hasSuffix("| final |"))
        #expect(aprilRow.hasSuffix("| \(april) |"))
        let aprilCohort = try #require(report.cohorts.first { $0.period.description == "2024-04" })
        #expect(
            report.finality(of: aprilCohort.figures)
                == (april == "final" ? .final : .awaitingLateNotifications(finalFrom: T.july1 + T.day)))
        // The headline's rates still wait: an episode may have matured at the as-of time.
        #expect(report.finalityOfMatureEpisodes != .final)
    }

    @Test func unknownLatestDataCountsAsTheAsOfTime() {
        let report = Sample.report(latestSignedDate: nil)
        let finality = report.cohorts.map { report.finality(of: $0.figures) }
        #expect(
            finality == [
                .final, .awaitingLateNotifications(finalFrom: T.july1 + T.day),
                .maturing(finalFrom: T.may1 + 19 * T.day + 68 * T.day),
                .maturing(finalFrom: T.june1 + 19 * T.day + 68 * T.day),
            ])
        #expect(report.finalityOfMatureEpisodes == .awaitingLateNotifications(finalFrom: Sample.asOf + 7 * T.day))
        #expect(report.finality(of: EpisodeGroup()) == nil)
    }

    // MARK: - Reports for the wording tests

    /// Reports whose summaries between them use every sentence that can vary: grace ends, intervals excluding 1,
    /// every data-quality check, both kinds of previous report, no mature episode, no episode at all.
    static func variedReports() throws -> [Report] {
        let counts = DataQualityCounts(
            duplicatesSkipped: 1, outsideEnvironment: 2, familySharedSkipped: 3, orphanDidRenewBillingRecovery: 4,
            orphanExpiredBillingRetry: 5, orphanGracePeriodExpired: 6, staleFailureNotice: 7, lateFailureNotice: 8,
            inferredExpiry: 9, graceEndInferred: 10, graceEndUnknown: 11)
        let earlier = PreviousHeadline.earlier(
            .init(
                asOf: T.june1, environment: "Production", dataQuality: [.init(check: "duplicates_skipped", count: 2)]))
        return [
            Sample.report(), Self.sample(ahead: 8 * T.day), Report(dataset: SummaryDocumentTests.messageDayDataset()),
            Report(dataset: Self.graceDataset()),
            Report(dataset: Sample.dataset(), options: .init(previous: earlier)),
            Report(dataset: Sample.dataset(asOf: T.april1 + 10 * T.day)),
            Report(dataset: EpisodeDataset(asOf: T.july1, dataQuality: counts), options: .init(rejections: ["x": 1])),
            Report(dataset: EpisodeDataset(asOf: T.july1)),
        ]
    }

    /// Ten mature episodes, five with a 6-day and five with a 16-day grace period: two recover after 3 days, one
    /// after 10, the others expire at day 60. The curve is 20% by day 6 and 30% by day 16.
    static func graceDataset() -> EpisodeDataset {
        let episodes = (0..<10).map { index in
            let start = T.april1 + Int64(index) * T.minute
            let graceDays: Int64 = index < 5 ? 6 : 16
            let recoveryDays: Int64? = index < 2 ? 3 : (index == 5 ? 10 : nil)
            return Episode(
                subscription: "G\(index)", start: start, hasGrace: true, graceEnd: start + graceDays * T.day,
                end: start + (recoveryDays ?? 60) * T.day, outcome: recoveryDays == nil ? .expired : .recovered,
                openingNotificationUUID: "g\(index)")
        }
        return EpisodeDataset(asOf: T.july1, episodes: episodes)
    }

    // MARK: - Wording

    @Test func intervalIsReadAsAMethodsCoverage() throws {
        let summary = Self.summary(Sample.report())
        #expect(
            summary.contains(
                "A 95% interval comes from a method whose intervals contain the true rate in 95% of samples; the "
                    + "fewer the episodes, the wider it is."))
        for report in try Self.variedReports() {
            #expect(!Self.summary(report).contains("very likely"))
        }
    }

    @Test func noCausalWording() throws {
        for report in try Self.variedReports() {
            for file in try report.files() where file.name.hasSuffix(".md") || file.name.hasSuffix(".svg") {
                let text = file.contents.lowercased()
                for word in ["makes", "drives", "causes", "because of", "thanks to", "effect of"] {
                    #expect(!text.contains(word), "\(file.name) says \(word)")
                }
            }
        }
    }

    @Test func messageScheduleNamesItsSource() throws {
        let standard = Self.summary(Sample.report())
        #expect(
            standard.contains(
                "this report uses the default schedule, from Apple's StoreKit documentation of "
                    + "`Message.Reason.billingIssue`: days 1–3 every 24 h, days 4–16 every 72 h, days 17–30 every "
                    + "96 h and days 31–60 every 120 h."))
        let schedule = try MessageSchedule.parse("1-10 24h\n11-60 48h\n")
        let custom = Self.summary(Report(dataset: Sample.dataset(), options: .init(schedule: schedule)))
        #expect(
            custom.contains(
                "this report uses a schedule its user gave, not the default from Apple's StoreKit documentation: "
                    + "days 1–10 every 24 h and days 11–60 every 48 h."))
        #expect(!custom.contains("the default schedule, from"))
    }

    @Test func lateAndStaleFailureNoticesAreDescribedAsCounted() {
        let counts = DataQualityCounts(staleFailureNotice: 2, lateFailureNotice: 3)
        let summary = Self.summary(Report(dataset: EpisodeDataset(asOf: T.july1, dataQuality: counts)))
        #expect(
            summary.contains(
                "3 paired with their recovery, 2 for a period already paid** (`late_failure_notice`, "
                    + "`stale_failure_notice`): a late notice and its recovery are one recovered episode; a stale "
                    + "notice finds no recovery and opens nothing."))
        #expect(!summary.contains("open no episode"))
    }

    @Test func copiesAreCopiesWhateverTheirOrigin() throws {
        for report in try Self.variedReports() {
            for file in try report.files() {
                #expect(!file.contents.lowercased().contains("resen"), "\(file.name)")
            }
        }
        let summary = Self.summary(Sample.report())
        #expect(
            summary.contains(
                "**Further copies of a notification: 1** (`duplicates_skipped`). The same `notificationUUID` more "
                    + "than once, from exports that overlap or from the App Store sending it again"))
    }

    // MARK: - Grace ends the data hold

    @Test func curveMarksTheGraceEndsOfTheData() throws {
        let report = Report(dataset: Self.graceDataset())
        #expect(report.graceLengths.map(\.days) == [6, 16])
        #expect(abs(report.cifRecovery(byDay: 6) - 0.2) < 1e-12)
        #expect(abs(report.cifRecovery(byDay: 16) - 0.3) < 1e-12)
        let summary = Self.summary(report)
        #expect(
            summary.contains(
                "The share of the episodes recovered by each day of retry: 20.0% when the 6-day grace ends on day 7 "
                    + "and 30.0% when the 16-day grace ends on day 17 (dashed on the chart); 30.0% by day 60, when "
                    + "retry stops."))
        #expect(summary.contains("the day a grace period ends (dashed) is left out, as recoveries can cluster"))
        // The timing section marks only the lengths the data hold (the grace what-if weighs every length Apple
        // offers, by design).
        let timing = try #require(
            summary.components(separatedBy: "## When recoveries come").last?
                .components(separatedBy: "\n## ").first)
        for unheld in ["day 3", "day 28", "day 29", "3-day", "28-day"] {
            #expect(!timing.contains(unheld), "\(unheld)")
        }

        let curve = SVGChartTests.parse(RecoveryCurveChart(report: report).svg)
        #expect(curve.isWellFormed)
        #expect(curve.collector.texts.contains("6-day grace ends on day 7: 20.0%"))
        #expect(curve.collector.texts.contains("16-day grace ends on day 17: 30.0%"))
        #expect(!curve.collector.texts.contains { $0.contains("3-day") || $0.contains("28-day") })
        // Two dashed grace lines in the plot, one in the legend; a dot where the curve crosses each.
        let dashed = zip(curve.collector.elements, curve.collector.attributes).filter {
            $0.0 == "line" && $0.1["stroke"] == "#b35900"
        }
        #expect(dashed.count == 3)
        let dots = zip(curve.collector.elements, curve.collector.attributes).filter {
            $0.0 == "circle" && $0.1["fill"] == "#b35900"
        }
        #expect(dots.count == 2)

        let hazard = SVGChartTests.parse(RecoveryHazardChart(report: report).svg)
        #expect(hazard.collector.texts.contains("6-day grace ends on day 7"))
        #expect(hazard.collector.texts.contains("16-day grace ends on day 17"))
    }

    @Test func noGraceEndNoMark() throws {
        let report = Report(dataset: SummaryDocumentTests.messageDayDataset())
        #expect(report.graceLengths.isEmpty)
        let summary = Self.summary(report)
        #expect(summary.contains("no grace period with a known end is in the data, so none is marked"))
        let curve = SVGChartTests.parse(RecoveryCurveChart(report: report).svg)
        #expect(!curve.collector.texts.contains { $0.contains("grace") })
    }

    // MARK: - Three recovery rates

    @Test func threeRecoveryRatesSideBySide() throws {
        for report in [Sample.report(), Report(dataset: Self.graceDataset())] {
            let mature = report.all.mature
            let summary = Self.summary(report)
            let curve = HumanFormat.percent(report.cifRecovery(byDay: 60))
            let (rate, interval) = (
                HumanFormat.percent(mature.recoveryRate), HumanFormat.percentInterval(mature.recoveryRateInterval)
            )
            let ended = HumanFormat.percent(report.all.outcomes.recoveryRate)
            var expected = "Three recovery rates: **\(curve)** by day 60 on the curve, the estimate for every episode, "
            expected += "open ones counted while observed; **\(rate)** of mature episodes (95% interval \(interval)), "
            expected +=
                "the rate at a glance, for decisions; **\(ended)** of ended episodes, high while cohorts are young"
            #expect(summary.contains(expected))
        }
        // The Sample's three differ: 4 of 8 mature, the curve's 44.4% at day 60, 6 of 12 ended.
        let sample = Sample.report()
        #expect(sample.all.mature.recoveryRate == 0.5)
        #expect(sample.cifRecovery(byDay: 60) < 0.5)
        let young = Self.summary(Report(dataset: Sample.dataset(asOf: T.april1 + 10 * T.day)))
        #expect(young.contains("open ones counted while observed; no rate over mature episodes yet (none is mature);"))
    }
}
