import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// The decisions of `summary.md`: what it says, and when.
@Suite struct SummaryDocumentTests {
    static let lateNote = "**The latest 7 days may still change:**"

    @Test func ratesAtAGlanceAreOverMatureEpisodes() {
        let summary = SummaryDocument(report: Sample.report()).markdown
        #expect(
            summary.contains(
                "- **Retry recovers 50.0%** of failed renewals (4 of 8 decided; 95% confidence interval "
                    + "21.5%–78.5%); **25.0% expire unpaid**, the involuntary churn (2; 7.1%–59.1%); 2 ended "
                    + "otherwise (renewal turned off, a refund)."))
        // Which episodes, why, and how many younger ones: told once, under the cohorts.
        #expect(
            summary.contains(
                "*Mature* episodes started at least 61 days before the as-of time (on or before 2024-05-01 00:00 "
                    + "UTC): their outcome is decided, and the rates at a glance count only them, as expiries come "
                    + "only at day 60; the 4 younger ones count in every other figure."))
    }

    /// Storefronts come the most episodes first, each with its mature rates; the failure share is that of the
    /// latest whole month before the as-of time.
    @Test func storefrontsAndTheFailureShare() throws {
        let report = Sample.report()
        let episodes = report.storefronts.map(\.figures.outcomes.episodes)
        #expect(episodes == episodes.sorted(by: >))
        #expect(episodes.reduce(0, +) == report.all.outcomes.episodes)
        let summary = SummaryDocument(report: report).markdown
        let first = try #require(report.storefronts.first)
        #expect(
            summary.contains(
                "| \(first.storefront) | " + SummaryDocument.groupCells(first.figures).joined(separator: " | ") + " |"))
        let month = try #require(
            report.figures.billingFailures.last { $0.month.map { $0.end <= report.asOf } ?? false })
        let charges = month.episodesStarted + month.renewals
        let line = try #require(SummaryDocument(report: report).failureShareLine() as String?)
        #expect(line.contains("of \(charges) renewal charges started an episode"))
        #expect(line.contains("in \(try #require(month.month))"))
        #expect(summary.contains(line))
    }

    /// A database may hold several apps, and the report adds them up: the summary says so at the top, naming each app
    /// with its episodes, the most first, and how to ask of one. One app, or none named, gives no note.
    @Test func aReportOfSeveralAppsNamesThem() throws {
        var dataset = Sample.dataset()
        #expect(!SummaryDocument(report: Report(dataset: dataset)).markdown.contains("apps in one report"))
        for index in dataset.episodes.indices {
            dataset.episodes[index].bundleId = index % 3 == 0 ? "com.example.other" : "com.example.app"
        }
        let other = dataset.episodes.indices.filter { $0 % 3 == 0 }.count
        let app = dataset.episodes.count - other
        #expect(app > other && other > 0)
        let report = Report(dataset: dataset)
        #expect(report.apps.map(\.bundleId) == ["com.example.app", "com.example.other"])
        let summary = SummaryDocument(report: report).markdown
        let note = try #require(summary.split(separator: "\n").first { $0.contains("apps in one report") })
        #expect(
            note
                == "> **2 apps in one report:** every figure adds up the episodes of `com.example.app` (\(app)) and "
                + "`com.example.other` (\(other)). For one app, ask `churn query QUESTION --bundle-id ID`, or split "
                + "any answer with `--group-by app`; `grace_whatif.csv` is per app already.")
        // Above the first screen, where a product manager starts.
        let glance = try #require(summary.range(of: "## At a glance"))
        #expect(try #require(summary.range(of: String(note))).lowerBound < glance.lowerBound)
        dataset.episodes[0].bundleId = nil
        #expect(SummaryDocument(report: Report(dataset: dataset)).markdown.contains("no bundle id (1)"))
    }

    @Test func anEnvironmentWithoutEpisodesSaysSo() {
        let report = Report(dataset: EpisodeDataset(asOf: Sample.asOf), options: .init(environment: "Sandbox"))
        let summary = SummaryDocument(report: report).markdown
        #expect(summary.contains("No episode: no renewal of the Sandbox environment failed by the as-of time"))
        #expect(!summary.contains("no failed renewal is decided yet"))
    }

    @Test func noMatureEpisodeNoHeadlineRates() {
        // As of 2024-04-11 the earliest episode (t0 2024-03-03) is 39 days old.
        let report = Report(dataset: Sample.dataset(asOf: T.april1 + 10 * T.day))
        let summary = SummaryDocument(report: report).markdown
        #expect(report.all.mature.episodes == 0)
        #expect(
            summary.contains(
                "- **Recovery:** no failed renewal is decided yet: none started 61 days or more before the as-of time, "
                    + "so the share retry recovers is not known"))
        #expect(!summary.contains("**Retry recovers"))
        #expect(!summary.contains("expire unpaid"))
    }

    @Test func moneyIsPerCurrencyNeverAdded() {
        let summary = SummaryDocument(report: Sample.report()).markdown
        #expect(
            summary.contains(
                "| Currency | Expected back | At risk now | Recovered | Of which saved in grace | Lost to expiry |"))
        #expect(summary.contains("| EUR | 0.00 (0.0) | 0.00 (0) | 99.98 (2) | 49.99 (1) | 0.00 (0) |"))
        #expect(summary.contains("| USD | 0.00 (0.0) | 0.00 (0) | 29.97 (3) | 9.99 (1) | 0.00 (0) |"))
        // The two open episodes have no price at stake: a third of a recovery expected, worth nothing known.
        #expect(summary.contains("| (no currency) | 0.00 (0.3) | 0.00 (2) | 0.00 (0) | 0.00 (0) | 0.00 (2) |"))
        // The two open episodes have no price: no amount to name at a glance.
        #expect(summary.contains("- **At stake now:** 2 failed renewals in retry, with no price known."))
        #expect(summary.contains("*Expected back*: each episode in retry weighed by its chance of paying"))
        #expect(summary.contains("*lost to expiry*: the price of the expired episodes' failed renewals."))
        #expect(summary.contains("before the App Store's commission"))
        // EUR 99.98 + USD 29.97 would be 129.95.
        #expect(!summary.contains("129.95"))
    }

    @Test(arguments: [
        // (latest signedDate − as-of in ms, or nil when unknown; whether the note shows)
        (Int64?.none, true),
        (Int64?.some(0), true),
        (Int64?.some(-3 * T.day), true),  // the as-of time is after the latest data
        (Int64?.some(7 * T.day - 1), true),
        (Int64?.some(7 * T.day), false),
        (Int64?.some(30 * T.day), false),
    ])
    func latestSevenDaysNote(ahead: Int64?, shows: Bool) throws {
        let report = Sample.report(latestSignedDate: ahead.map { Sample.asOf + $0 })
        #expect(report.mayMissLateNotifications == shows)
        let summary = SummaryDocument(report: report).markdown
        #expect(summary.contains(Self.lateNote) == shows)
        if shows {
            #expect(summary.contains("notifications signed since 2024-06-24 00:00 UTC can still arrive"))
            #expect(summary.contains("(the latest loaded was signed at") == (ahead != nil))
            // One line.
            let note = try #require(summary.split(separator: "\n").first { $0.contains(Self.lateNote) })
            #expect(note.hasPrefix("> ") && note.hasSuffix("."))
        }
    }

    @Test func noIntervalExcludingOneSaysSo() {
        let summary = SummaryDocument(report: Sample.report()).markdown
        #expect(
            summary.contains(
                "Neither any band nor the pooled ratio has a 95% interval that excludes 1: no clear difference, and "
                    + "even a clear one would be an association, not proof that messages bring recoveries, because the "
                    + "App Store's own charge attempts may follow the same rhythm, and the messages are modelled from "
                    + "the schedule, not observed."))
        // An interval that holds 1 is no effect, whatever the ratio.
        let close = RateRatio(EventRate(events: 12, atRisk: 100), to: EventRate(events: 10, atRisk: 100))
        #expect(close.interval.map { $0.low < 1 && $0.high > 1 } == true)
        #expect(!SummaryDocument.excludesOne(close))
        #expect(SummaryDocument.effectSentence(bands: [(2, close)], pooled: close).hasPrefix("Neither any band"))
    }

    /// Recoveries crowd on band 2's message days (7, 10, 13) against its neighbours (6, 8, 9, 11, 12, 14).
    static func messageDayDataset() -> EpisodeDataset {
        var episodes: [Episode] = []
        func add(_ count: Int, recoveringOn day: Int?) {
            for _ in 0..<count {
                let index = episodes.count
                let start = T.march1 + Int64(index) * T.minute
                let duration = day.map { Int64($0 - 1) * T.day + 12 * T.hour } ?? 60 * T.day
                episodes.append(
                    Episode(
                        subscription: "S\(index)", start: start, end: start + duration,
                        outcome: day == nil ? .expired : .recovered, openingNotificationUUID: "n\(index)"))
            }
        }
        add(300, recoveringOn: nil)
        add(30, recoveringOn: 7)
        add(30, recoveringOn: 10)
        add(30, recoveringOn: 13)
        add(6, recoveringOn: 8)
        return EpisodeDataset(asOf: T.july1, episodes: episodes)
    }

    @Test func intervalsExcludingOneAreNamedWithTheirDirection() throws {
        let report = Report(dataset: Self.messageDayDataset())
        let band2 = try #require(report.bands[1].dayComparison?.hazardRatio)
        #expect(SummaryDocument.excludesOne(band2))
        let pooled = try #require(report.pooledRatio)
        #expect(SummaryDocument.excludesOne(pooled))
        let summary = SummaryDocument(report: report).markdown
        let sentence =
            "Band 2 (ratio \(HumanFormat.ratio(band2.ratio)), 95% interval \(HumanFormat.ratioInterval(band2.interval)): "
            + "recoveries more likely on message days) and the pooled ratio (ratio \(HumanFormat.ratio(pooled.ratio)), "
            + "95% interval \(HumanFormat.ratioInterval(pooled.interval)): recoveries more likely on message days) "
            + "have a 95% interval that excludes 1; this is an association, not proof that messages bring "
            + "recoveries, because the App Store's own charge attempts may follow the same rhythm, and the messages "
            + "are modelled from the schedule, not observed."
        #expect(summary.contains(sentence))
        #expect(!summary.contains("Neither any band"))

        // Fewer recoveries on message days: "less likely", and one ratio takes "has".
        let fewer = RateRatio(EventRate(events: 5, atRisk: 1000), to: EventRate(events: 50, atRisk: 1000))
        let none = RateRatio(EventRate(events: 0, atRisk: 10), to: EventRate(events: 0, atRisk: 10))
        #expect(
            SummaryDocument.effectSentence(bands: [(3, none)], pooled: fewer).hasPrefix(
                "The pooled ratio (ratio 0.10, 95% interval 0.04–0.25: recoveries less likely on message days) has a "
                    + "95% interval that excludes 1; this is an association"))
    }

    @Test func weeksShowTheLatestSix() {
        let summary = SummaryDocument(report: Sample.report()).markdown
        #expect(summary.contains("the latest 6 of 19 weeks; `flows.csv` has them all."))
        #expect(summary.contains("| 2024-W22 (from 2024-05-27) | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 1 |"))
        #expect(!summary.contains("| 2024-W21 "))
        #expect(summary.contains("The latest week, 2024-W27, is partial: it is counted to the as-of time."))
    }

    @Test func graceSaveRateShowsItsDenominators() {
        let summary = SummaryDocument(report: Sample.report()).markdown
        #expect(summary.contains("**Saved in grace: 50.0% (2 of 4)**"))
        #expect(summary.contains("The save rate counts them all: each has ended or its grace period is over."))
        // As of 2024-06-01, S08's 16-day grace period (from 2024-05-20) is still running.
        let june = SummaryDocument(report: Report(dataset: Sample.dataset(asOf: T.june1))).markdown
        #expect(june.contains("The save rate leaves out 1 still inside their grace period."))
        #expect(summary.contains("This is an association: apps and products with a grace period differ"))
    }

    @Test func filesListHasEveryFile() throws {
        let summary = SummaryDocument(report: Sample.report()).markdown
        let files = try #require(summary.range(of: "## Files"))
        let section = summary[files.upperBound...]
        for name in Report.fileNames where name != Report.summaryFileName {
            #expect(section.contains("`\(name)`"), "\(name) missing from the files list")
        }
    }

    @Test func statesNoOutsideBenchmark() throws {
        for file in try Sample.report().files() {
            // Apple is named only as the source of the default message schedule.
            let unsourced = file.contents.replacingOccurrences(
                of: "the default schedule, from Apple's StoreKit documentation of `Message.Reason.billingIssue`",
                with: "")
            #expect(!unsourced.contains("Apple"), "\(file.name)")
            #expect(!file.contents.contains("pace"), "\(file.name)")
            #expect(!file.contents.contains("published"), "\(file.name)")
        }
    }

    @Test func sectionsComeInOrder() throws {
        let summary = SummaryDocument(report: Sample.report()).markdown
        let headings = summary.split(separator: "\n").filter { $0.hasPrefix("## ") }.map(String.init)
        #expect(
            headings == [
                "## At a glance", "## Money", "## Changes since the previous report",
                "## How well the forecast did", "## Week by week", "## Customers who come back", "## Grace period",
                "## Another grace setting",
                "## When recoveries come", "## Cohorts", "## Products", "## Storefronts", "## Data quality",
                "## How to read this report",
                "## Billing-issue messages", "## Files",
            ])
    }

    @Test func everyDataQualityCheckHasASentence() throws {
        let counts = DataQualityCounts(
            duplicatesSkipped: 1, outsideEnvironment: 2, outsideBundle: 13, familySharedSkipped: 3,
            orphanDidRenewBillingRecovery: 4,
            orphanExpiredBillingRetry: 5, orphanGracePeriodExpired: 6, staleFailureNotice: 7, lateFailureNotice: 8,
            inferredExpiry: 9, graceEndInferred: 10, graceEndUnknown: 11)
        let report = Report(
            dataset: EpisodeDataset(asOf: T.july1, dataQuality: counts), options: .init(rejections: ["not_json": 12]))
        let summary = SummaryDocument(report: report).markdown
        let start = try #require(summary.range(of: "## Data quality"))
        let end = try #require(summary.range(of: "## Files"))
        let section = summary[start.upperBound..<end.lowerBound]
        for (check, _) in counts.checks where !check.hasPrefix("orphan_") {
            #expect(section.contains("`\(check)`"), "\(check) has no sentence")
        }
        #expect(section.contains("**Orphan notifications: 15**"))
        #expect(section.contains("`rejected_not_json` 12"))

        let clean = SummaryDocument(report: Report(dataset: EpisodeDataset(asOf: T.july1))).markdown
        #expect(clean.contains("Nothing to report: no further copies of a notification"))
    }
}
