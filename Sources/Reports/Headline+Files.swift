import Analysis
import Foundation

extension Headline {
    /// The snapshot as `headline.json`: pretty-printed, keys sorted, ending in a newline (the same figures give
    /// the same bytes).
    ///
    /// - Throws: `ReportsError` if a figure cannot be encoded (a non-finite number).
    package func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
        } catch {
            throw ReportsError(operation: "writing the headline figures", path: Self.fileName, reason: "\(error)")
        }
    }

    /// Reads a snapshot of the current format, written by `encoded()`.
    ///
    /// - Parameters:
    ///   - data: the bytes of a `headline.json`.
    ///   - path: where they came from, for the error message.
    /// - Throws: `ReportsError` naming the field that is missing or wrong, or a format other than the current one.
    package static func decode(_ data: Data, path: String) throws -> Headline {
        switch try PreviousHeadline.decode(data, path: path) {
        case .current(let headline):
            return headline
        case .earlier(let earlier):
            throw ReportsError(
                operation: readingOperation, path: path,
                reason: "format \(earlier.format) is not the format \(currentFormat) this version writes")
        }
    }

    /// Reads `headline.json` from a report directory, in any format this version reads.
    ///
    /// - Throws: `ReportsError` when the file cannot be read or decoded.
    package static func read(fromReportDirectory directory: URL) throws -> PreviousHeadline {
        let url = directory.appendingPathComponent(fileName)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ReportsError(
                operation: readingOperation, path: url.path,
                reason: "cannot read the file (\(ReportsError.systemReason(error)))")
        }
        return try PreviousHeadline.decode(data, path: url.path)
    }

    /// The latest earlier report of the same environment and database under a reports directory, for "what
    /// changed".
    ///
    /// Only dated report directories are history: a subdirectory counts when its name is the UTC date of its own
    /// as-of time (``Report/directoryName(asOf:)``, as `churn report` and `churn nightly` name them), it holds a
    /// `headline.json` (written last, so only complete reports have one), its environment is `environment`, and
    /// it was made from the database `databaseID` names, as of the latest data then (not an `--as-of` asked for), with
    /// the cohort granularity `granularity`. A snapshot that does not say one of these (written before reports recorded it) counts when the
    /// rest does. Among these it picks the greatest as-of time before `asOf`, whatever its format. A report asked for
    /// by hand (`churn report --as-of …`) is never another report's previous one; anything else in the root, such as
    /// a copied example or an `--out` directory of another name, is not read at all.
    ///
    /// - Parameters:
    ///   - root: the directory holding one subdirectory per report, such as `reports/`.
    ///   - asOf: the as-of time of the report being written; only earlier reports count.
    ///   - environment: only reports of this environment count.
    ///   - databaseID: the identity of the report's database (`database_identity.id`); nil for a report made
    ///     without one, which then compares only with snapshots that name no database either.
    ///   - granularity: the cohort granularity of the report being written.
    /// - Returns: nil when there is none (or `root` does not exist).
    /// - Throws: `ReportsError` when a dated directory's `headline.json` exists but cannot be read.
    package static func latest(
        inReportsRoot root: URL, before asOf: Int64, environment: String, databaseID: String? = nil,
        granularity: CalendarPeriod.Granularity = .month
    ) throws -> PreviousHeadline? {
        let fileManager = FileManager.default
        guard let names = try? fileManager.contentsOfDirectory(atPath: root.path) else { return nil }
        var best: PreviousHeadline?
        // Sorted, so that ties resolve the same way on every file system.
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        where Report.isDatedDirectoryName(name) {
            let directory = root.appendingPathComponent(name, isDirectory: true)
            guard fileManager.fileExists(atPath: directory.appendingPathComponent(fileName).path) else { continue }
            let headline = try read(fromReportDirectory: directory)
            guard name == Report.directoryName(asOf: headline.asOf), headline.environment == environment,
                headline.databaseID == nil || headline.databaseID == databaseID, headline.asOf < asOf,
                headline.asOfGiven != true, headline.granularity ?? granularity == granularity
            else { continue }
            if best.map({ headline.asOf > $0.asOf }) ?? true { best = headline }
        }
        return best
    }

    static let readingOperation = "reading the previous report's headline figures"

    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? "." + key.stringValue }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "(top level)" : text)
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "not a headline.json"
        }
    }
}
