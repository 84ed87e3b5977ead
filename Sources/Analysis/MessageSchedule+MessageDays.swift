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
}
