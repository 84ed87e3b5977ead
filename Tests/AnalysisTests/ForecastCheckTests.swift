import Analysis
import TestSupport
import Testing

@Suite struct ForecastCheckTests {
    /// The check time B: 2024-05-01, so T = B + 61 days = 2024-07-01.
    static let checkTime = T.may1
    static let asOf = T.july1

    static func episode(
        _ subscription: String, start: Int64, outcome: Episode.Outcome, days: Int64? = nil,
        recoveredBy: Episode.RecoveredBy? = nil
    ) -> Episode {
        Episode(
            subscription: subscription, start: start, end: days.map { start + $0 * T.day }, outcome: outcome,
            recoveredBy: recoveredBy, openingNotificationUUID: subscription + "-open")
    }

    /// As of B: four episodes that had ended and two still open.
    ///
    /// Durations (days) in order: O1 5 (open), A 10 (recovered), B 20 (expired), C 40 (recovered), O2 45 (open),
    /// D 60 (expired). The Aalen–Johansen steps:
    /// - day 10: 5 at risk (A, B, C, O2, D), 1 recovery: CIF = 1 × 1/5 = 0.2, S = 1 × 4/5 = 0.8;
    /// - day 20: 4 at risk, 1 expiry: CIF 0.2, S = 0.8 × 3/4 = 0.6;
    /// - day 40: 3 at risk (C, O2, D), 1 recovery: CIF = 0.2 + 0.6 × 1/3 = 0.4, S = 0.6 × 2/3 = 0.4;
    /// - day 60: 1 at risk, 1 expiry: CIF 0.4, S 0.
    ///
    /// So CIF(60 d) = 0.4. O1 (u = 5 d, before any step): (0.4 − 0) / 1 = 0.4, band [0.4, 0.5). O2 (u = 45 d, after
    /// the day-40 step): (0.4 − 0.4) / 0.4 = 0, band [0, 0.1). Expected: 0.4.
    static let then: [Episode] = [
        episode("O1", start: checkTime - 5 * T.day, outcome: .open),
        episode("A", start: checkTime - 70 * T.day, outcome: .recovered, days: 10),
        episode("B", start: checkTime - 70 * T.day, outcome: .expired, days: 20),
        episode("C", start: checkTime - 50 * T.day, outcome: .recovered, days: 40),
        episode("O2", start: checkTime - 45 * T.day, outcome: .open),
        episode("D", start: checkTime - 61 * T.day, outcome: .expired, days: 60),
    ]

    /// As of T: O1 recovered by a new purchase on day 50 (recovered by day 60); O2 recovered by retry 12 hours after
    /// day 60 (not by day 60); a new episode started after B, which the check leaves out.
    static let now: [Episode] = [
        episode("O1", start: checkTime - 5 * T.day, outcome: .recovered, days: 50, recoveredBy: .newPurchase),
        episode("A", start: checkTime - 70 * T.day, outcome: .recovered, days: 10),
        episode("B", start: checkTime - 70 * T.day, outcome: .expired, days: 20),
        episode("C", start: checkTime - 50 * T.day, outcome: .recovered, days: 40),
        {
            var late = episode("O2", start: checkTime - 45 * T.day, outcome: .recovered)
            late.end = late.start + 60 * T.day + 12 * T.hour
            return late
        }(),
        episode("D", start: checkTime - 61 * T.day, outcome: .expired, days: 60),
        episode("N", start: checkTime + 3 * T.day, outcome: .recovered, days: 2),
    ]

    static func check(then: [Episode] = then, now: [Episode] = now) -> ForecastCheck.Check {
        var before = ForecastCheck.Then(checkTime: checkTime)
        for episode in then { before.add(episode) }
        var tally = ForecastCheck.Tally(forecast: before.forecast)
        for episode in now { tally.add(episode) }
        return tally.check
    }

