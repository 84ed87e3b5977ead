import Analysis
import Reports
import TestSupport
import Testing

@Suite struct FlowsTableTests {
    // 2024-03-01 is a Friday in ISO week 2024-W09 (Feb 26–Mar 3); W10 is Mar 4–10, W11 Mar 11–17, W12 Mar 18–24.
    let march1 = T.march1
    let day = T.day
    /// 2024-03-18T12:00Z, in W12.
    var asOf: Int64 { march1 + 17 * day + 12 * T.hour }

    var episodes: [Episode] {
        [
            // W09 → recovered without grace on Mar 3 (W09).
            episode("e1", start: march1, .recovered, after: 2 * day),
            // W09 → saved in grace on Mar 5 (W10).
            episode("e2", start: march1 + day, .recovered, after: 3 * day, grace: march1 + 7 * day),
            // W09 → recovered after its grace ended (Mar 6) on Mar 8 (W10).
            episode("e3", start: march1 + 2 * day, .recovered, after: 5 * day, grace: march1 + 5 * day),
            // W10 → recovered with an unknown grace end on Mar 5 (W10): after grace.
            episode("e4", start: march1 + 3 * day, .recovered, after: day, grace: .some(nil)),
            // W10 → expired on Mar 12 (W11).
            episode("e5", start: march1 + 4 * day, .expired, after: 7 * day),
            // W11 (Mar 11 00:00) → cancelled at its start.
            episode("e6", start: march1 + 10 * day, .cancelled, after: 0),
            // W11 (Mar 12) → other, with an end a day before t0: its flow time is t0.
            episode("e7", start: march1 + 11 * day, .other, after: -day),
            // W11 (Mar 15), open.
            episode("e8", start: march1 + 14 * day, .open),
            // W12 (Mar 18 01:00), open.
            episode("e9", start: march1 + 17 * day + T.hour, .open),
        ]
    }

