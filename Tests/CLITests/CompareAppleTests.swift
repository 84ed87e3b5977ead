import Foundation
import Gzip
import TestSupport
import Testing

/// `churn compare-apple` and `churn report --apple-reports` end to end: a simulated export loaded into PostgreSQL,
/// Apple-shaped Subscription Event files written from the episodes `churn query episodes` lists (counted here per
/// day, not by the comparison's own code), read back as agreeing; a later file restating one day with 30 more
/// expiries makes that week differ, named with its event.
@Suite struct CompareAppleTests {
    /// Per day (`YYYY-MM-DD`) and `Event Sub Type`: the count Apple's file states.
    typealias DayCounts = [String: [String: Int]]

    /// What `churn query episodes` lists of one episode, for the counts at a day's end.
    struct Listed {
        var start: Date
        var end: Date?
        var graceEnd: Date?
    }

    /// Per day (`YYYY-MM-DD`): the episodes in grace and in billing retry at the day's end (the next midnight UTC):
    /// started before then and not ended by then, in grace while their grace end is later.
    static func states(_ episodes: [Listed]) throws -> DayCounts {
        let day = 86_400.0
        let first = try #require(episodes.map(\.start).min())
        let last = try #require(episodes.compactMap(\.end).max())
        var states: DayCounts = [:]
        var midnight = Date(timeIntervalSince1970: (first.timeIntervalSince1970 / day).rounded(.down) * day + day)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        while midnight <= last {
            let open = episodes.filter { $0.start < midnight && ($0.end.map { $0 >= midnight } ?? true) }
            let grace = open.filter { episode in
                guard let graceEnd = episode.graceEnd else { return false }
                return min(graceEnd, episode.end ?? graceEnd) >= midnight
            }
            let date = formatter.string(from: midnight.addingTimeInterval(-day))
            states[date] = ["Grace period": grace.count, "Billing retry": open.count - grace.count]
            midnight = midnight.addingTimeInterval(day)
        }
        return states
    }

