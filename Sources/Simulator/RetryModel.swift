import Analysis
import Foundation

/// The daily chances of each way out of billing retry, worked out once from the options: each day an episode is
/// still in retry (days 1…60, day d being [t0 + (d−1)·24 h, t0 + d·24 h)), it recovers, is cancelled, ends
/// otherwise, or ends with a new paid purchase, each with that day's chance; when none of them happens by day 60,
/// retry ends unpaid.
///
/// Each way out has a shape over the days and a level. The level makes the chance of that way out within the 60
/// days, were it the only one, equal to its rate in the options: 1 − Π_d (1 − p_d) = rate. The shapes are the
/// simulator's own assumptions:
/// - recovery: ``SimulationOptions/recoveryHazard`` (by default a smooth decline, see ``RecoveryHazard``);
/// - cancel: e^(−(d−1)/15), early rather than late (customers who give up tend to do it soon);
/// - other (a refund of the last paid period, or the product withdrawn): the same chance every day;
/// - a new paid purchase (an upgrade, or the subscription bought again): the same chance every day.
///
/// Two days move the chance of recovery: the day holding the end of the grace period, when losing access drives
/// customers to fix their payment (``SimulationOptions/graceEndEffect``), and the days a billing-issue message is
/// scheduled in bands 2–4 of the App Store's schedule (``SimulationOptions/messageEffect``). A day with both
/// gets both. With the app's sheet modelled (``SimulationOptions/sheets``), a day the app showed it multiplies the
/// chance too (``SheetPlan/sheetEffect``).
///
/// On a given day the ways out compete in that order for one uniform draw, so their chances add up (capped at 1).
package struct RetryModel: Hashable, Sendable {
    /// The days of billing retry.
    package static let days = RecoveryHazard.retryDays

    /// The chance of recovery on day d at index d − 1, before any multiplier.
    package let recovery: [Double]
    /// The chance of a cancel on day d at index d − 1.
    package let cancel: [Double]
    /// The chance of another end on day d at index d − 1.
    package let other: [Double]
    /// The chance of a new paid purchase on day d at index d − 1.
    package let newPurchase: [Double]
    /// The days 1…60 that hold a message of `MessageSchedule.standard` in a band whose days do not all hold one
    /// (bands 2–4: days 4, 7, 10, 13, 16, 17, 21, 25, 29, 31, 36, 41, 46, 51, 56).
    package let messageDays: Set<Int>
    /// Multiplies the chance of recovery on ``messageDays``.
    package let messageEffect: Double
    /// Multiplies the chance of recovery on the day holding the grace period's end.
    package let graceEndEffect: Double
    /// Multiplies the chance of recovery on a day the app showed the billing-issue sheet.
    package let sheetEffect: Double

    /// The model of `options`.
    package init(options: SimulationOptions) {
        recovery = Self.dailyChances(shape: options.recoveryHazard.weights, total: options.recoveryRate)
        cancel = Self.dailyChances(
            shape: (1...Self.days).map { exp(-Double($0 - 1) / 15) }, total: options.cancelRate
        )
        other = Self.dailyChances(shape: Array(repeating: 1, count: Self.days), total: options.otherRate)
        newPurchase = Self.dailyChances(shape: Array(repeating: 1, count: Self.days), total: options.newPurchaseRate)
        messageDays = Self.scheduledMessageDays(of: .standard)
        messageEffect = options.messageEffect
        graceEndEffect = options.graceEndEffect
        sheetEffect = options.sheets?.sheetEffect ?? 1
    }

    /// The chance of recovery on `day` (1…60) of an episode: the base chance times `multiplier`, times
    /// ``messageEffect`` on a message day, ``graceEndEffect`` on `graceEndDay` and ``sheetEffect`` when the app showed
    /// the sheet that day; at most 1. Days 61…90 of a commitment plan's longer retry take day 60's base chance
    /// (``index(of:)``).
    package func recoveryChance(day: Int, multiplier: Double, graceEndDay: Int?, isShownDay: Bool = false) -> Double {
        guard day >= 1, let index = Self.index(of: day) else { return 0 }
        var chance = recovery[index] * multiplier
        if messageDays.contains(day) { chance *= messageEffect }
        if day == graceEndDay { chance *= graceEndEffect }
        if isShownDay { chance *= sheetEffect }
        return min(1, chance)
    }

    /// The index of `day`'s chances: d − 1 for days 1…60, and day 60's for the days after it up to the longest retry
    /// (90 days, a commitment plan's), where the simulator assumes the chances of the last modelled day go on; nil
    /// outside.
    package static func index(of day: Int) -> Int? {
        guard (1...Episode.BillingPlan.commitment.retryWindowDays).contains(day) else { return nil }
        return min(day, days) - 1
    }

    /// The day (1…) holding `offset` from t0: ⌊offset / 24 h⌋ + 1.
    package static func day(holding offset: Int64) -> Int {
        Int(offset / Milliseconds.day) + 1
    }

    /// The days 1…60 holding a message of a band in which some days hold none.
    static func scheduledMessageDays(of schedule: MessageSchedule) -> Set<Int> {
        var days = Set<Int>()
        for band in schedule.bands {
            let bandDays = Set(band.messageOffsets.map(day(holding:)))
            guard bandDays.count < band.lastDay - band.firstDay + 1 else { continue }
            days.formUnion(bandDays.filter { $0 <= Self.days })
        }
        return days
    }

    /// Daily chances proportional to `shape` (capped at 1) whose combined chance over the days is `total`:
    /// 1 − Π (1 − min(1, k · shape_d)) = total, with k found by bisection.
    /// - Parameters:
    ///   - shape: weights at least 0, at least one above 0.
    ///   - total: between 0 and 1.
    static func dailyChances(shape: [Double], total: Double) -> [Double] {
        let largest = shape.max() ?? 0
        guard total > 0, largest > 0 else { return Array(repeating: 0, count: shape.count) }
        func combined(_ scale: Double) -> Double {
            1 - shape.reduce(1.0) { remaining, weight in remaining * (1 - min(1, scale * weight)) }
        }
        // At scale 1 / largest the largest day is certain, so the combined chance is 1 ≥ total.
        var low = 0.0
        var high = 1 / largest
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if combined(middle) < total { low = middle } else { high = middle }
        }
        return shape.map { min(1, high * $0) }
    }
}