    // in_retry_at_week_end, c = min(week end, as-of): t0 < c and (open or flow time ≥ c):
    //   W09, c = Mar 4:  e1 (left Mar 3) no; e2 (Mar 5), e3 (Mar 8) yes → 2
    //   W10, c = Mar 11: e1–e5 started; only e5 (Mar 12) still in → 1 (e6 starts at c, not before)
    //   W11, c = Mar 18: e5 left Mar 12, e6 Mar 11, e7 Mar 12; e8 open → 1
    //   W12, c = as-of (Mar 18 12:00): e8, e9 open → 2
    @Test func weeklyFlowsByHand() {
        let table = Flows.table(Flows.weeks(episodes: episodes.shuffled(), asOf: asOf))
        #expect(table.name == "flows.csv")
        #expect(
            table.columns == [
                "week", "entered", "recovered_in_grace", "recovered_after_grace", "recovered_without_grace",
                "expired", "cancelled", "other", "in_retry_at_week_end",
            ])
        #expect(
            lines(table) == [
                "2024-W09,3,0,0,1,0,0,0,2",
                "2024-W10,2,1,2,0,0,0,0,1",
                "2024-W11,3,0,0,0,1,1,1,1",
                "2024-W12,1,0,0,0,0,0,0,2",
            ])
    }

    @Test func everyWeekUpToTheAsOfWeekAcrossTheISOYear() {
        // 2024-12-23 is the Monday of 2024-W52; 2024-12-30 starts 2025-W01; 2025-01-06 starts 2025-W02.
        let start: Int64 = 1_734_912_000_000
        let asOf: Int64 = 1_736_121_600_000 + T.hour
        #expect(
            lines(Flows.table(Flows.weeks(episodes: [episode("o", start: start, .open)], asOf: asOf))) == [
                "2024-W52,1,0,0,0,0,0,0,1",
                "2025-W01,0,0,0,0,0,0,0,1",
                "2025-W02,0,0,0,0,0,0,0,1",
            ])
    }

    @Test func anEpisodeEndingAtTheAsOfTimeIsStillInRetryAtItsWeekEnd() {
        // c = as-of for the last week, and a flow time ≥ c counts as in retry: the episode leaves and is counted
        // in retry in the same row.
        let asOf = march1 + 2 * day
        let table = Flows.table(
            Flows.weeks(episodes: [episode("x", start: march1, .expired, after: 2 * day)], asOf: asOf))
        #expect(lines(table) == ["2024-W09,1,0,0,0,1,0,0,1"])
    }

    @Test func noWeekAfterTheAsOfTimesWeek() {
        // As of Wednesday 2024-03-06 12:00 (W10). Episodes whose data place them later must not add weeks:
        //   a: W09 (Mar 1), recovered on Mar 11 (W11, after the as-of time: a purchase date later than its
        //      notification was signed);
        //   b: W10 (Mar 5), expired on Mar 20 (W12);
        //   c: t0 on Mar 12 (W11), open: it enters no listed week and, starting after the as-of time, is in retry
        //      at no week's end;
        //   d: W09 (Mar 2), recovered on Mar 6 06:00, before the as-of time, in W10.
        // in_retry_at_week_end: W09, c = Mar 4: a, d → 2; W10, c = as-of: a and b (flow times after c) → 2.
        let asOf = march1 + 5 * day + 12 * T.hour
        let episodes = [
            episode("a", start: march1, .recovered, after: 10 * day),
            episode("b", start: march1 + 4 * day, .expired, after: 15 * day),
            episode("c", start: march1 + 11 * day, .open),
            episode("d", start: march1 + day, .recovered, after: 4 * day + 6 * T.hour),
        ]
        #expect(
            lines(Flows.table(Flows.weeks(episodes: episodes.shuffled(), asOf: asOf))) == [
                "2024-W09,2,0,0,0,0,0,0,2",
                "2024-W10,1,0,0,1,0,0,0,2",
            ])
        // Only episodes that start after the as-of time's week: no week runs from their t0 to it, so no rows.
        #expect(Flows.weeks(episodes: [episodes[2]], asOf: asOf).isEmpty)
    }

    /// Random episodes whose times fall on and around week boundaries and the as-of time: each week's
    /// `in_retry_at_week_end` is the definition's count, t0 < c and (open or flow time ≥ c), c = min(week end, as-of),
    /// and `entered` the episodes whose t0 is in the week.
    @Test(arguments: [UInt64](1...20))
    func inRetryAtWeekEndIsTheDefinitionsCount(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let asOf = march1 + Int64(random.next() % 21) * day + [0, 1, T.hour, day - 1][Int(random.next() % 4)]
        func instant() -> Int64 {
            // Week boundaries (Mondays 00:00), the as-of time, and a millisecond either side of each.
            let anchors = [march1 - 4 * day, march1 + 3 * day, march1 + 10 * day, march1 + 17 * day, asOf]
            let anchor = anchors[Int(random.next() % UInt64(anchors.count))]
            return anchor + Int64(random.next() % 3) - 1 + Int64(random.next() % 4)
                * [0, day, T.hour][Int(random.next() % 3)]
        }
        let outcomes: [Episode.Outcome] = [.open, .recovered, .expired, .cancelled, .other]
        let episodes = (0..<60).map { index in
            let start = instant()
            let outcome = outcomes[Int(random.next() % UInt64(outcomes.count))]
            return episode("e\(index)", start: start, outcome, after: outcome == .open ? nil : instant() - start)
        }
        let weeks = Flows.weeks(episodes: episodes, asOf: asOf)
        #expect(!weeks.isEmpty)
        for week in weeks {
            let cut = min(week.week.end, asOf)
            let inRetry = episodes.filter { $0.start < cut && ($0.flowTime.map { $0 >= cut } ?? true) }.count
            #expect(week.inRetryAtWeekEnd == inRetry, "seed \(seed), \(week.week)")
            #expect(week.entered == episodes.filter { CalendarPeriod(.week, containing: $0.start) == week.week }.count)
        }
        #expect(weeks.last?.week == CalendarPeriod(.week, containing: asOf))
    }

    @Test func noEpisodesNoRows() {
        #expect(Flows.table(Flows.weeks(episodes: [], asOf: asOf)).rows.isEmpty)
    }
}