    /// An Apple-shaped Subscription State file with the documented columns.
    static func stateFile(_ states: DayCounts) -> String {
        var lines = ["Date\tApp Name\tApp Apple Identifier\tState Metric\tState Metric Grouping\tTerritory\tCounts"]
        for (day, values) in states.sorted(by: { $0.key < $1.key }) {
            for (metric, count) in values.sorted(by: { $0.key < $1.key }) where count > 0 {
                lines.append("\(day)\tExample\t1234567890\t\(metric)\tBilling\tUS\t\(count)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Loads a simulated export and returns the episodes' counts per day, as Apple's sub types name them.
    private static func loadAndCount(schema: String, directory: URL) throws -> (events: DayCounts, states: DayCounts) {
        let exports = directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let export = exports.appendingPathComponent("export.jsonl")
        let simulate = try ChurnCommand.run(
            [
                "simulate", "--subscribers", "300", "--seed", "30", "--months", "4", "--grace", "mixed", "--out",
                export.path,
            ]
        )
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let nightly = try ChurnCommand.run(
            [
                "nightly", "--database-url", schema, "--trust-root",
                exports.appendingPathComponent("export.root.der").path,
                "--reports-root", directory.appendingPathComponent("reports").path, exports.path,
            ]
        )
        #expect(nightly.status == 0, "\(nightly.stderr)")
        let list = try ChurnCommand.run(
            ["query", "episodes", "--database-url", schema, "--format", "csv", "--limit", "1000000"])
        #expect(list.status == 0, "\(list.stderr)")
        var lines = list.stdout.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let header = lines.removeFirst().map(String.init)
        let column = { (name: String) throws -> Int in try #require(header.firstIndex(of: name)) }
        let start = try column("start_at")
        let end = try column("end_at")
        let outcome = try column("outcome")
        let savedInGrace = try column("saved_in_grace")
        let graceEnd = try column("grace_end")
        let timestamps = ISO8601DateFormatter()
        timestamps.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var listed: [Listed] = []
        var counts: DayCounts = [:]
        for fields in lines {
            func time(_ field: Substring) throws -> Date? {
                guard !field.isEmpty else { return nil }
                let date: Date = try #require(timestamps.date(from: String(field)))
                return date
            }
            let episode = Listed(
                start: try #require(try time(fields[start])), end: try time(fields[end]),
                graceEnd: try time(fields[graceEnd]))
            listed.append(episode)
            // An episode with grace enters grace, and enters billing retry from grace on its grace end unless it
            // ended by then: two entries in Apple's terms.
            let entry =
                episode.graceEnd == nil
                ? "Entered Billing Retry from Full Price" : "Entered Grace Period from Full Price"
            counts[String(fields[start].prefix(10)), default: [:]][entry, default: 0] += 1
            if let graceEndTime = episode.graceEnd, episode.end.map({ $0 > graceEndTime }) ?? true {
                counts[String(fields[graceEnd].prefix(10)), default: [:]][
                    "Entered Billing Retry from Grace Period", default: 0] += 1
            }
            let endDay = String(fields[end].prefix(10))
            switch fields[outcome] {
            case "expired":
                counts[endDay, default: [:]]["Involuntary Churn from Full Price", default: 0] += 1
            case "recovered":
                let subType =
                    fields[savedInGrace] == "true"
                    ? "Full Price Recoveries from Grace Period" : "Full Price Recoveries from Billing Retry"
                counts[endDay, default: [:]][subType, default: 0] += 1
            default:
                break
            }
        }
        #expect(lines.count > 20)
        return (counts, try states(listed))
    }

    /// An Apple-shaped event file (the variant headers some downloads have), each count split over two territories.
    private static func eventFile(_ counts: DayCounts) -> String {
        var lines = ["Event Date\tApp Name\tEvent Group\tEvent Name\tTerritory\tCount"]
        for (day, values) in counts.sorted(by: { $0.key < $1.key }) {
            for (subType, count) in values.sorted(by: { $0.key < $1.key }) where count > 0 {
                let grouping =
                    subType.hasPrefix("Entered")
                    ? "Entered Billing Issue"
                    : subType.hasPrefix("Involuntary")
                        ? "Involuntary Churn"
                        : "Recoveries from Billing Issue"
                let us = count / 2
                for (territory, part) in [("US", us), ("GB", count - us)] where part > 0 {
                    lines.append("\(day)\tExample\t\(grouping)\t\(subType)\t\(territory)\t\(part)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func applesCountsMadeFromOursAgreeAndAPerturbedWeekIsNamed() throws {
        let schema = try TestDatabase.makeSchema("apple")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apple-\(UUID().uuidString)")
        let (counts, states) = try Self.loadAndCount(schema: schema.url, directory: directory)
        let apple = directory.appendingPathComponent("apple")
        try FileManager.default.createDirectory(at: apple, withIntermediateDirectories: true)
        let first = apple.appendingPathComponent("subscription-event-1.txt.gz")
        try Data(try GzipMember.compress(Array(Self.eventFile(counts).utf8))).write(to: first)
        let state = apple.appendingPathComponent("subscription-state.txt")
        try Self.stateFile(states).write(to: state, atomically: true, encoding: .utf8)
        let older = Date(timeIntervalSinceNow: -3_600)
        for file in [first, state] {
            try FileManager.default.setAttributes([.modificationDate: older], ofItemAtPath: file.path)
        }

        // Apple's files hold our counts exactly: every day reads back into them, every figure but the paid service
        // days (the files have no such column).
        let agreeing = try ChurnCommand.run(
            ["compare-apple", "--database-url", schema.url, apple.path, "--days", "--format", "json"])
        #expect(agreeing.status == 0, "\(agreeing.stderr)")
        #expect(agreeing.stderr.contains("weeks agree with Apple's reports within Apple's noise"), "\(agreeing.stderr)")
        #expect(
            agreeing.stderr.contains(
                "held back: the newest 3 days of Apple's daily App Store Subscription Event files"),
            "\(agreeing.stderr)")
        let agreeingRows = try #require(
            try JSONSerialization.jsonObject(with: Data(agreeing.stdout.utf8)) as? [[String: Any]])
        let dayRows = agreeingRows.filter { $0["granularity"] as? String == "day" }
        #expect(dayRows.allSatisfy { $0["difference"] as? Int == 0 && $0["status"] as? String == "agrees" })
        let metrics = Set(dayRows.compactMap { $0["metric"] as? String })
        #expect(
            metrics == [
                "entered_billing_issue", "entered_retry_from_grace", "recovered_in_grace", "recovered_in_retry",
                "involuntary_churn", "in_grace", "in_billing_retry", "in_commitment_retry",
            ])
        let graceDays = dayRows.filter { $0["metric"] as? String == "in_grace" && ($0["ours"] as? Int ?? 0) > 0 }
        #expect(graceDays.count > 5)
        let table = try ChurnCommand.run(["compare-apple", "--database-url", schema.url, apple.path])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("involuntary_churn"))
        #expect(!table.stdout.contains("differs"))

        // A later file restates the day with the most expiries: 30 more than ours.
        let day = try #require(
            counts.filter { $0.value["Involuntary Churn from Full Price"] != nil }
                .max {
                    ($0.value["Involuntary Churn from Full Price"] ?? 0)
                        < ($1.value["Involuntary Churn from Full Price"] ?? 0)
                })
        var restated = day.value
        restated["Involuntary Churn from Full Price", default: 0] += 30
        try Self.eventFile([day.key: restated]).write(
            to: apple.appendingPathComponent("subscription-event-0-restated.txt"), atomically: true, encoding: .utf8)
        let differing = try ChurnCommand.run(
            ["compare-apple", "--database-url", schema.url, apple.path, "--format", "json"])
        #expect(differing.status == 0, "\(differing.stderr)")
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(differing.stdout.utf8)) as? [[String: Any]])
        let differs = rows.filter { $0["status"] as? String == "differs" }
        #expect(differs.count == 1)
        let week = try #require(differs.first)
        #expect(week["metric"] as? String == "involuntary_churn")
        #expect(week["difference"] as? Int == -30)
        let weekName = try #require(week["period"] as? String)
        #expect(differing.stderr.contains("1 of "), "\(differing.stderr)")
        #expect(differing.stderr.contains("\(weekName): involuntary churn, ours "), "\(differing.stderr)")

        // The report writes the comparison beside its files and says it in the summary.
        let out = directory.appendingPathComponent("report")
        let report = try ChurnCommand.run(
            ["report", "--database-url", schema.url, "--apple-reports", apple.path, "--out", out.path])
        #expect(report.status == 0, "\(report.stderr)")
        let csv = try String(contentsOf: out.appendingPathComponent("apple_comparison.csv"), encoding: .utf8)
        #expect(
            csv.hasPrefix(
                "granularity,period,metric,ours,apple,difference,noise_bound,threshold_allowance,apple_values,status\n")
        )
        #expect(csv.contains("week,\(weekName),involuntary_churn,"))
        let summary = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("## Against Apple's reports"))
        #expect(summary.contains("- \(weekName): involuntary churn, ours "))
    }

