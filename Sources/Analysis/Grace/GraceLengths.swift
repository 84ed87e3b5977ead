/// The usual billing grace length of each product and app, read off episodes whose grace end came from a
/// notification, to date the grace periods Apple announced without a `gracePeriodExpiresDate`.
///
/// METRICS.md, "Grace without a date": the length of an episode is ⌊(grace_end − t0) / 24 h + ½⌋ whole days; a
/// product's length is the most frequent one among its dated episodes (ties: the shorter), else the app's (by
/// bundle id) the same way. Per product first, because Apple caps a weekly product's grace at 6 days whatever
/// the app's setting. One dataset holds one environment, so the environment is implied.
package struct GraceLengths: Hashable, Sendable {
    /// Dated grace episodes of one product and app with one length, as a database aggregates them.
    package struct Count: Hashable, Sendable {
        package var productId: String?
        package var bundleId: String?
        /// ⌊(grace_end − t0) / 24 h + ½⌋ (``GraceLengths/days(from:to:)``).
        package var days: Int
        package var episodes: Int
        package var billingPlan: Episode.BillingPlan

        package init(
            productId: String?, bundleId: String?, days: Int, episodes: Int,
            billingPlan: Episode.BillingPlan = .standard
        ) {
            self.productId = productId
            self.bundleId = bundleId
            self.days = days
            self.episodes = episodes
            self.billingPlan = billingPlan
        }
    }

    /// Whole days → dated episodes, per product id.
    private(set) var byProduct: [String: [Int: Int]] = [:]
    /// Whole days → dated episodes, per bundle id.
    private(set) var byBundle: [String: [Int: Int]] = [:]

    /// Counts the lengths of every episode with a grace end from a notification.
    package init(observedIn episodes: [Episode]) {
        observe(episodes)
    }

    /// Adds the lengths of more episodes of the scope (``init(observedIn:)``), for episodes that stream through.
    package mutating func observe(_ episodes: [Episode]) {
        for episode in episodes { observe(episode) }
    }

    /// Adds the length of one episode of the scope, when its grace end came from a notification.
    package mutating func observe(_ episode: Episode) {
        guard episode.hasGrace, !episode.graceEndInferred, let graceEnd = episode.graceEnd,
            let days = Self.days(from: episode.start, to: graceEnd)
        else { return }
        add(
            Count(
                productId: episode.productId, bundleId: episode.bundleId, days: days, episodes: 1,
                billingPlan: episode.billingPlan))
    }

    /// Sums counts made elsewhere (by SQL over stored episodes); rows may repeat a product, app and length.
    package init(counts: [Count]) {
        for count in counts { add(count) }
    }

    /// Only a standard plan's grace periods make a usual length: Apple applies no grace to commitment plans
    /// (METRICS.md v2.2, "Commitment plans"), so one announced there says nothing of the app's setting.
    private mutating func add(_ count: Count) {
        guard count.billingPlan == .standard else { return }
        if let product = count.productId { byProduct[product, default: [:]][count.days, default: 0] += count.episodes }
        if let bundle = count.bundleId { byBundle[bundle, default: [:]][count.days, default: 0] += count.episodes }
    }

    /// ⌊(end − start) / 24 h + ½⌋; nil when the difference does not fit.
    package static func days(from start: Int64, to end: Int64) -> Int? {
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        guard !overflow else { return nil }
        let (shifted, shiftOverflow) = difference.addingReportingOverflow(Milliseconds.day / 2)
        guard !shiftOverflow else { return nil }
        // Floor division, also for negative differences.
        var days = shifted / Milliseconds.day
        if shifted % Milliseconds.day < 0 { days -= 1 }
        return Int(exactly: days)
    }

    /// The grace length in whole days for an episode of `productId` in the app `bundleId`; nil when neither has a
    /// dated episode.
    package func length(productId: String?, bundleId: String?) -> Int? {
        if let productId, let counts = byProduct[productId], let days = Self.mode(counts) { return days }
        if let bundleId, let counts = byBundle[bundleId], let days = Self.mode(counts) { return days }
        return nil
    }

    /// The most frequent number of days among `counts` (days → episodes); ties go to the shorter. Also the rule of a
    /// product's period (``GraceWhatIf``).
    package static func mode(_ counts: [Int: Int]) -> Int? {
        counts.filter { $0.value > 0 }.min { lhs, rhs in
            lhs.value != rhs.value ? lhs.value > rhs.value : lhs.key < rhs.key
        }?.key
    }

    /// Whether ``inferGraceEnd(of:)`` changes `episode` at all: a grace period without a date from a notification.
    /// Every other episode is finished the same whatever the lengths are.
    package static func datesGraceEnd(of episode: Episode) -> Bool {
        episode.hasGrace && (episode.graceEnd == nil || episode.graceEndInferred)
    }

    /// Dates a grace period without a date from a notification: `t0` + the length, marked
    /// ``Episode/graceEndInferred``; without a length the grace end stays unknown. An earlier inference is
    /// replaced, so applying it again gives the same episode; an episode without grace, or with a grace end from a
    /// notification, is left as it is.
    package func inferGraceEnd(of episode: inout Episode) {
        guard Self.datesGraceEnd(of: episode) else { return }
        if let days = length(productId: episode.productId, bundleId: episode.bundleId) {
            let (graceEnd, overflow) = episode.start.addingReportingOverflow(Int64(days) * Milliseconds.day)
            episode.graceEnd = overflow ? nil : graceEnd
            episode.graceEndInferred = !overflow
        } else {
            episode.graceEnd = nil
            episode.graceEndInferred = false
        }
    }
}
