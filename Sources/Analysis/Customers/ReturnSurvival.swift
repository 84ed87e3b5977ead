/// The Kaplan–Meier estimate of how soon customers lost to billing come back (METRICS.md, "Customers who come
/// back"): each expired episode is followed from its end e until its customer's return, or censored at the as-of
/// time T when none came by then.
///
/// `returned(by:)` is 1 − S(t), S the Kaplan–Meier survival (not yet returned): at a tie, returns come before
/// censorings (an episode censored at t is still at risk at t), and the value at t is the estimate after every return
/// at or before t. It is undefined when no episode's follow-up (its time to return, or T − e) reaches t.
package struct ReturnSurvival: Sendable {
    /// One expired episode's follow-up: `time` from its end to its return (`returned`), or to the as-of time.
    package struct FollowUp: Hashable, Sendable {
        /// Milliseconds from the episode's end; never negative.
        package var time: Int64
        /// True when the customer came back at `time`; false when the follow-up was cut there (censored).
        package var returned: Bool

        package init(time: Int64, returned: Bool) {
            self.time = max(0, time)
            self.returned = returned
        }
    }

    /// The follow-ups added, in no particular order.
    private(set) var followUps: [FollowUp] = []

    package init(_ followUps: [FollowUp] = []) {
        self.followUps = followUps
    }

    package mutating func add(_ followUp: FollowUp) {
        followUps.append(followUp)
    }

    /// The follow-ups added.
    package var count: Int { followUps.count }

    package var isEmpty: Bool { followUps.isEmpty }

    /// Each time with returns, in time order: the survival just after it and Greenwood's sum Σ dᵢ / (nᵢ (nᵢ − dᵢ))
    /// up to it; and the longest follow-up (−1 for none).
    ///
    /// Returns before censorings at a tie: both leave the risk set after the returns at that time are counted.
    private func steps() -> (steps: [(time: Int64, survival: Double, greenwood: Double)], longest: Int64) {
        let ordered = followUps.sorted { ($0.time, $0.returned ? 0 : 1) < ($1.time, $1.returned ? 0 : 1) }
        var steps: [(time: Int64, survival: Double, greenwood: Double)] = []
        var atRisk = ordered.count
        var survival = 1.0
        var greenwood = 0.0
        var index = 0
        while index < ordered.count {
            let time = ordered[index].time
            var returns = 0
            var leaving = 0
            while index < ordered.count, ordered[index].time == time {
                if ordered[index].returned { returns += 1 }
                leaving += 1
                index += 1
            }
            if returns > 0 {
                survival *= 1 - Double(returns) / Double(atRisk)
                if atRisk > returns { greenwood += Double(returns) / (Double(atRisk) * Double(atRisk - returns)) }
                steps.append((time, survival, greenwood))
            }
            atRisk -= leaving
        }
        return (steps, ordered.last?.time ?? -1)
    }

    /// 1 − S(t) at each of `times` (milliseconds, in any order), nil where no follow-up reaches it.
    package func returned(by times: [Int64]) -> [Double?] {
        let (steps, longest) = steps()
        return times.map { time in
            guard time <= longest else { return nil }
            let last = steps.last { $0.time <= time }
            return 1 - (last?.survival ?? 1)
        }
    }

    /// Greenwood's standard error of 1 − S(t) at `time` (ms): S(t) · √Σ dᵢ / (nᵢ (nᵢ − dᵢ)) over the return times
    /// at or before `time`; nil where ``returned(by:)`` is nil, and where S(t) is 0.
    package func standardError(at time: Int64) -> Double? {
        let (steps, longest) = steps()
        guard time <= longest else { return nil }
        guard let last = steps.last(where: { $0.time <= time }) else { return 0 }
        return last.survival > 0 ? last.survival * last.greenwood.squareRoot() : nil
    }
}