    /// `counts` added up per ISO week (keyed by its Monday) or per month (keyed by its first day), as Apple's weekly
    /// and monthly instances date them.
    static func periods(_ counts: DayCounts, monthly: Bool) throws -> DayCounts {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        var periods: DayCounts = [:]
        for (day, values) in counts {
            let date = try #require(formatter.date(from: day))
            let start = try #require(
                monthly
                    ? calendar.dateInterval(of: .month, for: date)?.start
                    : calendar.dateInterval(of: .weekOfYear, for: date)?.start)
            for (subType, count) in values {
                periods[formatter.string(from: start), default: [:]][subType, default: 0] += count
            }
        }
        return periods
    }

    @Test func weeklyAndMonthlyInstancesAgreePerWeekAndMonthAndOtherReportsAreSkipped() throws {
        let schema = try TestDatabase.makeSchema("apple_periods")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apple-\(UUID().uuidString)")
        let (counts, _) = try Self.loadAndCount(schema: schema.url, directory: directory)
        let apple = directory.appendingPathComponent("apple")
        for (granularity, monthly) in [("WEEKLY", false), ("MONTHLY", true)] {
            let instance = apple.appendingPathComponent("SUBSCRIPTION_EVENT/\(granularity)/ONGOING/20300101/1")
            try FileManager.default.createDirectory(at: instance, withIntermediateDirectories: true)
            try Self.eventFile(try Self.periods(counts, monthly: monthly)).write(
                to: instance.appendingPathComponent("0.txt"), atomically: true, encoding: .utf8)
        }
        try "Date\tApp Name\tEvent\tCounts\n2026-03-02\tExample\tMessage Shown\t400\n".write(
            to: apple.appendingPathComponent("app-store-retention-messaging.txt"), atomically: true, encoding: .utf8)
        let result = try ChurnCommand.run(
            ["compare-apple", "--database-url", schema.url, apple.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("looks like an App Store Retention Messaging report"), "\(result.stderr)")
        #expect(result.stderr.contains("; skipped"), "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let weeks = rows.filter { $0["granularity"] as? String == "week" }
        let months = rows.filter { $0["granularity"] as? String == "month" }
        #expect(weeks.count > 5)
        #expect(months.count >= 2)
        #expect(
            (weeks + months).allSatisfy { $0["difference"] as? Int == 0 && $0["status"] as? String == "agrees" },
            "\(rows)")
        let metrics = Set(months.compactMap { $0["metric"] as? String })
        #expect(metrics.contains("involuntary_churn") && metrics.contains("entered_billing_issue"))
        // A week's entries are Apple's weekly figure, not a day's: no day row is read from these files.
        #expect(!rows.contains { $0["granularity"] as? String == "day" })
        #expect(result.stderr.contains("all ") && result.stderr.contains("months agree"), "\(result.stderr)")
    }

    @Test func aFileWithoutTheColumnsItNeedsIsRefusedBeforeAnyDatabaseWork() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("downloads.txt")
        try "Date\tApp Name\tDownloads\n2026-03-02\tExample\t12\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try ChurnCommand.run(
            ["compare-apple", "--database-url", "postgresql://nobody@127.0.0.1:1/none", file.path])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains(file.path))
        #expect(result.stderr.contains("the header has 'Date', 'App Name', 'Downloads'"), "\(result.stderr)")
    }
}
