import Analysis
import TestSupport
import Testing

/// `grace_whatif.csv`'s figures, worked out by hand (METRICS.md, "What another grace length would have kept or given
/// away").
@Suite struct GraceWhatIfTests {
    static let asOf = T.july1
    /// Mature: t0 + 61 days = 2024-05-01 ≤ 2024-07-01.
    static let t0 = T.march1
    static let h = T.hour
    static let day = T.day
    static let app = "com.example.app"

    /// An episode of `product` starting at `start`; `graceDays` dates a grace period from a notification.
    static func episode(
        _ id: String,
        product: String? = "pro.monthly",
        start: Int64 = t0,
        _ outcome: Episode.Outcome,
        after duration: Int64 = 0,
        by recoveredBy: Episode.RecoveredBy? = nil,
        graceDays: Int? = 16,
        bundleId: String? = app
    ) -> Episode {
        Episode(
            subscription: id, productId: product, start: start, hasGrace: graceDays != nil,
            graceEnd: graceDays.map { start + Int64($0) * day }, end: outcome == .open ? nil : start + duration,
            outcome: outcome, recoveredBy: recoveredBy, bundleId: bundleId, openingNotificationUUID: id + "-open")
    }

    /// `pro.monthly`: every episode has a 16-day grace period dated by a notification, in the app `app`.
    ///
    /// | episode | outcome | duration (days) |
    /// |---|---|---|
    /// | R2 | recovered by retry on day 2 | 1.5 |
    /// | R3 | recovered by retry at exactly 72 h | 3 |
    /// | R5 | recovered by retry on day 5 | 4.25 |
    /// | R10 | recovered by retry on day 10 | 9.5 |
    /// | R20 | recovered by retry on day 20 | 19.25 |
    /// | N | recovered by a new purchase on day 2 | 1 |
    /// | X | expired | 60 |
    /// | C | cancelled on day 5 | 4 |
    /// | O | open since June 11: not mature | — |
    /// | Y | recovered by retry after 1 day, t0 May 15: not mature | — |
    static let monthly: [Episode] = [
        episode("R2", .recovered, after: 36 * h),
        episode("R3", .recovered, after: 72 * h),
        episode("R5", .recovered, after: 4 * day + 6 * h),
        episode("R10", .recovered, after: 9 * day + 12 * h),
        episode("R20", .recovered, after: 19 * day + 6 * h),
        episode("N", .recovered, after: day, by: .newPurchase),
        episode("X", .expired, after: 60 * day),
        episode("C", .cancelled, after: 4 * day),
        episode("O", start: T.june1 + 10 * day, .open),
        episode("Y", start: T.may1 + 14 * day, .recovered, after: day),
    ]

    // The eight mature episodes, by G (a retry recovery within G × 24 h is in grace; the others had
    // min(duration, G) free days):
    //
    //   G 0:  none in grace (no grace at all)                  paid 0              free 0
    //   G 3:  R2 1.5, R3 3 (≤ 72 h)                  → 2      paid 4.5            free R5 3 + R10 3 + R20 3 + N 1
    //                                                                             + X 3 + C 3 = 16
    //   G 6:  R2, R3, R5 4.25                        → 3      paid 8.75           free R10 6 + R20 6 + N 1 + X 6
    //                                                                             + C 4 = 23
    //   G 16: R2, R3, R5, R10 9.5                    → 4      paid 18.25          free R20 16 + N 1 + X 16 + C 4 = 37
    //   G 28: R2, R3, R5, R10, R20 19.25             → 5      paid 37.5           free N 1 + X 28 + C 4 = 33
    //
    // N (a new purchase) is never in grace, O and Y are not mature. Per episode, over 8: paid 0, 0.5625, 1.09375,
    // 2.28125, 4.6875; free 0, 2, 2.875, 4.625, 4.125. The product's grace length is 16 days: G 16 is current.
    @Test func aProductWithRecoveriesInsideAndAfterEachLength() {
        let rows = GraceWhatIf.rows(episodes: Self.monthly.shuffled(), asOf: Self.asOf)
        #expect(rows.map(\.productId) == Array(repeating: "pro.monthly", count: 5))
        #expect(rows.map(\.graceDays) == [0, 3, 6, 16, 28])
        #expect(rows.map(\.isCurrent) == [false, false, false, true, false])
        #expect(rows.map(\.figures.matureEpisodes) == [8, 8, 8, 8, 8])
        #expect(rows.map(\.figures.recoveredInGrace) == [0, 2, 3, 4, 5])
        #expect(rows.map(\.figures.paidDaysKept) == [0, 4.5, 8.75, 18.25, 37.5])
        #expect(rows.map(\.figures.freeAccessDays) == [0, 16, 23, 37, 33])
        #expect(rows.map(\.figures.paidDaysKeptPerEpisode) == [0, 0.5625, 1.09375, 2.28125, 4.6875])
        #expect(rows.map(\.figures.freeAccessDaysPerEpisode) == [0, 2, 2.875, 4.625, 4.125])
        // Summed in milliseconds: 4.5 days at G 3.
        #expect(rows[1].figures.paidKept == 108 * Self.h)
    }

