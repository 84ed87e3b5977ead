/// `message_bands.csv`: recoveries per band of the billing-issue message schedule, against modelled exposure.
///
/// Per band b = [start, end) and episode duration D (as-of for open episodes):
/// - entering: D > start; messages: scheduled offsets m < D; recoveries: recovered with start ≤ D < end;
/// - exposure: the overlap of [start, end) and [0, D);
/// - window exposure: the overlap of [0, D) with the time less than 24 h after the latest scheduled message,
///   i.e. [m, min(m + 24 h, next message, end)) per message; `expected_share` = window exposure / exposure;
/// - a recovery is "within 24 h" when D − m < 24 h for the latest scheduled m ≤ D (the same half-open
///   windows as the exposure).
/// Rows: bands in order, then `(all)` over the whole schedule (first_day 1, last_day the schedule's last,
/// interval_hours empty).
package enum MessageBands {
    package static let fileName = "message_bands.csv"
    package static let columns = [
        "band", "first_day", "last_day", "interval_hours", "episodes_entering", "messages", "recoveries",
        "exposure_days", "hazard_per_day", "recoveries_per_1000_messages", "share_within_24h_of_message",
        "expected_share", "lift",
    ]

    /// What one band (or the whole schedule) adds up to.
    package struct Figures: Hashable, Sendable {
        package var episodesEntering = 0
        package var messages = 0
        package var recoveries = 0
        package var recoveriesWithin24h = 0
        /// ms
        package var exposure: Int64 = 0
        /// ms of exposure less than 24 h after a scheduled message.
        package var windowExposure: Int64 = 0

        package init() {}

        package var exposureDays: Double { Double(exposure) / Double(Milliseconds.day) }
        package var hazardPerDay: Double? { exposure == 0 ? nil : Double(recoveries) / exposureDays }
        package var recoveriesPer1000Messages: Double? {
            messages == 0 ? nil : 1000 * Double(recoveries) / Double(messages)
        }
        package var shareWithin24hOfMessage: Double? {
            recoveries == 0 ? nil : Double(recoveriesWithin24h) / Double(recoveries)
        }
        package var expectedShare: Double? { exposure == 0 ? nil : Double(windowExposure) / Double(exposure) }
        package var lift: Double? {
            guard let share = shareWithin24hOfMessage, let expected = expectedShare, expected > 0 else { return nil }
            return share / expected
        }

        mutating func add(_ other: Figures) {
            episodesEntering += other.episodesEntering
            messages += other.messages
            recoveries += other.recoveries
            recoveriesWithin24h += other.recoveriesWithin24h
            exposure += other.exposure
            windowExposure += other.windowExposure
        }
    }

    /// The figures of each band, in schedule order.
    package static func figures(episodes: [Episode], asOf: Int64, schedule: MessageSchedule) -> [Figures] {
        var figures = Array(repeating: Figures(), count: schedule.bands.count)
        for episode in episodes {
            let duration = episode.duration(asOf: asOf)
            let isRecovered = episode.outcome == .recovered
            // A recovery at exactly a band's start lies in that band although the episode never entered it.
            for (index, band) in schedule.bands.enumerated() {
                guard duration >= band.start else { break }
                figures[index].add(bandFigures(band, duration: duration, isRecovered: isRecovered))
            }
        }
        return figures
    }

    package static func table(episodes: [Episode], asOf: Int64, schedule: MessageSchedule = .standard) -> ReportTable {
        let perBand = figures(episodes: episodes, asOf: asOf, schedule: schedule)
        var table = ReportTable(name: fileName, columns: columns)
        var total = Figures()
        for (band, bandFigures) in zip(schedule.bands, perBand) {
            table.rows.append(
                [.integer(band.number), .integer(band.firstDay), .integer(band.lastDay), .integer(band.intervalHours)]
                    + cells(bandFigures)
            )
            total.add(bandFigures)
        }
        // Entering the schedule is entering its first band.
        total.episodesEntering = perBand.first?.episodesEntering ?? 0
        table.rows.append(
            [.text(ReportTable.total), .integer(1), .integer(schedule.bands.last?.lastDay ?? 0), .empty] + cells(total)
        )
        return table
    }

    /// One episode of duration D ≥ band.start, in one band.
    private static func bandFigures(_ band: MessageSchedule.Band, duration: Int64, isRecovered: Bool) -> Figures {
        var figures = Figures()
        let reach = min(duration, band.end)
        if reach > band.start {
            let window = min(24 * Milliseconds.hour, band.interval)
            // The last message before `reach`; every earlier one has its whole window inside [0, reach).
            let lastIndex = (reach - band.start - 1) / band.interval
            let lastMessage = band.start + lastIndex * band.interval
            figures.episodesEntering = 1
            figures.messages = Int(lastIndex) + 1
            figures.exposure = reach - band.start
            figures.windowExposure = lastIndex * window + (min(reach, lastMessage + window) - lastMessage)
        }
        if isRecovered, duration < band.end {
            figures.recoveries = 1
            let latest = band.start + (duration - band.start) / band.interval * band.interval
            if duration - latest < 24 * Milliseconds.hour { figures.recoveriesWithin24h = 1 }
        }
        return figures
    }

    private static func cells(_ figures: Figures) -> [ReportTable.Cell] {
        [
            .integer(figures.episodesEntering), .integer(figures.messages), .integer(figures.recoveries),
            .decimal(figures.exposureDays, places: ReportTable.Cell.exposurePlaces),
            .decimal(ifDefined: figures.hazardPerDay, places: ReportTable.Cell.ratePlaces),
            .decimal(ifDefined: figures.recoveriesPer1000Messages, places: ReportTable.Cell.perThousandPlaces),
            .decimal(ifDefined: figures.shareWithin24hOfMessage, places: ReportTable.Cell.ratePlaces),
            .decimal(ifDefined: figures.expectedShare, places: ReportTable.Cell.ratePlaces),
            .decimal(ifDefined: figures.lift, places: ReportTable.Cell.ratePlaces),
        ]
    }
}