    @Test func checkTimeIsSixtyOneDaysBeforeTheAsOfTime() {
        #expect(ForecastCheck.checkTime(asOf: Self.asOf) == Self.checkTime)
        #expect(ForecastCheck.checkTime(asOf: Int64.min + 1) == Int64.min)
    }

    @Test func chancesComeFromTheCurveAsOfTheCheckTime() {
        var before = ForecastCheck.Then(checkTime: Self.checkTime)
        for episode in Self.then { before.add(episode) }
        let forecast = before.forecast
        #expect(forecast.episodesThen == 6)
        #expect(forecast.open.count == 2)
        let o1 = ForecastCheck.Key(subscription: "O1", openingNotificationUUID: "O1-open")
        let o2 = ForecastCheck.Key(subscription: "O2", openingNotificationUUID: "O2-open")
        #expect(sixPlaces(forecast.chance(of: o1)) == "0.400000")
        #expect(sixPlaces(forecast.chance(of: o2)) == "0.000000")
        #expect(forecast.chance(of: ForecastCheck.Key(subscription: "O1", openingNotificationUUID: "O2-open")) == nil)
    }

    @Test func expectedAgainstRecoveredByDaySixty() {
        let check = Self.check()
        #expect(check.checkTime == Self.checkTime)
        #expect(check.unmatched == 0)
        let total = check.total
        #expect(total.episodes == 2)
        #expect(sixPlaces(total.expected) == "0.400000")
        // O1 by a new purchase on day 50 counts; O2 twelve hours after day 60 does not.
        #expect(total.observed == 1)
        #expect(sixPlaces(total.observedShare) == "0.500000")
        #expect(sixPlaces(total.meanChance) == "0.200000")
        #expect(total.interval != nil)
        #expect(total.interval == ConfidenceInterval.wilson(successes: 1, trials: 2))
        #expect(check.bands.count == ForecastCheck.bandCount)
        #expect(check.bands[0] == ForecastCheck.Row(episodes: 1, expected: 0, observed: 0))
        #expect(check.bands[4].episodes == 1)
        #expect(check.bands[4].observed == 1)
        #expect(sixPlaces(check.bands[4].expected) == "0.400000")
        #expect(check.bands.enumerated().allSatisfy { [0, 4].contains($0.offset) || $0.element.episodes == 0 })
    }

    @Test func recoveredByDaySixtyIsInclusive() {
        let onTheDay = Self.episode("X", start: 0, outcome: .recovered, days: 60)
        var after = onTheDay
        after.end = 60 * T.day + 1
        #expect(ForecastCheck.isRecoveredInWindow(onTheDay))
        #expect(!ForecastCheck.isRecoveredInWindow(after))
        #expect(!ForecastCheck.isRecoveredInWindow(Self.episode("Y", start: 0, outcome: .expired, days: 10)))
        #expect(!ForecastCheck.isRecoveredInWindow(Self.episode("Z", start: 0, outcome: .cancelled, days: 10)))
    }

    @Test func theCheckDerivedFromTheEpisodesAsOfTAloneIsTheCheckOfTheEpisodesBuiltAsOfB() {
        // Every episode of `now` ended by B as it stood at B, and O1 and O2 ended after B: as of B they were open.
        var derived = ForecastCheck.Derived(asOf: Self.asOf)
        for episode in Self.now { derived.add(episode) }
        #expect(derived.check == Self.check())
        #expect(derived.check.episodesThen == 6, "N started after B")
    }

    @Test func anEndByInferenceStoodAtTheCheckTimeOnlyOnceTheEpisodeWasMature() {
        // Expired by inference at t0 + 60 days, which is before B; mature (t0 + 61 days) only after B.
        var expired = Self.episode("E", start: Self.checkTime - 60 * T.day - T.hour, outcome: .expired, days: 60)
        expired.endInferred = true
        #expect(ForecastCheck.asItStood(expired, at: Self.checkTime).isOpen)
        let matured = ForecastCheck.asItStood(expired, at: Self.checkTime + T.day)
        #expect(matured == expired)
        // Ended by a notification before B: as it is.
        var notified = expired
        notified.endInferred = false
        #expect(ForecastCheck.asItStood(notified, at: Self.checkTime) == notified)
        // Ended after B: open then, with no outcome, end or closing notification.
        let recovered = Self.episode("R", start: Self.checkTime - 2 * T.day, outcome: .recovered, days: 3)
        let open = ForecastCheck.asItStood(recovered, at: Self.checkTime)
        #expect(open.isOpen && open.end == nil && open.recoveredBy == nil && open.closingNotificationUUID == nil)
        #expect(open.duration(asOf: Self.checkTime) == 2 * T.day)
    }