    /// `pro.plain` has no grace period: G 0 is current. Its mature episodes: E expired (60 days) and Z recovered by
    /// retry the moment retry began (duration 0).
    ///
    ///   G 0:  Z is not in grace (G 0 has none), free min(0, 0) + min(60, 0) = 0
    ///   G 3, 6, 16, 28: Z in grace with 0 paid days; E free G days → per episode 0 paid, G / 2 free.
    @Test func aProductWithoutGraceHasZeroCurrent() {
        let plain = [
            Self.episode("E", product: "pro.plain", .expired, after: 60 * Self.day, graceDays: nil),
            Self.episode("Z", product: "pro.plain", .recovered, after: 0, graceDays: nil),
        ]
        let rows = GraceWhatIf.rows(episodes: plain, asOf: Self.asOf)
        #expect(rows.map(\.isCurrent) == [true, false, false, false, false])
        #expect(rows.map(\.figures.recoveredInGrace) == [0, 1, 1, 1, 1])
        #expect(rows.map(\.figures.paidDaysKept) == [0, 0, 0, 0, 0])
        #expect(rows.map(\.figures.freeAccessDays) == [0, 3, 6, 16, 28])
        #expect(rows.map(\.figures.freeAccessDaysPerEpisode) == [0, 1.5, 3, 8, 14])
    }

    /// Products whose grace length comes from elsewhere, or from nowhere.
    ///
    /// - `pro.app`: its only grace period had no date and was dated with the app's length (16 days, from
    ///   `pro.monthly`'s ten dated grace periods against `pro.seven`'s one of 7): G 16 is current.
    /// - `pro.seven`: its grace period lasted 7 days, none of the five lengths: no row is current.
    /// - `pro.unknown`: a grace period with no date and no app to take a length from: no row is current. Its only
    ///   episode is open, so no episode is mature and the per-episode figures are undefined.
    @Test func theCurrentLengthIsTheInferredOne() {
        var inferred = Self.episode("A", product: "pro.app", .expired, after: 60 * Self.day)
        inferred.graceEndInferred = true
        let undated = Episode(
            subscription: "U", productId: "pro.unknown", start: T.june1, hasGrace: true, graceEnd: nil,
            outcome: .open, openingNotificationUUID: "U-open")
        let seven = Self.episode("S", product: "pro.seven", .expired, after: 60 * Self.day, graceDays: 7)
        let episodes = Self.monthly + [inferred, seven, undated]
        let rows = GraceWhatIf.rows(episodes: episodes, asOf: Self.asOf)
        func current(_ product: String) -> [Int] {
            rows.filter { $0.productId == product && $0.isCurrent }.map(\.graceDays)
        }
        #expect(Set(rows.map(\.productId)) == ["pro.app", "pro.monthly", "pro.seven", "pro.unknown"])
        #expect(current("pro.app") == [16])
        #expect(current("pro.monthly") == [16])
        #expect(current("pro.seven") == [])
        #expect(current("pro.unknown") == [])
        let unknownRows = rows.filter { $0.productId == "pro.unknown" }
        #expect(unknownRows.map(\.figures.matureEpisodes) == [0, 0, 0, 0, 0])
        #expect(unknownRows.allSatisfy { $0.figures.paidDaysKeptPerEpisode == nil })
        #expect(unknownRows.allSatisfy { $0.figures.freeAccessDaysPerEpisode == nil })
        // Products in UTF-8 byte order, each with its five lengths.
        #expect(
            rows.map(\.productId)
                == ["pro.app", "pro.monthly", "pro.seven", "pro.unknown"].flatMap { Array(repeating: $0, count: 5) })
    }

    /// A product whose undated grace periods are in two apps with different lengths has no one length; without a
    /// product of its own, each app's length would be taken.
    @Test func graceEpisodesInAppsWithDifferentLengthsHaveNoCurrentLength() {
        let lengths = GraceLengths(counts: [
            .init(productId: "a.monthly", bundleId: "com.a", days: 3, episodes: 2),
            .init(productId: "b.monthly", bundleId: "com.b", days: 28, episodes: 2),
        ])
        func current(_ bundleIds: Set<String?>) -> Int? {
            GraceWhatIf.currentLength(
                hasGrace: true, productId: "shared", bundleIds: bundleIds, graceLengths: lengths)
        }
        #expect(current(["com.a"]) == 3)
        #expect(current(["com.b"]) == 28)
        #expect(current(["com.a", "com.b"]) == nil)
        #expect(current(["com.a", nil]) == nil)
        #expect(current([nil]) == nil)
        let own = GraceWhatIf.currentLength(
            hasGrace: true, productId: "a.monthly", bundleIds: ["com.b"], graceLengths: lengths)
        #expect(own == 3, "the product's own length comes first")
        #expect(
            GraceWhatIf.currentLength(hasGrace: false, productId: "shared", bundleIds: [], graceLengths: lengths) == 0)
    }

    /// The report adds its episodes one at a time and takes the lengths from them; a question over some of the
    /// episodes takes the lengths it is given (every episode's), not those of the episodes it selected.
    @Test func theReportAndAQuestionGiveTheSameRows() {
        var inferred = Self.episode("A", product: "pro.app", .expired, after: 60 * Self.day)
        inferred.graceEndInferred = true
        let episodes = Self.monthly + [inferred]
        let report = ChurnReport(EpisodeDataset(asOf: Self.asOf, episodes: episodes))
        #expect(report.graceWhatIf == GraceWhatIf.rows(episodes: episodes, asOf: Self.asOf))

        let question = EpisodeQuestion(.graceWhatIf)
        var tally = EpisodeQuestion.Tally(question, asOf: Self.asOf)
        tally.add(inferred)
        // Over `pro.app` alone the app has no dated grace period, so no length.
        guard case .graceWhatIf(let alone) = tally.answer.last?.figures else {
            Issue.record("no grace-whatif figures")
            return
        }
        #expect(alone.filter(\.isCurrent).isEmpty)
        guard
            case .graceWhatIf(let withLengths) = tally.answer(graceLengths: GraceLengths(observedIn: episodes)).last?
                .figures
        else {
            Issue.record("no grace-whatif figures")
            return
        }
        #expect(withLengths.filter(\.isCurrent).map(\.graceDays) == [16])
        #expect(withLengths == report.graceWhatIf.filter { $0.productId == "pro.app" })
    }
}
