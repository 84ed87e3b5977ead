extension MessageSchedule {
    /// The days 1…`lastDay` that hold a scheduled message offset: day d holds offset m when
    /// (d − 1)·24 h ≤ m < d·24 h.
    package func messageDays(through lastDay: Int) -> Set<Int> {
        bands.reduce(into: Set<Int>()) { days, band in
            days.formUnion(band.messageDays(through: lastDay))
        }
    }
}

extension MessageSchedule.Band {
    /// The band's days that hold one of its message offsets, up to `lastDay`, ascending.
    package func messageDays(through lastDay: Int) -> [Int] {
        var days: [Int] = []
        for offset in messageOffsets {
            let day = Int(offset / Milliseconds.day) + 1
            guard day <= lastDay else { break }
            if days.last != day { days.append(day) }
        }
        return days
    }

    /// The message days compared with their neighbours, M_b (METRICS.md, "Message days against their neighbours"):
    /// each message day d of the band whose neighbours d − 1 and d + 1 both lie in the band and in 1…`lastDay`, and
    /// are not message days; ascending. Each is compared with its own two neighbours (``MessageBands/Stratum``).
    ///
    /// A band whose days are all message days (band 1 of the default schedule) has none.
    /// - Parameter lastDay: the last day with figures (60, the retry window).
    package func comparedMessageDays(through lastDay: Int) -> [Int] {
        let messageDays = messageDays(through: lastDay)
        guard !messageDays.isEmpty else { return [] }
        let isMessageDay = Set(messageDays)
        // A message day lies in the band and in 1…lastDay, so this range is not empty.
        let range = firstDay...min(self.lastDay, lastDay)
        return messageDays.filter { day in
            [day - 1, day + 1].allSatisfy { range.contains($0) && !isMessageDay.contains($0) }
        }
    }
}
