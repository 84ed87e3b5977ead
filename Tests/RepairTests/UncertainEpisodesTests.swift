import Analysis
import AppStoreNotifications
import Repair
import Testing

/// The repair's choice of uncertain episodes follows the episode rules: maturity at t0 + (W + 1) days, W = 60 or 90
/// under a commitment, and news counted back from the as-of time.
@Suite struct UncertainEpisodesTests {
    static let t0: Int64 = 1_700_000_000_000
    static let day = Milliseconds.day

    static func episode(
        plan: Episode.BillingPlan = .standard, hasGrace: Bool = false, graceEnd: Int64? = nil,
        graceEndInferred: Bool = false
    ) -> Episode {
        Episode(
            subscription: "1000", start: t0, hasGrace: hasGrace, graceEnd: graceEnd, outcome: .open,
            graceEndInferred: graceEndInferred, openingNotificationUUID: "u1", billingPlan: plan)
    }

    /// Rules as of `days` after t0, with news of the subscription just now (never stale).
    static func rules(atDay days: Double) -> UncertainEpisodes {
        UncertainEpisodes(asOf: t0 + Int64(days * Double(day)), staleDays: 7)
    }

    @Test func aStandardEpisodeEndsByInferenceAt61DaysNotAt60AndAHalf() {
        let open = Self.episode()
        let halfway = Self.rules(atDay: 60.5)
        #expect(halfway.reason(of: open, lastNews: halfway.asOf) == nil)
        let mature = Self.rules(atDay: 61)
        #expect(mature.reason(of: open, lastNews: mature.asOf) == .inferredExpiry)
    }

    @Test func aCommitmentEpisodeOpenOnDay70IsNotAnInferredExpiryButOpenWithoutNews() {
        let commitment = Self.episode(plan: .commitment)
        let rules = Self.rules(atDay: 70)
        #expect(rules.reason(of: commitment, lastNews: rules.asOf) == nil)
        // Its failure notice, 70 days ago, was the last news.
        let reason = rules.reason(of: commitment, lastNews: Self.t0)
        #expect(reason == .openWithoutNews)
        // What the notifications say is a billing issue still: Apple's "billing retry" agrees.
        #expect(reason?.expected.agrees(with: .known(.billingRetry)) == true)
        #expect(reason?.expected.agrees(with: .known(.expired)) == false)
        // And it matures at t0 + 91 days.
        let later = Self.rules(atDay: 90.9)
        #expect(later.reason(of: commitment, lastNews: later.asOf) == nil)
        let mature = Self.rules(atDay: 91)
        #expect(mature.reason(of: commitment, lastNews: mature.asOf) == .inferredExpiry)
    }

    @Test func newsIsStaleFromStaleDaysBeforeTheAsOfTime() {
        let rules = Self.rules(atDay: 30)
        #expect(rules.reason(of: Self.episode(), lastNews: rules.asOf - 7 * Self.day) == .openWithoutNews)
        #expect(rules.reason(of: Self.episode(), lastNews: rules.asOf - 7 * Self.day + 1) == nil)
        #expect(rules.reason(of: Self.episode(), lastNews: nil) == nil)
    }

    @Test func anOpenGraceWithoutADateIsUncertainAndOneWithADateIsNot() {
        let rules = Self.rules(atDay: 3)
        let news = rules.asOf
        #expect(rules.reason(of: Self.episode(hasGrace: true), lastNews: news) == .graceEndUnknown)
        let inferred = Self.episode(hasGrace: true, graceEnd: Self.t0 + 16 * Self.day, graceEndInferred: true)
        #expect(rules.reason(of: inferred, lastNews: news) == .graceEndUnknown)
        let dated = Self.episode(hasGrace: true, graceEnd: Self.t0 + 16 * Self.day)
        #expect(rules.reason(of: dated, lastNews: news) == nil)
    }

    @Test func anEpisodeClosedByANotificationIsNotUncertain() {
        var recovered = Self.episode()
        recovered.outcome = .recovered
        recovered.end = Self.t0 + Self.day
        let rules = Self.rules(atDay: 100)
        #expect(rules.reason(of: recovered, lastNews: Self.t0) == nil)
        var inferred = Self.episode()
        inferred.outcome = .expired
        inferred.end = Self.t0 + 60 * Self.day
        inferred.endInferred = true
        #expect(rules.reason(of: inferred, lastNews: Self.t0) == .inferredExpiry)
    }
}
