import Analysis
import CivilTime
import Foundation
import Gzip

/// One App Store Connect *App Store Subscription Event* or *App Store Subscription State* report file as
/// downloaded: tab-separated text, gzip-compressed or not, a header line and one line per combination of Apple's
/// dimensions. Its `Counts` are added up per date and per value of `Event Sub Type` (or `State Metric`), every
/// value kept as written, known or not.
package struct AppleReportFile: Sendable {
    /// A sum of `Counts` and how many of Apple's values it adds (each carries its own noise).
    package struct Amount: Hashable, Sendable {
        package var total: Int
        package var values: Int

        package init(total: Int = 0, values: Int = 0) {
            self.total = total
            self.values = values
        }

        /// The sum, held at `Int.max` rather than past it: a file's own lines cannot get there (``parse(_:path:)``
        /// refuses a line whose count would), but the segments of an instance are added after each was read.
        package static func + (lhs: Amount, rhs: Amount) -> Amount {
            let (total, overflow) = lhs.total.addingReportingOverflow(rhs.total)
            return Amount(total: overflow ? .max : total, values: lhs.values + rhs.values)
        }

        /// This amount with one more value of `count`, nil when the total would pass what an `Int` holds.
        func adding(count: Int) -> Amount? {
            let (total, overflow) = self.total.addingReportingOverflow(count)
            return overflow ? nil : Amount(total: total, values: values + 1)
        }
    }

    package var path: String
    package var kind: AppleReportKind
    /// Daily, weekly or monthly: from the path as Apple names an instance's files (``AppleReportPath``), else from the
    /// dates' spacing, else daily.
    package var granularity: AppleReportGranularity = .daily
    /// The processing date the path carries (days since 1970-01-01), nil when it carries none.
    package var processingDay: Int?
    /// The segments added up in this value (``adding(_:)``): 1 for a file read alone.
    package var segments = 1
    /// Per date (days since 1970-01-01; the first day of the week or month for a weekly or monthly file): the
    /// `Counts` of each `Event Sub Type` or `State Metric` value, added up.
    package var days: [Int: [String: Amount]]
    /// Per date: `Paid Service Days Recovered` of the recoveries from grace period added up (Apple fills the field
    /// for those only); nil when the file has no such column (the State report).
    package var paidServiceDays: [Int: Amount]?
    /// Dates with a recovery from grace whose `Paid Service Days Recovered` is not a whole number: their paid service
    /// days are not known, and not compared.
    package var paidServiceDaysUnreadable: Set<Int> = []
    /// The `Event Grouping` of each `Event Sub Type` seen, when the file has that column.
    package var groupings: [String: String]
    /// Per day and value: the combinations of Apple's other columns (territory, subscription, offer, …) that carried
    /// it. One seen on another day but missing on this one may have been left out under Apple's threshold.
    package var combinations: [Int: [String: Set<String>]] = [:]
    /// What was read but left out, each naming the file and line: a `Paid Service Days Recovered` that is not a
    /// whole number.
    package var notices: [String] = []

    /// This file with `segment`, another segment of the same instance (Apple splits an instance's data over
    /// segments, each holding a portion of it), added: counts, paid service days and combinations summed per date.
    package func adding(_ segment: AppleReportFile) -> AppleReportFile {
        var sum = self
        sum.segments += segment.segments
        for (day, values) in segment.days {
            sum.days[day, default: [:]].merge(values, uniquingKeysWith: +)
        }
        if let paid = segment.paidServiceDays {
            sum.paidServiceDays = (sum.paidServiceDays ?? [:]).merging(paid, uniquingKeysWith: +)
        }
        sum.paidServiceDaysUnreadable.formUnion(segment.paidServiceDaysUnreadable)
        sum.groupings.merge(segment.groupings) { _, later in later }
        for (day, values) in segment.combinations {
            sum.combinations[day, default: [:]].merge(values) { $0.union($1) }
        }
        sum.notices += segment.notices
        return sum
    }

    /// Reads the file at `path`: gzip when it starts with gzip's magic number, else plain text (UTF-8).
    /// - Throws: ``AppleReportError`` naming the file (and line): unreadable, corrupt gzip, missing columns, a
    ///   date or count that cannot be read.
    package static func read(path: String) throws -> AppleReportFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw AppleReportError(path: path, reason: "cannot read the file (\(error.localizedDescription))")
        }
        var bytes = [UInt8](data)
        if Gunzip.isGzip(bytes) {
            do {
                bytes = try Gunzip.decompress(bytes)
            } catch {
                throw AppleReportError(path: path, reason: "cannot decompress: \(error)")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw AppleReportError(path: path, reason: "the file is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Reads a report's text.
    /// - Throws: ``AppleReportError`` naming `path` and the line.
    package static func parse(_ text: String, path: String) throws -> AppleReportFile {
        // Split at LF and at CR LF, which Swift reads as one character that is not "\n".
        let split = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        var lines = split.enumerated().map { index, line in
            (number: index + 1, fields: Self.fields(line))
        }
        lines.removeAll { $0.fields.allSatisfy(\.isEmpty) }
        guard let header = lines.first else {
            throw AppleReportError(path: path, reason: "the file is empty: no header line")
        }
        let layout = try Layout(header: header.fields, path: path)
        var file = AppleReportFile(
            path: path, kind: layout.kind, days: [:],
            paidServiceDays: layout.paidServiceDays == nil ? nil : [:], groupings: [:])
        for line in lines.dropFirst() {
            guard line.fields.count >= layout.width else {
                throw AppleReportError(
                    path: path, line: line.number,
                    reason: "\(line.fields.count) fields, but the header names \(layout.width) columns it needs")
            }
            let day = try Self.day(line.fields[layout.date], path: path, line: line.number)
            let value = line.fields[layout.value]
            let counts = try Self.count(line.fields[layout.counts], column: "Counts", path: path, line: line.number)
            guard let sum = file.days[day, default: [:]][value, default: Amount()].adding(count: counts) else {
                throw AppleReportError(
                    path: path, line: line.number,
                    reason: "Counts '\(counts)' adds up past what a 64-bit integer holds for its date and value")
            }
            file.days[day, default: [:]][value] = sum
            if let grouping = layout.grouping {
                file.groupings[value] = line.fields[grouping]
            }
            let dimensions = line.fields.indices.filter { !layout.read.contains($0) }.map { line.fields[$0] }
            file.combinations[day, default: [:]][value, default: []].insert(dimensions.joined(separator: "\t"))
            if let column = layout.paidServiceDays {
                try file.readPaidServiceDays(line.fields[column], of: value, on: day, line: line.number)
            }
        }
        file.granularity = AppleReportPath.granularity(of: path) ?? Self.granularity(spacing: Array(file.days.keys))
        file.processingDay = AppleReportPath.processingDay(of: path)
        return file
    }

    /// Adds one line's `Paid Service Days Recovered` (Apple's type for it is a string): counted for a recovery from
    /// grace period only, the events Apple fills it for; a value that is not a whole number is listed in
    /// ``notices`` and leaves the day's paid service days unknown when the line is a recovery from grace.
    /// - Throws: ``AppleReportError`` when the day's paid service days would add up past what an `Int` holds.
    private mutating func readPaidServiceDays(_ text: String, of value: String, on day: Int, line: Int) throws {
        let isGraceRecovery = AppleEvent.metric(forEventSubType: value) == .recoveredInGrace
        guard !text.isEmpty else { return }
        guard let days = Self.wholeNumber(text) else {
            notices.append(
                "\(path), line \(line): Paid Service Days Recovered '\(text)' is not a whole number; "
                    + (isGraceRecovery ? "the day's paid service days are not compared" : "left out"))
            if isGraceRecovery { paidServiceDaysUnreadable.insert(day) }
            return
        }
        guard isGraceRecovery, days != 0, var paid = paidServiceDays else { return }
        guard let sum = (paid[day] ?? Amount()).adding(count: days) else {
            throw AppleReportError(
                path: path, line: line,
                reason: "Paid Service Days Recovered '\(days)' adds up past what a 64-bit integer holds for its date")
        }
        paid[day] = sum
        paidServiceDays = paid
    }

    /// The granularity the dates' spacing shows when the path names none: weekly when there are two dates or more,
    /// every one a Monday and a whole number of weeks apart; monthly when every one is a month's first day and they
    /// are at least 28 days apart; else daily (a file of one date is daily).
    private static func granularity(spacing days: [Int]) -> AppleReportGranularity {
        let sorted = days.sorted()
        guard sorted.count >= 2 else { return .daily }
        let gaps = zip(sorted, sorted.dropFirst()).map { $1 - $0 }
        if sorted.allSatisfy({ AppleReportGranularity.weekly.periodStart(containing: $0) == $0 }),
            gaps.allSatisfy({ $0 % 7 == 0 })
        {
            return .weekly
        }
        if sorted.allSatisfy({ CivilDate(daysSinceEpoch: $0).day == 1 }), gaps.allSatisfy({ $0 >= 28 }) {
            return .monthly
        }
        return .daily
    }

    /// Where the needed columns are in a file's header.
    private struct Layout {
        var kind: AppleReportKind
        var date: Int
        /// `Event Sub Type` or `State Metric`.
        var value: Int
        var counts: Int
        var grouping: Int?
        var paidServiceDays: Int?
        /// Fields a line must have to hold every column read.
        var width: Int
        /// The columns read for their values: every other column is one of Apple's dimensions.
        var read: Set<Int>

        init(header: [String], path: String) throws {
            typealias Columns = AppleReportColumns
            let found = header.map { "'\($0)'" }.joined(separator: ", ")
            let subType = Columns.position(of: Columns.eventSubType, in: header)
            let eventDate = Columns.position(of: Columns.eventDate, in: header)
            let stateMetric = Columns.position(of: Columns.stateMetric, in: header)
            let needed: [AppleReportColumns.Column]
            // Each report is told by the columns only it has: `Event Date` with `Event Sub Type` (or its variants),
            // or `State Metric`. Anything else is another of Apple's reports.
            if let subType, eventDate != nil {
                kind = .subscriptionEvent
                value = subType
                needed = [Columns.eventDate, Columns.counts]
                grouping = Columns.position(of: Columns.eventGrouping, in: header)
                paidServiceDays = Columns.position(of: Columns.paidServiceDaysRecovered, in: header)
            } else if let stateMetric {
                kind = .subscriptionState
                value = stateMetric
                needed = [Columns.date, Columns.counts]
            } else {
                let looksLike =
                    AppleReportPath.otherReportName(of: path).map { "looks like an \($0) report" }
                    ?? "looks like another App Store Connect report"
                throw AppleReportError(
                    path: path, line: 1,
                    reason: "\(looksLike), not a Subscription Event report (which has 'Event Date', 'Event Sub Type' "
                        + "or 'Event Name', and 'Counts') or a Subscription State report ('Date', 'State Metric', "
                        + "'Counts'): the header has \(found); skipped",
                    isOtherReport: true)
            }
            let positions = needed.map { Columns.position(of: $0, in: header) }
            let missing = zip(needed, positions).filter { $0.1 == nil }.map { "'\($0.0.name)'" }
            guard missing.isEmpty, let datePosition = positions[0], let countsPosition = positions[1] else {
                throw AppleReportError(
                    path: path, line: 1,
                    reason: "the \(kind.rawValue) report needs the column \(missing.joined(separator: " and ")); "
                        + "the header has \(found)")
            }
            date = datePosition
            counts = countsPosition
            let columns = [date, value, counts] + [grouping, paidServiceDays].compactMap { $0 }
            width = (columns.max() ?? 0) + 1
            read = Set(columns)
        }
    }

    /// A line's tab-separated fields, without a carriage return, surrounding spaces or surrounding double quotes.
    private static func fields(_ line: Substring) -> [String] {
        let trimmedLine = line.hasSuffix("\r") ? line.dropLast() : line
        return trimmedLine.split(separator: "\t", omittingEmptySubsequences: false).map { field in
            var value = field.trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
            }
            return value.replacingOccurrences(of: "\u{FEFF}", with: "")
        }
    }

    /// A date as `YYYY-MM-DD` (a time after it is ignored) or `MM/DD/YYYY`, as its day number.
    private static func day(_ text: String, path: String, line: Int) throws -> Int {
        if let date = CivilDate(parsing: String(text.prefix(10))),
            text.count == 10 || text.dropFirst(10).first == "T"
                || text.dropFirst(10).first == " "
        {
            return date.daysSinceEpoch
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4,
            let date = CivilDate(parsing: "\(parts[2])-\(parts[0])-\(parts[1])")
        {
            return date.daysSinceEpoch
        }
        throw AppleReportError(path: path, line: line, reason: "the date '\(text)' is not YYYY-MM-DD or MM/DD/YYYY")
    }

    /// A whole number (`12`, `12.0`, `1,234`), nil for anything else.
    private static func wholeNumber(_ text: String) -> Int? {
        var digits = text.replacingOccurrences(of: ",", with: "")
        if let point = digits.firstIndex(of: "."), digits[digits.index(after: point)...].allSatisfy({ $0 == "0" }) {
            digits = String(digits[..<point])
        }
        return Int(digits)
    }

    /// A whole number (`12`, `12.0`, `1,234`).
    /// - Throws: ``AppleReportError`` naming the column, file and line.
    private static func count(_ text: String, column: String, path: String, line: Int) throws -> Int {
        guard let value = wholeNumber(text) else {
            throw AppleReportError(path: path, line: line, reason: "\(column) '\(text)' is not a whole number")
        }
        return value
    }
}
