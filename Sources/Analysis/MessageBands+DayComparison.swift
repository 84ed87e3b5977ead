extension MessageBands {
    /// A band's message days M_b against their neighbouring days C_b, from the retry-day life table
    /// (METRICS.md, "Message days against their neighbours").
    ///
    /// M_b holds the band's message days whose neighbours d − 1 and d + 1 both lie in the band (and in days
    /// 1…60) and are not message days; C_b is the set of those neighbours. With the default schedule,
    /// M_2 = {7, 10, 13} and C_2 = {6, 8, 9, 11, 12, 14}.
    package struct DayComparison: Hashable, Sendable {
        /// The band's number in the schedule.
        package var band: Int
        /// M_b, ascending.
        package var messageDays: [Int]
        /// C_b, ascending; a day counts once.
        package var comparisonDays: [Int]
        /// message_day_hazard = R_M / T_M, other_day_hazard = R_C / T_C, hazard_ratio and its interval.
        package var hazardRatio: RateRatio

        /// R_M and T_M: recoveries and episodes at risk summed over M_b.
        package var messageDayCounts: EventRate { hazardRatio.compared }
        /// R_C and T_C: recoveries and episodes at risk summed over C_b.
        package var otherDayCounts: EventRate { hazardRatio.reference }

        /// The comparison of one band; nil when the band has no message day in M_b.
        ///
        /// - Parameters:
        ///   - band: a band of the schedule.
        ///   - lifeTable: `RetryDays.lifeTable`, days 1…60; days missing from it add nothing.
        package init?(_ band: MessageSchedule.Band, lifeTable: [RetryDays.Day]) {
            let days = band.comparedDays(through: RetryDays.days.upperBound)
            guard !days.messageDays.isEmpty else { return nil }
            func sum(_ days: [Int]) -> EventRate {
                let selected = Set(days)
                return lifeTable.reduce(into: EventRate()) { sum, row in
                    if selected.contains(row.day) { sum.add(row.counts) }
                }
            }
            self.band = band.number
            messageDays = days.messageDays
            comparisonDays = days.comparisonDays
            hazardRatio = RateRatio(sum(days.messageDays), to: sum(days.comparisonDays))
        }
    }
}
