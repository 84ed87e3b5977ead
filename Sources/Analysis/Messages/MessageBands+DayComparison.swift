extension MessageBands {
    /// One message day m against its own two neighbours m − 1 and m + 1: a stratum of the comparison (METRICS.md,
    /// "Message days against their neighbours", v2.1).
    ///
    /// At-risk and recoveries are counted as in the life table of ``RetryDays`` (an ended episode is at risk on days
    /// 1…⌊D / 24 h⌋ + 1 and recovers on the last of them; an open one is at risk on the days with
    /// D > (d − 1)·24 h), over the episodes whose grace end is known and falls on none of the stratum's three days:
    /// such an episode is left out of the whole stratum, so that both sides count the same episodes.
    package struct Stratum: Hashable, Sendable {
        /// m: a day of M_b.
        package var messageDay: Int
        /// R_m and T_m: recoveries on m and episodes at risk on m.
        package var messageDayCounts = EventRate()
        /// R_c and T_c: recoveries and episodes at risk summed over m − 1 and m + 1.
        package var otherDayCounts = EventRate()

        /// - Parameters:
        ///   - messageDay: m.
        ///   - messageDayCounts: R_m and T_m.
        ///   - otherDayCounts: R_c and T_c.
        package init(
            messageDay: Int, messageDayCounts: EventRate = EventRate(), otherDayCounts: EventRate = EventRate()
        ) {
            self.messageDay = messageDay
            self.messageDayCounts = messageDayCounts
            self.otherDayCounts = otherDayCounts
        }

        /// m − 1, m and m + 1.
        package var days: ClosedRange<Int> { (messageDay - 1)...(messageDay + 1) }

        /// Adds one episode whose grace end is known or that has no grace period.
        ///
        /// - Parameters:
        ///   - lastDay: the last day the episode is at risk (``RetryDays/lastDayAtRisk(_:asOf:)``).
        ///   - isRecovered: it recovers on `lastDay`.
        ///   - graceEndDay: the day holding its grace end (``RetryDays/graceEndDay(_:)``); nil without one.
        mutating func add(lastDay: Int64, isRecovered: Bool, graceEndDay: Int64?) {
            if let graceEndDay, Int64(days.lowerBound)...Int64(days.upperBound) ~= graceEndDay { return }
            for day in days {
                let counts = EventRate(
                    events: isRecovered && Int64(day) == lastDay ? 1 : 0, atRisk: Int64(day) <= lastDay ? 1 : 0)
                if day == messageDay {
                    messageDayCounts.add(counts)
                } else {
                    otherDayCounts.add(counts)
                }
            }
        }
    }

    /// A band's message days M_b, each against its own neighbours: one ``Stratum`` per day of M_b, pooled by
    /// Mantel–Haenszel.
    ///
    /// M_b holds the band's message days whose neighbours d − 1 and d + 1 both lie in the band (and in days 1…60) and
    /// are not message days (``MessageSchedule/Band/comparedMessageDays(through:)``). With the default schedule,
    /// M_2 = {7, 10, 13}, compared with {6, 8}, {9, 11} and {12, 14}. A day that neighbours two message days counts
    /// in both strata.
    package struct DayComparison: Hashable, Sendable {
        /// The band's number in the schedule.
        package var band: Int
        /// One stratum per day of M_b, ascending.
        package var strata: [Stratum]
        /// message_day_hazard = Σ R_m / Σ T_m, other_day_hazard = Σ R_c / Σ T_c, and the Mantel–Haenszel
        /// hazard_ratio over the strata with its interval.
        package var hazardRatio: RateRatio

        /// - Parameters:
        ///   - band: the band's number in the schedule.
        ///   - strata: its strata, one per day of M_b, ascending.
        package init(band: Int, strata: [Stratum]) {
            self.band = band
            self.strata = strata
            hazardRatio = MessageBands.ratio(over: strata)
        }

        /// M_b, ascending.
        package var messageDays: [Int] { strata.map(\.messageDay) }
        /// Σ R_m and Σ T_m over the strata.
        package var messageDayCounts: EventRate { hazardRatio.compared }
        /// Σ R_c and Σ T_c over the strata.
        package var otherDayCounts: EventRate { hazardRatio.reference }
    }

    /// The Mantel–Haenszel ratio of message days against their neighbours over `strata`, with the plain sums of
    /// their counts.
    static func ratio(over strata: [Stratum]) -> RateRatio {
        RateRatio(mantelHaenszel: strata.map { ($0.messageDayCounts, $0.otherDayCounts) })
    }

    /// The strata of every band with message days to compare, added up one episode at a time.
    struct StrataTally: Sendable {
        let asOf: Int64
        /// Per band of the schedule, in order: its strata (none for a band without M_b).
        private(set) var bands: [[Stratum]]

        init(asOf: Int64, schedule: MessageSchedule) {
            self.asOf = asOf
            bands = schedule.bands.map { band in
                band.comparedMessageDays(through: RetryDays.days.upperBound).map { Stratum(messageDay: $0) }
            }
        }

        mutating func add(_ episode: Episode) {
            guard !episode.isGraceEndUnknown, let last = RetryDays.lastDayAtRisk(episode, asOf: asOf) else { return }
            let isRecovered = episode.outcome == .recovered
            let graceEndDay = RetryDays.graceEndDay(episode)
            for band in bands.indices {
                for index in bands[band].indices {
                    // Strata are in ascending order of days: a later one starts after the episode's last day too.
                    guard Int64(bands[band][index].messageDay - 1) <= last else { return }
                    bands[band][index].add(lastDay: last, isRecovered: isRecovered, graceEndDay: graceEndDay)
                }
            }
        }

        /// Per band, its comparison; nil for a band without M_b.
        func comparisons(schedule: MessageSchedule) -> [DayComparison?] {
            zip(schedule.bands, bands).map { band, strata in
                strata.isEmpty ? nil : DayComparison(band: band.number, strata: strata)
            }
        }
    }
}
