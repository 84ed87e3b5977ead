import Analysis
import TestSupport
import Testing

@Suite struct EpisodeQuestionTests {
    static let asOf = T.may1

    /// Two monthly episodes (one with grace) and three annual ones (none with grace).
    let episodes = [
        episode("m2", start: T.march1 + T.day, .expired, after: 60 * T.day),
        episode("m1", start: T.march1, .recovered, after: 2 * T.day, grace: T.march1 + 16 * T.day),
        episode("a1", start: T.march1, .recovered, after: T.day, product: "annual"),
        episode("a2", start: T.april1, .open, product: "annual"),
        episode("a3", start: T.march1 + 2 * T.day, .cancelled, after: 5 * T.day, product: "annual"),
    ]

    @Test func groupsInOrderThenAllEpisodes() throws {
        let answer = EpisodeQuestion(.recoveryRate, grouping: [.product]).answer(episodes: episodes, asOf: Self.asOf)
        #expect(answer.map(\.key) == [[.text("annual")], [.text("monthly")], nil])
        guard case .recoveryRate(let total) = try #require(answer.last).figures else {
            Issue.record("recovery-rate answers with outcome counts")
            return
        }
        #expect(total.outcomes.episodes == 5)
        #expect(total.outcomes.recovered == 2)
        // Mature: m1 and a1, which started exactly 61 days before the as-of time, both recovered.
        #expect(total.mature.episodes == 2)
        #expect(total.mature.recovered == 2)
        #expect(EpisodeQuestion(.recoveryRate).answer(episodes: episodes, asOf: Self.asOf).map(\.key) == [nil])
    }

    @Test func graceSavesLeaveOutGroupsWithoutGrace() {
        let answer = EpisodeQuestion(.graceSaves, grouping: [.product]).answer(episodes: episodes, asOf: Self.asOf)
        #expect(answer.map(\.key) == [[.text("monthly")], nil])
        #expect(answer.last?.figures == .graceSaves(GracePeriod.rows(episodes: episodes, asOf: Self.asOf)[1].counts))
    }

    @Test func episodesAreListedByGroupUpToTheLimitOfEachGroup() {
        func listed(_ limit: Int?) -> [[String]] {
            EpisodeQuestion(.episodes, grouping: [.product], limit: limit).answer(episodes: episodes, asOf: Self.asOf)
                .map { group in
                    guard case .episodes(let members) = group.figures else { return [] }
                    return members.map(\.subscription)
                }
        }
        // By start within a group; no total.
        #expect(listed(nil) == [["a1", "a3", "a2"], ["m1", "m2"]])
        // The limit holds for each group, not for the whole list.
        #expect(listed(4) == [["a1", "a3", "a2"], ["m1", "m2"]])
        #expect(listed(2) == [["a1", "a3"], ["m1", "m2"]])
        #expect(listed(1) == [["a1"], ["m1"]])
        #expect(listed(-1) == [])
        // Without a grouping, it holds for the whole list.
        let ungrouped = EpisodeQuestion(.episodes, limit: 3).answer(episodes: episodes, asOf: Self.asOf)
        #expect(ungrouped.count == 1)
        guard case .episodes(let members) = ungrouped.first?.figures else {
            Issue.record("episodes answers with episodes")
            return
        }
        #expect(members.map(\.subscription) == ["a1", "m1", "m2"])
    }
}
