/// The figures of `retry_days.csv`, the life table of retry days 1…60: per day, the episodes at risk, their
/// recoveries, and the daily recovery hazard with its Wilson interval (METRICS.md, "Retry days: the life table").
///
/// Day d of an episode is [t0 + (d−1)·24 h, t0 + d·24 h). An ended episode of duration D is at risk on days
/// 1…⌊D / 24 h⌋ + 1 and, when recovered, recovers on the last of them; an open one is at risk on the days with
/// D > (d−1)·24 h. An episode with a grace period counts nowhere on the day holding its `grace_end`,
/// ⌊(grace_end − t0) / 24 h⌋ + 1; an episode whose grace end is unknown is left out. Days past 60 are not in
/// the table.
package enum RetryDays {
    /// Days reported: 1…60.
    package static let days = 1...60

    /// One day of the life table.
    package struct Day: Hashable, Sendable {
        package var day: Int
        /// A scheduled message offset falls in this day.
        package var isMessageDay: Bool
        /// Episodes at risk on the day; recoveries on the day.
        package var counts: EventRate

        package init(day: Int, isMessageDay: Bool, counts: EventRate) {
            self.day = day
            self.isMessageDay = isMessageDay
            self.counts = counts
        }

        /// recoveries / at_risk; nil when nobody is at risk.
        package var hazard: Double? { counts.rate }

        /// The Wilson interval of `hazard`; nil when nobody is at risk.
        package var interval: ConfidenceInterval? {
            ConfidenceInterval.wilson(successes: counts.events, trials: counts.atRisk)
        }
    }

    /// The life table, days 1…60 in order.
    ///
    /// - Parameters:
    ///   - episodes: the episodes in scope.
    ///   - asOf: the as-of time (Unix ms); open episodes are censored there.
    ///   - schedule: the message schedule that marks message days.
    package static func lifeTable(episodes: [Episode], asOf: Int64, schedule: MessageSchedule = .standard) -> [Day] {
        var tally = Tally(asOf: asOf)
        for episode in episodes { tally.add(episode) }
        return tally.lifeTable(schedule: schedule)
    }

    /// The life table's counts, added up one episode at a time: three counts per day.
    package struct Tally: Sendable {
        let asOf: Int64
        // lastAtRisk[k]: episodes at risk on days 1…k; recoveriesOn[k]: recoveries on day k;
        // skipped[k]: episodes at risk on day k that hold their grace end there.
        private var lastAtRisk = Array(repeating: 0, count: RetryDays.days.upperBound + 1)
        private var recoveriesOn = Array(repeating: 0, count: RetryDays.days.upperBound + 1)
        private var skipped = Array(repeating: 0, count: RetryDays.days.upperBound + 1)

        /// - Parameter asOf: the as-of time (Unix ms); open episodes are censored there.
        package init(asOf: Int64) {
            self.asOf = asOf
        }

        package mutating func add(_ episode: Episode) {
            let lastDay = RetryDays.days.upperBound
            guard !episode.isGraceEndUnknown, let last = RetryDays.lastDayAtRisk(episode, asOf: asOf) else { return }
            let cappedLast = Int(min(last, Int64(lastDay)))
            lastAtRisk[cappedLast] += 1
            let graceDay = RetryDays.graceEndDay(episode)
            if let graceDay, graceDay >= 1, graceDay <= cappedLast { skipped[Int(graceDay)] += 1 }
            if episode.outcome == .recovered, last <= lastDay, graceDay != last { recoveriesOn[Int(last)] += 1 }
        }

        /// The life table, days 1…60 in order.
        /// - Parameter schedule: the message schedule that marks message days.
        package func lifeTable(schedule: MessageSchedule = .standard) -> [Day] {
            let messageDays = schedule.messageDays(through: RetryDays.days.upperBound)
            var table: [Day] = []
            var atRisk = 0
            for day in RetryDays.days.reversed() {
                atRisk += lastAtRisk[day]
                table.append(
                    Day(
                        day: day, isMessageDay: messageDays.contains(day),
                        counts: EventRate(events: recoveriesOn[day], atRisk: atRisk - skipped[day])))
            }
            return table.reversed()
        }
    }

    /// The last day the episode is at risk (days from 1); nil when on none (an open episode of duration 0).
    static func lastDayAtRisk(_ episode: Episode, asOf: Int64) -> Int64? {
        let duration = episode.duration(asOf: asOf)
        if episode.isOpen {
            // Days d with duration > (d − 1)·24 h: d ≤ ⌈duration / 24 h⌉.
            let (days, rest) = duration.quotientAndRemainder(dividingBy: Milliseconds.day)
            let last = rest > 0 ? days + 1 : days
            return last > 0 ? last : nil
        }
        return duration / Milliseconds.day + 1
    }

    /// The grace end's day (``day(of:in:)``) for a grace period with a known end; nil otherwise or out of range.
    static func graceEndDay(_ episode: Episode) -> Int64? {
        guard episode.hasGrace, let graceEnd = episode.graceEnd else { return nil }
        return day(of: graceEnd, in: episode)
    }

    /// The retry day holding `time`: ⌊(time − t0) / 24 h⌋ + 1, so day 1 is the first 24 hours from t0 (0 and below
    /// before t0); nil when the difference does not fit in 64 bits.
    package static func day(of time: Int64, in episode: Episode) -> Int64? {
        let (offset, overflow) = time.subtractingReportingOverflow(episode.start)
        guard !overflow else { return nil }
        let (days, rest) = offset.quotientAndRemainder(dividingBy: Milliseconds.day)
        return (rest < 0 ? days - 1 : days) + 1
    }
}
