import Analysis
import AppleReports
import CivilTime
import Reports
import Testing

@Suite struct AppleComparisonTests {
    private typealias Event = AppleReportFiles.Event

    private static func time(_ date: String, hour: Int64 = 12) throws -> Int64 {
        try #require(CivilDate(parsing: date)).unixMilliseconds + hour * Milliseconds.hour
    }

    private static func day(_ date: String) throws -> Int {
        try #require(CivilDate(parsing: date)).daysSinceEpoch
    }

    /// 30 episodes entering on Tuesday 2026-03-03 (ISO week 2026-W10) without grace; 10 recover on Thursday; the
    /// rest are still in retry on 2026-03-10, the as-of time.
    private static func ours() throws -> BillingIssueDays.Tally {
        var tally = BillingIssueDays.Tally(asOf: try Self.time("2026-03-10", hour: 0))
        for index in 0..<30 {
            let recovered = index < 10
            tally.add(
                Episode(
                    subscription: "s\(index)", start: try Self.time("2026-03-03"),
                    end: recovered ? try Self.time("2026-03-05") : nil, outcome: recovered ? .recovered : .open,
                    openingNotificationUUID: "o\(index)"))
        }
        return tally
    }

    @Test func ourDaysCountEntriesRecoveriesAndStates() throws {
        let days = Dictionary(uniqueKeysWithValues: try Self.ours().days.map { ($0.day, $0) })
        #expect(days[try Self.day("2026-03-03")]?[.enteredBillingIssue] == 30)
        #expect(days[try Self.day("2026-03-03")]?[.inBillingRetry] == 30)
        #expect(days[try Self.day("2026-03-05")]?[.recoveredInRetry] == 10)
        #expect(days[try Self.day("2026-03-05")]?[.paidServiceDaysRecovered] == 20)
        #expect(days[try Self.day("2026-03-05")]?[.inBillingRetry] == 20)
        #expect(days[try Self.day("2026-03-09")]?[.inBillingRetry] == 20)
        // 2026-03-10 is not complete at the as-of time.
        #expect(days[try Self.day("2026-03-10")] == nil)
    }

    /// An episode with grace that grace did not save enters twice in Apple's terms: grace on t0, billing retry from
    /// grace on its grace end; one saved in grace enters once and recovers in grace.
    @Test func graceNotSavedEntersRetryFromGraceOnItsGraceEnd() throws {
        var tally = BillingIssueDays.Tally(asOf: try Self.time("2026-04-30", hour: 0))
        tally.add(
            Episode(
                subscription: "unsaved", start: try Self.time("2026-03-02"), hasGrace: true,
                graceEnd: try Self.time("2026-03-18"), end: try Self.time("2026-05-01"), outcome: .expired,
                openingNotificationUUID: "a"))
        tally.add(
            Episode(
                subscription: "saved", start: try Self.time("2026-03-02"), hasGrace: true,
                graceEnd: try Self.time("2026-03-18"),
                end: try Self.time("2026-03-04"), outcome: .recovered, openingNotificationUUID: "b"))
        let days = Dictionary(uniqueKeysWithValues: tally.days.map { ($0.day, $0) })
        #expect(days[try Self.day("2026-03-02")]?[.enteredBillingIssue] == 2)
        #expect(days[try Self.day("2026-03-02")]?[.inGrace] == 2)
        #expect(days[try Self.day("2026-03-04")]?[.recoveredInGrace] == 1)
        #expect(days[try Self.day("2026-03-04")]?[.inGrace] == 1)
        #expect(days[try Self.day("2026-03-17")]?[.inGrace] == 1)
        #expect(days[try Self.day("2026-03-18")]?[.enteredRetryFromGrace] == 1)
        #expect(days[try Self.day("2026-03-18")]?[.inGrace] == 0)
        #expect(days[try Self.day("2026-03-18")]?[.inBillingRetry] == 1)
        #expect(tally.days.reduce(0) { $0 + $1[.enteredRetryFromGrace] } == 1)
    }

