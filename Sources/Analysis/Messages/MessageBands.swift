/// The figures of `message_bands.csv`: recoveries per band of the billing-issue message schedule, against modelled
/// exposure, and the recovery hazard on message days against their neighbouring days.
///
/// Per band b = [start, end) and episode duration D (as-of for open episodes):
/// - entering: D > start; messages: scheduled offsets m < D; recoveries: recovered with start ≤ D < end;
/// - exposure: the overlap of [start, end) and [0, D);
/// - message days against their neighbours: each day of M_b against its own two neighbours, a ``Stratum`` counted
///   as in the life table of `RetryDays`, pooled over the band's strata by Mantel–Haenszel (``DayComparison``).
/// Rows: bands in order, then `(all)`, which pools the strata of every band by Mantel–Haenszel (``pooled(_:)``) and
/// has no exposure figures.
package enum MessageBands {
    /// What one band adds up to.
    package struct Figures: Hashable, Sendable {
        package var episodesEntering = 0
        package var messages = 0
        package var recoveries = 0
        /// ms
        package var exposure: Int64 = 0
        /// Message days against their neighbours; nil for a band with no message day to compare (band 1).
        package var dayComparison: DayComparison?

        package init() {}

        package var exposureDays: Double { Double(exposure) / Double(Milliseconds.day) }
        package var hazardPerDay: Double? { exposure == 0 ? nil : Double(recoveries) / exposureDays }
        package var recoveriesPer1000Messages: Double? {
            messages == 0 ? nil : 1000 * Double(recoveries) / Double(messages)
        }
    }

    /// The figures of each band, in schedule order.
    package static func figures(episodes: [Episode], asOf: Int64, schedule: MessageSchedule) -> [Figures] {
        var tally = Tally(asOf: asOf, schedule: schedule)
        for episode in episodes { tally.add(episode) }
        return tally.figures
    }

    /// The bands' counts, exposure and strata, added up one episode at a time: a few counts per band and per day
    /// of M_b, never an episode.
    package struct Tally: Sendable {
        let asOf: Int64
        let schedule: MessageSchedule
        private var bands: [Figures]
        private var strata: StrataTally

        package init(asOf: Int64, schedule: MessageSchedule) {
            self.asOf = asOf
            self.schedule = schedule
            bands = Array(repeating: Figures(), count: schedule.bands.count)
            strata = StrataTally(asOf: asOf, schedule: schedule)
        }

        package mutating func add(_ episode: Episode) {
            let duration = episode.duration(asOf: asOf)
            let isRecovered = episode.outcome == .recovered
            // A recovery at exactly a band's start lies in that band although the episode never entered it.
            for (index, band) in schedule.bands.enumerated() {
                guard duration >= band.start else { break }
                MessageBands.add(band, duration: duration, isRecovered: isRecovered, to: &bands[index])
            }
            strata.add(episode)
        }

        /// The figures of each band, in schedule order.
        package var figures: [Figures] {
            zip(bands, strata.comparisons(schedule: schedule)).map { figures, comparison in
                var figures = figures
                figures.dayComparison = comparison
                return figures
            }
        }
    }

    /// The `(all)` row's hazard ratio: the strata of every band pooled by Mantel–Haenszel; its rates are the plain
    /// sums over those strata. Nil when no band has message days to compare.
    package static func pooled(_ figures: [Figures]) -> RateRatio? {
        let comparisons = figures.compactMap(\.dayComparison)
        guard !comparisons.isEmpty else { return nil }
        return ratio(over: comparisons.flatMap(\.strata))
    }

    /// One episode of duration D ≥ band.start, in one band.
    private static func add(
        _ band: MessageSchedule.Band, duration: Int64, isRecovered: Bool, to figures: inout Figures
    ) {
        let reach = min(duration, band.end)
        if reach > band.start {
            figures.episodesEntering += 1
            // Messages at start, start + interval, … < reach.
            figures.messages += Int((reach - band.start - 1) / band.interval) + 1
            figures.exposure += reach - band.start
        }
        if isRecovered, duration < band.end { figures.recoveries += 1 }
    }
}
