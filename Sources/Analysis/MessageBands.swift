/// The figures of `message_bands.csv`: recoveries per band of the billing-issue message schedule, against modelled
/// exposure, and the recovery hazard on message days against their neighbouring days.
///
/// Per band b = [start, end) and episode duration D (as-of for open episodes):
/// - entering: D > start; messages: scheduled offsets m < D; recoveries: recovered with start ≤ D < end;
/// - exposure: the overlap of [start, end) and [0, D);
/// - message days against their neighbours: from the life table of `RetryDays`, see ``DayComparison``.
/// Rows: bands in order, then `(all)`, which pools the day comparisons of the bands by Mantel–Haenszel
/// (``pooled(_:)``) and has no exposure figures.
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
        var lifeTable = RetryDays.Tally(asOf: asOf)
        for episode in episodes {
            tally.add(episode)
            lifeTable.add(episode)
        }
        return tally.figures(lifeTable: lifeTable.lifeTable(schedule: schedule))
    }

    /// The bands' counts and exposure, added up one episode at a time.
    package struct Tally: Sendable {
        let asOf: Int64
        let schedule: MessageSchedule
        private var figures: [Figures]

        package init(asOf: Int64, schedule: MessageSchedule) {
            self.asOf = asOf
            self.schedule = schedule
            figures = Array(repeating: Figures(), count: schedule.bands.count)
        }

        package mutating func add(_ episode: Episode) {
            let duration = episode.duration(asOf: asOf)
            let isRecovered = episode.outcome == .recovered
            // A recovery at exactly a band's start lies in that band although the episode never entered it.
            for (index, band) in schedule.bands.enumerated() {
                guard duration >= band.start else { break }
                MessageBands.add(band, duration: duration, isRecovered: isRecovered, to: &figures[index])
            }
        }

        /// The figures of each band, in schedule order, with the day comparisons of `lifeTable` (the life table of
        /// the same episodes and schedule, ``RetryDays``).
        package func figures(lifeTable: [RetryDays.Day]) -> [Figures] {
            var figures = figures
            for (index, band) in schedule.bands.enumerated() {
                figures[index].dayComparison = DayComparison(band, lifeTable: lifeTable)
            }
            return figures
        }
    }

    /// The `(all)` row's hazard ratio: the bands' day comparisons pooled by Mantel–Haenszel, stratified by band;
    /// its rates are the plain sums over those bands. Nil when no band has message days to compare.
    package static func pooled(_ figures: [Figures]) -> RateRatio? {
        let comparisons = figures.compactMap(\.dayComparison)
        guard !comparisons.isEmpty else { return nil }
        return RateRatio(mantelHaenszel: comparisons.map { ($0.messageDayCounts, $0.otherDayCounts) })
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