    /// Apple's files with our counts, each off by at most 2, split over territories.
    private static func agreeingFiles() -> [AppleReportFile] {
        let events = AppleReportFiles.eventText([
            Event(
                date: "2026-03-03", grouping: "Entered Billing Issue", subType: "Entered Billing Retry from Full Price",
                counts: 14),
            Event(
                date: "2026-03-03", grouping: "Entered Billing Issue", subType: "Entered Billing Retry from Free Trial",
                territory: "GB", counts: 17),
            Event(
                date: "2026-03-05", grouping: "Recoveries from Billing Issue",
                subType: "Full Price Recoveries from Billing Retry", counts: 9, paidServiceDays: 21),
            Event(date: "2026-03-06", grouping: "Paid Renewals", subType: "Paid Renewal", counts: 300),
        ])
        var states: [(date: String, metric: String, territory: String, counts: Int)] = []
        for (date, count) in [("2026-03-03", 31), ("2026-03-04", 29), ("2026-03-05", 21), ("2026-03-06", 20)] {
            states.append((date, "Billing retry", "US", count))
        }
        return [
            (try? AppleReportFile.parse(events, path: "events.txt")),
            (try? AppleReportFile.parse(AppleReportFiles.stateText(states), path: "state.txt")),
        ].compactMap { $0 }
    }

    @Test func countsWithinApplesNoiseAgree() throws {
        let files = Self.agreeingFiles()
        #expect(files.count == 2)
        let comparison = AppleComparison(ours: try Self.ours(), apple: AppleReportSet(files: files))
        #expect(comparison.differingWeeks.isEmpty)
        #expect(comparison.days.allSatisfy { $0.status == .agrees })
        let entered = try #require(comparison.weeks.first { $0.metric == .enteredBillingIssue })
        #expect(entered.period == "2026-W10")
        #expect(entered.ours == 30)
        #expect(entered.apple == 31)
        #expect(entered.appleValues == 2)
        #expect(entered.noiseBound == 9)
        let retry = try #require(comparison.weeks.first { $0.metric == .inBillingRetry })
        #expect(retry.ours == 20)
        #expect(retry.apple == 20)
        // A paid renewal is not a billing event: neither compared nor listed as unknown.
        #expect(comparison.unmapped.isEmpty)
        let table = comparison.table()
        #expect(table.columns == AppleComparison.columns)
        #expect(table.rows.count == comparison.weeks.count + comparison.days.count)
    }

    @Test func aWeekThatDiffersIsNamedWithItsEvent() throws {
        var files = Self.agreeingFiles()
        files.append(
            try AppleReportFile.parse(
                AppleReportFiles.eventText([
                    Event(
                        date: "2026-03-04", grouping: "Involuntary Churn", subType: "Involuntary Churn from Full Price",
                        counts: 25),
                    Event(
                        date: "2026-03-04", grouping: "Recoveries from Billing Issue",
                        subType: "Recoveries by Customer Support", counts: 7),
                ]), path: "more-events.txt"))
        let comparison = AppleComparison(ours: try Self.ours(), apple: AppleReportSet(files: files))
        let differing = comparison.differingWeeks
        #expect(differing.count == 1)
        let week = try #require(differing.first)
        #expect(week.metric == .involuntaryChurn)
        #expect(
            week.sentence
                == "2026-W10: involuntary churn, ours 0 against Apple's 25 (a difference of 25, beyond Apple's noise of ±6)"
        )
        // An unknown value of a billing grouping is kept and shown, not compared.
        #expect(comparison.unmapped == ["Recoveries by Customer Support": 7])
    }

    @Test func noApplesValueAllowsWhatTheThresholdDrops() throws {
        // Apple states 2026-03-05 (a renewal) but gives no recovery value: our 10 recoveries exceed 6 + 4.
        let events = AppleReportFiles.eventText([
            Event(date: "2026-03-05", grouping: "Paid Renewals", subType: "Paid Renewal", counts: 50)
        ])
        let comparison = AppleComparison(
            ours: try Self.ours(), apple: AppleReportSet(files: [try AppleReportFile.parse(events, path: "e.txt")]))
        let recoveries = try #require(comparison.days.first { $0.metric == .recoveredInRetry })
        #expect(recoveries.noiseBound == 10)
        #expect(recoveries.status == .agrees)
        #expect(AppleComparison.noiseBound(values: 1) == 6)
        #expect(AppleComparison.noiseBound(values: 4) == 12)
    }
}
