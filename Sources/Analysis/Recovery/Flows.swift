/// The figures of `flows.csv`: per ISO week, the episodes entering billing retry, those leaving it by outcome, and
/// those still in retry at the week's end (METRICS.md, "Money and flows").
///
/// An episode enters in the week of its t0 and leaves in the week of its flow time, max(end, t0); recoveries
/// are split into saved in grace, recovered after grace (a grace period that was not a save, including one whose
/// end is unknown) and recovered without grace. `in_retry_at_week_end`, with c = min(the week's end, as-of):
/// episodes with t0 < c that are open or whose flow time is ≥ c. Rows: every week from the week of the earliest
/// t0 to the as-of time's week, never a later one (an episode that enters or leaves after that week is in no row's
/// `entered` or exits, and one that leaves after the as-of time is in the last row's `in_retry_at_week_end`); no
/// `(all)` row. No episodes, or none starting by the as-of time's week, no rows.
package enum Flows {
    /// One week's flows.
    package struct Week: Hashable, Sendable {
        package var week: CalendarPeriod
        package var entered = 0
        package var recoveredInGrace = 0
        package var recoveredAfterGrace = 0
        package var recoveredWithoutGrace = 0
        package var expired = 0
        package var cancelled = 0
        package var other = 0
        package var inRetryAtWeekEnd = 0

        package init(week: CalendarPeriod) {
            self.week = week
        }

        /// Counts one episode that left retry in this week.
        mutating func addExit(_ episode: Episode) {
            switch episode.outcome {
            case .recovered:
                if !episode.hasGrace {
                    recoveredWithoutGrace += 1
                } else if episode.isSavedInGrace {
                    recoveredInGrace += 1
                } else {
                    recoveredAfterGrace += 1
                }
            case .expired: expired += 1
            case .cancelled: cancelled += 1
            case .other: other += 1
            case .open: break
            }
        }
    }

    /// The weeks in order.
    ///
    /// - Parameters:
    ///   - episodes: the episodes in scope.
    ///   - asOf: the as-of time (Unix ms): the last week, and the latest cut for `in_retry_at_week_end`.
    package static func weeks(episodes: [Episode], asOf: Int64) -> [Week] {
        var tally = Tally(asOf: asOf)
        for episode in episodes { tally.add(episode) }
        return tally.weeks
    }

    /// The weeks' counts, added up one episode at a time: counts per week, never the episodes, so that the tally's
    /// memory grows with the weeks rather than with the episodes.
    ///
    /// `in_retry_at_week_end` = #{t0 < c} − #{flow time < c}, since a flow time is never before its t0. Every week's c
    /// is its end but the last one's, which is the as-of time; so the counts per week, summed, give both, less for
    /// the last week the t0s and flow times from the as-of time to that week's end.
    package struct Tally: Sendable {
        let asOf: Int64
        /// The week of the as-of time: the last row.
        private let last: CalendarPeriod
        private var entered: [CalendarPeriod: Int] = [:]
        private var exits: [CalendarPeriod: Week] = [:]
        /// Flow times per week.
        private var left: [CalendarPeriod: Int] = [:]
        private var earliest: Int64?
        /// t0s and flow times in the last week at or after the as-of time.
        private var startsFromAsOf = 0
        private var flowsFromAsOf = 0

        /// - Parameter asOf: the as-of time (Unix ms): the last week, and the latest cut for
        ///   `in_retry_at_week_end`.
        package init(asOf: Int64) {
            self.asOf = asOf
            last = CalendarPeriod(.week, containing: asOf)
        }

        package mutating func add(_ episode: Episode) {
            let week = CalendarPeriod(.week, containing: episode.start)
            entered[week, default: 0] += 1
            earliest = min(earliest ?? episode.start, episode.start)
            if episode.start >= asOf && week == last { startsFromAsOf += 1 }
            if let flowTime = episode.flowTime {
                let week = CalendarPeriod(.week, containing: flowTime)
                exits[week, default: Week(week: week)].addExit(episode)
                left[week, default: 0] += 1
                if flowTime >= asOf && week == last { flowsFromAsOf += 1 }
            }
        }

        /// The weeks in order.
        package var weeks: [Week] {
            guard let earliest else { return [] }
            var started = 0
            var ended = 0
            var weeks: [Week] = []
            var period = CalendarPeriod(.week, containing: earliest)
            while period <= last {
                var week = exits[period] ?? Week(week: period)
                week.entered = entered[period] ?? 0
                started += week.entered
                ended += left[period] ?? 0
                week.inRetryAtWeekEnd =
                    period == last ? (started - startsFromAsOf) - (ended - flowsFromAsOf) : started - ended
                weeks.append(week)
                period = CalendarPeriod(.week, containing: period.end)
            }
            return weeks
        }
    }
}
