import CivilTime
import Foundation

/// What a report file's path says about it, as Apple names the files of an instance: its segments download from
/// `…/<REPORT_NAME>/<GRANULARITY>/<ACCESS_TYPE>/<processing date YYYYMMDD>/<batch>/<segment>.csv.gz` (Apple, *Read
/// the Segments for a Report*), and a file saved under another name may carry the same words (`weekly`,
/// `2026-03-09`) in its own name.
package enum AppleReportPath {
    /// `DAILY`, `WEEKLY` or `MONTHLY` as a whole directory name of `path`, or as a word of its file name (words are
    /// split at `_`, `-`, `.` and spaces); the one nearest the file wins. Nil when the path names none.
    package static func granularity(of path: String) -> AppleReportGranularity? {
        for part in parts(of: path).reversed() {
            if let granularity = AppleReportGranularity(name: part) { return granularity }
        }
        return nil
    }

    /// The processing date (days since 1970-01-01) the path carries: a whole directory name, or a word of the file
    /// name, that is a date as `YYYYMMDD` or `YYYY-MM-DD`; the one nearest the file wins. Nil when the path has none.
    package static func processingDay(of path: String) -> Int? {
        let components = URL(fileURLWithPath: path).pathComponents
        var candidates = components.dropLast().map { [$0] }
        if let name = components.last {
            var words = Self.words(of: name)
            // `2026-03-09` is split into three words: join each run of three back.
            if words.count >= 3 {
                words += (0...(words.count - 3)).map { words[$0...($0 + 2)].joined(separator: "-") }
            }
            candidates.append(words)
        }
        for group in candidates.reversed() {
            for word in group.reversed() {
                if let day = date(word) { return day }
            }
        }
        return nil
    }

    /// The Analytics report a path's words name, for a file that is neither a Subscription Event nor a Subscription
    /// State report: `App Store Retention Messaging` for `app-store-retention-messaging-daily.txt` or a download under
    /// `APP_STORE_RETENTION_MESSAGING/…`. Nil when no known name is in it.
    package static func otherReportName(of path: String) -> String? {
        let text = " " + parts(of: path).joined(separator: " ") + " "
        for (words, name) in otherReports where text.contains(" " + words + " ") {
            return name
        }
        return nil
    }

    /// Words of a path that may name a report, in lower case, its other reports' names before the generic ones.
    private static let otherReports: [(String, String)] = [
        ("retention messaging", "App Store Retention Messaging"),
        ("discovery and engagement", "App Store Discovery and Engagement"),
        ("discovery engagement", "App Store Discovery and Engagement"),
        ("installations and deletions", "App Store Installations and Deletions"),
        ("installs performance", "App Installs Performance"),
        ("installs", "App Installs"),
        ("downloads", "App Store Downloads"),
        ("sessions", "App Sessions"),
        ("crashes", "App Crashes"),
    ]

    /// The directory names of `path` and the words of its file name, in lower case, in order.
    private static func parts(of path: String) -> [String] {
        let components = URL(fileURLWithPath: path).pathComponents
        let directories = components.dropLast().flatMap(words(of:))
        return directories + (components.last.map(words(of:)) ?? [])
    }

    /// `name` split at `_`, `-`, `.` and spaces, in lower case.
    private static func words(of name: String) -> [String] {
        name.lowercased().split(whereSeparator: { "_-. ".contains($0) }).map(String.init)
    }

    /// A date `YYYYMMDD` or `YYYY-MM-DD` of the years 2000–2199, as days since 1970-01-01.
    private static func date(_ word: String) -> Int? {
        let digits = word.replacingOccurrences(of: "-", with: "")
        guard digits.count == 8, word.count == 8 || word.count == 10, digits.allSatisfy(\.isASCII),
            digits.allSatisfy(\.isNumber)
        else { return nil }
        let text = "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.suffix(2))"
        guard let date = CivilDate(parsing: text), (2000...2199).contains(date.year) else { return nil }
        return date.daysSinceEpoch
    }
}
