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

    /// The weeks' counts, added up one episode at a time: counts per week, and each episode's t0 and flow time
    /// (for `in_retry_at_week_end`), never the episodes.
    package struct Tally: Sendable {
        let asOf: Int64
        private var entered: [CalendarPeriod: Int] = [:]
        private var exits: [CalendarPeriod: Week] = [:]
        private var starts: [Int64] = []
        private var flowTimes: [Int64] = []

        /// - Parameter asOf: the as-of time (Unix ms): the last week, and the latest cut for
        ///   `in_retry_at_week_end`.
        package init(asOf: Int64) {
            self.asOf = asOf
        }

        package mutating func add(_ episode: Episode) {
            entered[CalendarPeriod(.week, containing: episode.start), default: 0] += 1
            starts.append(episode.start)
            if let flowTime = episode.flowTime {
                let week = CalendarPeriod(.week, containing: flowTime)
                exits[week, default: Week(week: week)].addExit(episode)
                flowTimes.append(flowTime)
            }
        }

        /// The weeks in order.
        package var weeks: [Week] {
            // in_retry(c) = #{t0 < c} − #{closed with flow time < c}, since a flow time is never before its t0.
            let starts = starts.sorted()
            let flowTimes = flowTimes.sorted()
            guard let earliest = starts.first else { return [] }
            var startIndex = 0
            var flowIndex = 0

            var weeks: [Week] = []
            let last = CalendarPeriod(.week, containing: asOf)
            var period = CalendarPeriod(.week, containing: earliest)
            while period <= last {
                var week = exits[period] ?? Week(week: period)
                week.entered = entered[period] ?? 0
                let cut = min(period.end, asOf)
                while startIndex < starts.endIndex, starts[startIndex] < cut { startIndex += 1 }
                while flowIndex < flowTimes.endIndex, flowTimes[flowIndex] < cut { flowIndex += 1 }
                week.inRetryAtWeekEnd = startIndex - flowIndex
                weeks.append(week)
                period = CalendarPeriod(.week, containing: period.end)
            }
            return weeks
        }
    }
}
