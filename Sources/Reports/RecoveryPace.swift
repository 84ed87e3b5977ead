import Analysis

/// How fast recoveries come: the recovery curve at days 3, 16, 28 and 60, next to Apple's published pace.
///
/// `shareOfDay60` is `cif_recovery(day) / cif_recovery(60)`: of the recoveries that happen within 60 days, the
/// share that had happened by that day. It is taken from the curve, so open episodes are censored and expiry,
/// cancellation and other ends compete with recovery (a plain count of recoveries would under-count the late
/// ones of episodes still open). Apple's figures are on this scale.
package struct RecoveryPace: Hashable, Sendable {
    /// One day of the comparison.
    package struct Mark: Hashable, Sendable {
        package var day: Int
        /// `cif_recovery` on `day`: the share of all episodes recovered by then.
        package var cifRecovery: Double
        /// `cifRecovery / cif_recovery(60)`; nil when nothing recovered by day 60.
        package var shareOfDay60: Double?
        /// Apple's published share of recoveries by `day`; nil for day 60.
        package var appleReference: Double?

        package init(day: Int, cifRecovery: Double, shareOfDay60: Double?, appleReference: Double?) {
            self.day = day
            self.cifRecovery = cifRecovery
            self.shareOfDay60 = shareOfDay60
            self.appleReference = appleReference
        }
    }

    /// Apple's published pace: the share of recoveries made by day 3, 16 and 28 (the three grace-period
    /// lengths App Store Connect offers).
    package static let appleReference: [(day: Int, share: Double)] = [(3, 0.40), (16, 0.75), (28, 0.90)]
    /// The last day of the curve; shares are of the recoveries up to this day.
    package static let horizon = 60

    /// Days 3, 16, 28 and 60, in order.
    package var marks: [Mark]

    /// The pace of a recovery curve.
    ///
    /// - Parameter points: `RecoveryCurve.points(episodes:asOf:)`, days 1…60.
    package init(points: [RecoveryCurve.Point]) {
        func cif(_ day: Int) -> Double {
            points.first { $0.day == day }?.cifRecovery ?? 0
        }
        let atHorizon = cif(Self.horizon)
        let days = Self.appleReference.map { ($0.day, Optional($0.share)) } + [(Self.horizon, nil)]
        marks = days.map { day, reference in
            Mark(
                day: day,
                cifRecovery: cif(day),
                shareOfDay60: atHorizon > 0 ? cif(day) / atHorizon : nil,
                appleReference: reference
            )
        }
    }

    /// `cif_recovery` on day 60, the curve's height at its end.
    package var cifAtHorizon: Double {
        marks.last?.cifRecovery ?? 0
    }
}
