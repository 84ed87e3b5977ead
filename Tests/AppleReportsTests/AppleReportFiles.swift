import Foundation
import Gzip

/// Apple-shaped report files written by the tests: Apple's documented columns (or the variants seen in downloaded
/// files), one line per combination of dimensions.
enum AppleReportFiles {
    /// The documented columns of *App Store Subscription Event* (with some of the columns Apple's list elides).
    static let eventHeader = [
        "Event Date", "App Name", "App Apple Identifier", "Event Sub Type", "Event Grouping", "Subscription Name",
        "Subscription Identifier", "Subscription Duration", "Billing Frequency", "Billing Period",
        "Subscription Group", "Subscription Group Identifier", "Offer Type", "Family Sharing", "Cancellation Reason",
        "Paid Service Days Recovered", "Territory", "Counts",
    ]
    /// The same report as some downloaded files name it.
    static let variantEventHeader = [
        "Event Date", "App Name", "App Apple Identifier", "Event Name", "Event Group", "Subscription Name",
        "Territory", "Paid Service Days Recovered", "Count",
    ]
    /// The documented columns of *App Store Subscription State*.
    static let stateHeader = [
        "Date", "App Name", "App Apple Identifier", "State Metric", "State Metric Grouping", "Subscription Name",
        "Subscription Identifier", "Family Sharing", "Territory", "Counts",
    ]

    /// One event line: the date, grouping, sub type, territory, count and paid service days, in `header`'s columns.
    struct Event {
        var date: String
        var grouping: String
        var subType: String
        var territory: String = "US"
        var counts: Int
        var paidServiceDays: Int = 0
    }

    static func eventText(_ events: [Event], header: [String] = eventHeader) -> String {
        var lines = [header.joined(separator: "\t")]
        for event in events {
            lines.append(
                header.map { column -> String in
                    switch column {
                    case "Event Date": return event.date
                    case "Event Sub Type", "Event Name": return event.subType
                    case "Event Grouping", "Event Group": return event.grouping
                    case "Territory": return event.territory
                    case "Counts", "Count": return String(event.counts)
                    case "Paid Service Days Recovered":
                        return event.paidServiceDays == 0 ? "" : String(event.paidServiceDays)
                    case "App Name": return "Example"
                    case "App Apple Identifier": return "1234567890"
                    case "Subscription Name": return "Pro Monthly"
                    default: return ""
                    }
                }.joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func stateText(_ states: [(date: String, metric: String, territory: String, counts: Int)]) -> String {
        var lines = [stateHeader.joined(separator: "\t")]
        for state in states {
            lines.append(
                stateHeader.map { column -> String in
                    switch column {
                    case "Date": return state.date
                    case "State Metric": return state.metric
                    case "Territory": return state.territory
                    case "Counts": return String(state.counts)
                    case "App Name": return "Example"
                    default: return ""
                    }
                }.joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A new empty directory under the temporary directory.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apple-reports-" + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `name` in `directory`, gzip-compressed when `gzip`, modified at `modified`.
    @discardableResult
    static func write(
        _ text: String, named name: String, in directory: URL, gzip: Bool = false, modified: Date? = nil
    ) throws -> String {
        let url = directory.appendingPathComponent(name)
        let bytes = gzip ? try GzipMember.compress(Array(text.utf8)) : Array(text.utf8)
        try Data(bytes).write(to: url)
        if let modified {
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
        }
        return url.path
    }
}
