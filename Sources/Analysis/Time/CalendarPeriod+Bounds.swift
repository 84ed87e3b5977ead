import CivilTime

extension CalendarPeriod {
    /// The first instant of the period (Unix ms, UTC): the 1st of the month, or the Monday of the ISO week.
    package var start: Int64 {
        switch granularity {
        case .month:
            return CivilDate(year: year, month: number, day: 1).unixMilliseconds
        case .week:
            // Week 1 is the week that holds January 4; its Monday starts the ISO year.
            let january4 = CivilDate(year: year, month: 1, day: 4).daysSinceEpoch
            let weekdayOffset = ((january4 + 3) % 7 + 7) % 7  // Monday = 0 … Sunday = 6
            let firstMonday = january4 - weekdayOffset
            return Int64(firstMonday + (number - 1) * 7) * Milliseconds.day
        }
    }

    /// The first instant after the period (Unix ms, UTC), exclusive.
    package var end: Int64 {
        switch granularity {
        case .month:
            let (nextYear, nextMonth) = number == 12 ? (year + 1, 1) : (year, number + 1)
            return CivilDate(year: nextYear, month: nextMonth, day: 1).unixMilliseconds
        case .week:
            return start + 7 * Milliseconds.day
        }
    }
}