    @Test func anEpisodeNotFoundLaterIsLeftOutAndCounted() {
        // At T, O2's subscription has an episode opened by another notification: not the one open at B.
        let now = Self.now.map { episode in
            var episode = episode
            if episode.subscription == "O2" { episode.openingNotificationUUID = "O2-other" }
            return episode
        }
        let check = Self.check(now: now)
        #expect(check.unmatched == 1)
        #expect(check.total.episodes == 1)
        #expect(check.total.observed == 1)
        #expect(sixPlaces(check.total.expected) == "0.400000")
    }

    @Test(arguments: [
        (0.0, 0), (0.099_999, 0), (0.1, 1), (0.15, 1), (0.2, 2), (0.3, 3), (0.7, 7), (0.899_999, 8), (0.9, 9),
        (0.999, 9), (1.0, 9), (-0.0, 0),
        // Rounded to 6 decimals first, as written: these are 0.1 and 0.5 in the file (the second is
        // (0.5 − 0.2) / (0.8 × 0.75) as the curve computes it).
        (0.099_999_9, 1), (0.499_999_999_999_999_9, 5),
    ])
    func tenthsIncludeTheirLowerBound(chance: Double, band: Int) {
        #expect(ForecastCheck.band(of: chance) == band)
    }

    @Test func everyTenthStartsAtItsOwnBound() {
        for band in 0..<ForecastCheck.bandCount {
            let bound = Double(band) / 10
            #expect(ForecastCheck.band(of: bound) == band)
            // Below the bound by rounding error: written as the bound, so in its band.
            #expect(ForecastCheck.band(of: bound.nextDown) == band)
            // Written one millionth below it: the band before.
            #expect(ForecastCheck.band(of: bound - 0.000_001) == max(band - 1, 0))
        }
    }

    @Test func chancesOnTheBoundsFallInTheUpperTenth() {
        let ids = (0..<3).map { (subscription: "S\($0)", opening: "u\($0)") }
        let chances = [0.1, 0.2, 1.0]
        let forecast = ForecastCheck.Forecast(
            checkTime: Self.checkTime, episodesThen: 3,
            open: zip(ids, chances).map { id, chance in
                ForecastCheck.Forecast.Entry(
                    key: ForecastCheck.Key(subscription: id.subscription, openingNotificationUUID: id.opening),
                    chance: chance)
            })
        var tally = ForecastCheck.Tally(forecast: forecast)
        for (index, id) in ids.enumerated() {
            tally.add(
                Episode(
                    subscription: id.subscription, start: 0, end: T.day, outcome: index == 0 ? .recovered : .expired,
                    openingNotificationUUID: id.opening))
        }
        let bands = tally.check.bands
        #expect(bands.map(\.episodes) == [0, 1, 1, 0, 0, 0, 0, 0, 0, 1])
        #expect(bands.map(\.observed) == [0, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func tooLittleHistoryGivesAnEmptyCheck() {
        // Every episode starts after B: none as of B.
        let check = Self.check(then: [], now: Self.now)
        #expect(check.episodesThen == 0)
        #expect(check.total == ForecastCheck.Row())
        #expect(check.total.observedShare == nil)
        #expect(check.total.interval == nil)
        #expect(check.total.meanChance == nil)
        #expect(ForecastCheck.Check.empty(asOf: Self.asOf).total == check.total)
    }
}
