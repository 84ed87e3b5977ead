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

        package static func + (lhs: Amount, rhs: Amount) -> Amount {
            Amount(total: lhs.total + rhs.total, values: lhs.values + rhs.values)
        }
    }

    package var path: String
    package var kind: AppleReportKind
    /// Per day (days since 1970-01-01): the `Counts` of each `Event Sub Type` or `State Metric` value, added up.
    package var days: [Int: [String: Amount]]
    /// Per day: `Paid Service Days Recovered` added up; nil when the file has no such column (the State report).
    package var paidServiceDays: [Int: Amount]?
    /// The `Event Grouping` of each `Event Sub Type` seen, when the file has that column.
    package var groupings: [String: String]
    /// Per day and value: the combinations of Apple's other columns (territory, subscription, offer, …) that carried
    /// it. One seen on another day but missing on this one may have been left out under Apple's threshold.
    package var combinations: [Int: [String: Set<String>]] = [:]

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
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
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
            file.days[day, default: [:]][value, default: Amount()] =
                file.days[day, default: [:]][value, default: Amount()] + Amount(total: counts, values: 1)
            if let grouping = layout.grouping {
                file.groupings[value] = line.fields[grouping]
            }
            let dimensions = line.fields.indices.filter { !layout.read.contains($0) }.map { line.fields[$0] }
            file.combinations[day, default: [:]][value, default: []].insert(dimensions.joined(separator: "\t"))
            if let column = layout.paidServiceDays {
                let text = line.fields[column]
                let days =
                    text.isEmpty
                    ? 0 : try Self.count(text, column: "Paid Service Days Recovered", path: path, line: line.number)
                if days != 0, var paid = file.paidServiceDays {
                    paid[day] = (paid[day] ?? Amount()) + Amount(total: days, values: 1)
                    file.paidServiceDays = paid
                }
            }
        }
        return file
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
            let stateMetric = Columns.position(of: Columns.stateMetric, in: header)
            let needed: [AppleReportColumns.Column]
            if let subType {
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
                throw AppleReportError(
                    path: path, line: 1,
                    reason: "not an App Store Subscription Event or Subscription State report: it needs the columns "
                        + "'Event Date', 'Event Sub Type' (or 'Event Name') and 'Counts', or 'Date', 'State Metric' "
                        + "and 'Counts'; the header has \(found)")
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

    /// A whole number (`12`, `12.0`, `1,234`).
    private static func count(_ text: String, column: String, path: String, line: Int) throws -> Int {
        var digits = text.replacingOccurrences(of: ",", with: "")
        if let point = digits.firstIndex(of: "."), digits[digits.index(after: point)...].allSatisfy({ $0 == "0" }) {
            digits = String(digits[..<point])
        }
        guard let value = Int(digits) else {
            throw AppleReportError(path: path, line: line, reason: "\(column) '\(text)' is not a whole number")
        }
        return value
    }
}
