/// A count per calendar period, such as renewals per month, kept in period order.
///
/// A small sorted array rather than a dictionary: a subscription touches few periods, mostly in order, so
/// adding is usually a comparison with the last entry.
package struct PeriodCounts: Hashable, Sendable {
    package struct Entry: Hashable, Sendable {
        package var period: CalendarPeriod
        package var count: Int
    }

    /// Ascending by period, one entry per period.
    package private(set) var entries: [Entry] = []

    package init() {}

    package init(_ counts: [CalendarPeriod: Int]) {
        for (period, count) in counts {
            add(period, count: count)
        }
    }

    /// The periods with a count, ascending.
    package var periods: [CalendarPeriod] { entries.map(\.period) }

    package subscript(period: CalendarPeriod) -> Int {
        let index = insertionIndex(of: period)
        return index < entries.endIndex && entries[index].period == period ? entries[index].count : 0
    }

    package mutating func add(_ period: CalendarPeriod, count: Int = 1) {
        if let last = entries.last, last.period == period {
            entries[entries.endIndex - 1].count += count
            return
        }
        let index = insertionIndex(of: period)
        if index < entries.endIndex, entries[index].period == period {
            entries[index].count += count
        } else {
            entries.insert(Entry(period: period, count: count), at: index)
        }
    }

    package mutating func add(_ other: PeriodCounts) {
        for entry in other.entries {
            add(entry.period, count: entry.count)
        }
    }

    /// The first index whose period is not before `period` (binary search).
    private func insertionIndex(of period: CalendarPeriod) -> Int {
        var low = entries.startIndex
        var high = entries.endIndex
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].period < period { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
