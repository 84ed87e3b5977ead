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
        // Apple fills paid service days for recoveries from grace only: these recovered in retry.
        #expect(days[try Self.day("2026-03-05")]?[.paidServiceDaysRecovered] == 0)
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
        #expect(days[try Self.day("2026-03-04")]?[.paidServiceDaysRecovered] == 2)
        #expect(days[try Self.day("2026-03-04")]?[.inGrace] == 1)
        #expect(days[try Self.day("2026-03-17")]?[.inGrace] == 1)
        #expect(days[try Self.day("2026-03-18")]?[.enteredRetryFromGrace] == 1)
        #expect(days[try Self.day("2026-03-18")]?[.inGrace] == 0)
        #expect(days[try Self.day("2026-03-18")]?[.inBillingRetry] == 1)
        #expect(tally.days.reduce(0) { $0 + $1[.enteredRetryFromGrace] } == 1)
    }

    /// Apple's newest 3 days are held back: `events` with three later days of renewals only, after the as-of time.
    private static func settled(_ events: [Event]) -> [Event] {
        events
            + ["2026-03-20", "2026-03-21", "2026-03-22"].map {
                Event(date: $0, grouping: "Paid Renewals", subType: "Paid Renewal", counts: 100)
            }
    }

    /// Apple's files with our counts, each off by at most 2, split over territories.
    private static func agreeingFiles() -> [AppleReportFile] {
        let events = AppleReportFiles.eventText(
            settled([
                Event(
                    date: "2026-03-03", grouping: "Entered Billing Issue",
                    subType: "Entered Billing Retry from Full Price",
                    counts: 14),
                Event(
                    date: "2026-03-03", grouping: "Entered Billing Issue",
                    subType: "Entered Billing Retry from Free Trial",
                    territory: "GB", counts: 17),
                Event(
                    date: "2026-03-05", grouping: "Recoveries from Billing Issue",
                    subType: "Full Price Recoveries from Billing Retry", counts: 9, paidServiceDays: 21),
                Event(date: "2026-03-06", grouping: "Paid Renewals", subType: "Paid Renewal", counts: 300),
            ]))
        var states: [(date: String, metric: String, territory: String, counts: Int)] = [
            ("2026-03-20", "Active", "US", 100), ("2026-03-21", "Active", "US", 100),
            ("2026-03-22", "Active", "US", 100),
        ]
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
        // 2026-03-05 and 03-06 state no entry: each may have left out both combinations 03-03 has, up to 4 each.
        #expect(entered.thresholdAllowance == 16)
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

    /// Apple states a day but gives no value of a figure: ours, within what the threshold may have left out, is
    /// `unstated`, not `agrees` (once a figure Apple's file does not hold at all read as agreement); ours 0 agrees
    /// with no value.
    @Test func noApplesValueAllowsWhatTheThresholdDrops() throws {
        // Apple states 2026-03-05 (a renewal) but gives no recovery value: one value under 5 may have been left out.
        let events = AppleReportFiles.eventText(
            Self.settled([Event(date: "2026-03-05", grouping: "Paid Renewals", subType: "Paid Renewal", counts: 50)]))
        let comparison = AppleComparison(
            ours: try Self.ours(), apple: AppleReportSet(files: [try AppleReportFile.parse(events, path: "e.txt")]))
        let recoveries = try #require(comparison.days.first { $0.metric == .recoveredInRetry })
        #expect(recoveries.ours == 10)
        #expect(recoveries.noiseBound == 6)
        #expect(recoveries.thresholdAllowance == 4)
        #expect(recoveries.status == .unstated)
        #expect(comparison.days.filter { $0.ours == 0 && $0.appleValues == 0 }.allSatisfy { $0.status == .agrees })
        #expect(AppleComparison.noiseBound(values: 1) == 6)
        #expect(AppleComparison.noiseBound(values: 4) == 12)
    }

    /// Leaving values out only lowers Apple's figure: ours above Apple's by more than the noise agrees when
    /// combinations Apple gave on another day are missing, never when ours is below.
    @Test func theThresholdAllowanceIsOneSidedAndComesFromMissingCombinations() throws {
        func comparison(recoveriesInGB: Int, on day: String) throws -> AppleComparison {
            let events = AppleReportFiles.eventText(
                Self.settled([
                    Event(
                        date: "2026-03-04", grouping: "Recoveries from Billing Issue",
                        subType: "Full Price Recoveries from Billing Retry", territory: "US", counts: 5),
                    Event(
                        date: "2026-03-04", grouping: "Recoveries from Billing Issue",
                        subType: "Full Price Recoveries from Billing Retry", territory: "GB", counts: 5),
                    Event(
                        date: "2026-03-04", grouping: "Recoveries from Billing Issue",
                        subType: "Full Price Recoveries from Billing Retry", territory: "FR", counts: 5),
                    Event(
                        date: day, grouping: "Recoveries from Billing Issue",
                        subType: "Full Price Recoveries from Billing Retry", territory: "GB", counts: recoveriesInGB),
                ]))
            return AppleComparison(
                ours: try Self.ours(),
                apple: AppleReportSet(files: [try AppleReportFile.parse(events, path: "e.txt")]))
        }
        // Ours 10 on 2026-03-05; Apple 2 in GB, US and FR missing: 8 over, within ±6 plus 2 × 4.
        let below = try #require(
            try comparison(recoveriesInGB: 2, on: "2026-03-05").days.first {
                $0.period == "2026-03-05" && $0.metric == .recoveredInRetry
            })
        #expect(below.difference == 8)
        #expect(below.thresholdAllowance == 8)
        #expect(below.status == .agrees)
        // Apple 24 against our 10: 14 under, beyond ±6, whatever was left out.
        let above = try #require(
            try comparison(recoveriesInGB: 24, on: "2026-03-05").days.first {
                $0.period == "2026-03-05" && $0.metric == .recoveredInRetry
            })
        #expect(above.status == .differs)
        #expect(
            above.sentence
                == "2026-03-05: recoveries in billing retry, ours 10 against Apple's 24 (a difference of 14, beyond "
                + "Apple's noise of ±6)")
    }
}
