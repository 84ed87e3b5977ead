import Foundation
import Testing
import TestPKI
import TestSupport

/// The figures `churn report` writes, worked out a second way: a small signed story whose episodes are counted by
/// hand below, loaded and reported by the built binary, against sums and rates computed here straight from
/// METRICS.md (recovery_by_cohort.csv, revenue.csv, headline.json and the headline of summary.md).
@Suite struct ReportFiguresTests {
    /// One episode of the story, as counted by hand.
    struct Counted {
        var subscription: String
        var cohort: String
        var product: String
        /// t0, in days after ``SignedStories/dayZero``.
        var start: Int64
        var outcome: String
        /// The recovering transaction's price (milliunits) and currency.
        var recovery: (price: Int64, currency: String)? = nil
        var isSavedInGrace = false
        /// What the failed renewal would have charged.
        var stake: (price: Int64, currency: String) = (2990, "USD")
    }

    static let monthly = "com.example.monthly"
    static let annual = "com.example.annual"
    /// The as-of time: the latest notification (Z's renewal), in days.
    static let asOfDay: Int64 = 130

    /// Day 0 is 2023-11-14T22:13:20Z: t0 on days 1–16 falls in November 2023, 17–47 in December, 48–78 in January
    /// 2024. Mature: t0 + 61 days ≤ day 130, so t0 ≤ day 69.
    static let episodes = [
        // Recovered on day 5, inside the grace period that ends on day 8.
        Counted(
            subscription: "A", cohort: "2023-11", product: monthly, start: 2, outcome: "recovered",
            recovery: (2990, "USD"), isSavedInGrace: true),
        // Expired on day 63, day 60 of retry.
        Counted(subscription: "B", cohort: "2023-11", product: monthly, start: 3, outcome: "expired"),
        // Turned off renewal on day 9.
        Counted(
            subscription: "C", cohort: "2023-11", product: monthly, start: 5, outcome: "cancelled",
            stake: (4990, "EUR")),
        // Recovered on day 20, after the grace period that ended on day 16.
        Counted(
            subscription: "D", cohort: "2023-11", product: monthly, start: 10, outcome: "recovered",
            recovery: (4990, "EUR"), stake: (4990, "EUR")),
        // No EXPIRED ever came: expired on day 72 by inference.
        Counted(subscription: "E", cohort: "2023-11", product: monthly, start: 12, outcome: "expired"),
        // Refunded on day 25.
        Counted(subscription: "F", cohort: "2023-12", product: monthly, start: 20, outcome: "other"),
        // Bought again on day 30, at 3.99.
        Counted(
            subscription: "G", cohort: "2023-12", product: monthly, start: 22, outcome: "recovered",
            recovery: (3990, "USD")),
        // The annual product, recovered the next day.
        Counted(
            subscription: "H", cohort: "2023-12", product: annual, start: 25, outcome: "recovered",
            recovery: (19990, "USD"), stake: (19990, "USD")),
        // Expired on day 100.
        Counted(subscription: "I", cohort: "2023-12", product: monthly, start: 40, outcome: "expired"),
        // Recovered on day 61; mature since day 121.
        Counted(
            subscription: "J", cohort: "2024-01", product: monthly, start: 60, outcome: "recovered",
            recovery: (2990, "USD")),
        // Still in retry, one day short of mature.
        Counted(subscription: "K", cohort: "2024-01", product: monthly, start: 70, outcome: "open"),
        // Recovered in pounds on day 76, not mature.
        Counted(
            subscription: "L", cohort: "2024-01", product: monthly, start: 75, outcome: "recovered",
            recovery: (2490, "GBP"), stake: (2490, "GBP")),
        // Still in its grace period; the renewal would charge 3.49.
        Counted(
            subscription: "M", cohort: "2024-01", product: monthly, start: 78, outcome: "open", stake: (3490, "USD")),
    ]

    /// The export lines of the story. Besides the episodes: S's failure notice for a period already paid (stale,
    /// no episode), a resent line, and Z's renewal, the latest notification.
    static func lines(_ stories: inout SignedStories) throws -> [String] {
        let fail = "DID_FAIL_TO_RENEW"
        let renew = "DID_RENEW"
        let recovery = "BILLING_RECOVERY"
        let a = try stories.line("A", fail, "GRACE_PERIOD", at: 2, expires: 2, grace: 8)
        return [
            a, a,
            try stories.line("A", renew, recovery, at: 5, expires: 32),
            try stories.line("B", fail, at: 3, expires: 3),
            try stories.line("B", "EXPIRED", "BILLING_RETRY", at: 63),
            try stories.line("C", fail, at: 5, expires: 5, price: 4990, currency: "EUR"),
            try stories.line("C", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: 9),
            try stories.line("D", fail, "GRACE_PERIOD", at: 10, expires: 10, grace: 16, price: 4990, currency: "EUR"),
            try stories.line("D", renew, recovery, at: 20, expires: 40, price: 4990, currency: "EUR"),
            try stories.line("E", fail, at: 12, expires: 12),
            try stories.line("F", fail, at: 20, expires: 20),
            try stories.line("F", "REFUND", at: 25),
            try stories.line("G", fail, at: 22, expires: 22),
            try stories.line("G", "SUBSCRIBED", "RESUBSCRIBE", at: 30, expires: 60, price: 3990),
            try stories.line("H", fail, at: 25, product: annual, expires: 25, price: 19990),
            try stories.line("H", renew, recovery, at: 26, product: annual, expires: 391, price: 19990),
            try stories.line("I", fail, at: 40, expires: 40),
            try stories.line("I", "EXPIRED", "BILLING_RETRY", at: 100),
            try stories.line("J", fail, at: 60, expires: 60),
            try stories.line("J", renew, recovery, at: 61, expires: 90),
            try stories.line("K", fail, at: 70, expires: 70),
            try stories.line("L", fail, at: 75, storefront: "GBR", expires: 75, price: 2490, currency: "GBP"),
            try stories.line(
                "L", renew, recovery, at: 76, storefront: "GBR", expires: 105, price: 2490, currency: "GBP"),
            try stories.line(
                "M", fail, "GRACE_PERIOD", at: 78, expires: 78, grace: 84, renewalPrice: 3490, renewalCurrency: "USD"),
            try stories.line("S", renew, at: 10, expires: 40),
            try stories.line("S", fail, at: 12, expires: 10),
            try stories.line("Z", renew, at: asOfDay, expires: 160),
        ]
    }

    @Test func theReportsFiguresAreTheHandCountedEpisodesSummed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("figures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var stories = try SignedStories(name: "Figures")
        let export = directory.appendingPathComponent("export.jsonl")
        try Data((try Self.lines(&stories).joined(separator: "\n") + "\n").utf8).write(to: export)
        let root = directory.appendingPathComponent("root.der")
        try Data(try stories.root.rootDER()).write(to: root)
        let schema = try TestDatabase.makeSchema("figures")
        let load = try ChurnCommand.run(
            ["load", "--database-url", schema.url, "--trust-root", root.path, "--quiet", export.path])
        #expect(load.status == 0, "\(load.stderr)")
        let out = directory.appendingPathComponent("report")
        let report = try ChurnCommand.run(["report", "--database-url", schema.url, "--out", out.path])
        #expect(report.status == 0, "\(report.stderr)")
        func read(_ name: String) throws -> String {
            try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
        }

        // recovery_by_cohort.csv, row by row.
        #expect(try Self.csvRows(read("recovery_by_cohort.csv"), keyColumns: 2) == Self.recoveryByCohort())

        // revenue.csv, row by row.
        // The counted columns; the expected ones are estimates from the curve (OpenEpisodesTableTests).
        #expect(try Self.csvRows(read("revenue.csv"), keyColumns: 1).mapValues { Array($0.prefix(7)) } == Self.revenue())

        // The headline: mature episodes only.
        let mature = Self.episodes.filter { $0.start + 61 <= Self.asOfDay }
        let recovered = mature.filter { $0.outcome == "recovered" }.count
        let expired = mature.filter { $0.outcome == "expired" }.count
        #expect((mature.count, recovered, expired) == (10, 5, 3), "the hand count")
        let headline = try #require(
            try JSONSerialization.jsonObject(with: Data(read("headline.json").utf8)) as? [String: Any])
        #expect(headline["mature"] as? [String: Int] == ["episodes": 10, "recovered": 5, "expired": 3])
        var all = ["episodes": Self.episodes.count]
        for episode in Self.episodes { all[episode.outcome, default: 0] += 1 }
        #expect(headline["all"] as? [String: Int] == all)
        #expect((headline["as_of"] as? NSNumber)?.int64Value == SignedStories.day(Self.asOfDay))
        let summary = try read("summary.md")
        let recoveredLine = "**Recovered: \(Self.percent(recovered, of: mature.count))** of mature episodes "
            + "(5 of 10; 95% interval \(Self.percentInterval(recovered, of: mature.count)))."
        let churnLine = "**Involuntary churn: \(Self.percent(expired, of: mature.count))** of mature episodes "
            + "(3 of 10; 95% interval \(Self.percentInterval(expired, of: mature.count)))."
        #expect(summary.contains(recoveredLine), "\(recoveredLine)")
        #expect(summary.contains(churnLine), "\(churnLine)")
        // The same, worked out on paper: 5 of 10 is 23.7%–76.3%, 3 of 10 is 10.8%–60.3%.
        #expect(recoveredLine.contains("50.0%** of mature episodes (5 of 10; 95% interval 23.7%–76.3%)"))
        #expect(churnLine.contains("30.0%** of mature episodes (3 of 10; 95% interval 10.8%–60.3%)"))
    }

    // MARK: - The figures, from the hand count

    /// recovery_by_cohort.csv (METRICS.md, "Recovery") as rows keyed by cohort and product.
    static func recoveryByCohort() -> [[String]: [String]] {
        var groups: [[String]: [Counted]] = [:]
        for episode in episodes {
            for cohort in [episode.cohort, "(all)"] {
                for product in [episode.product, "(all)"] {
                    groups[[cohort, product], default: []].append(episode)
                }
            }
        }
        return groups.mapValues { group in
            func count(_ outcome: String, in episodes: [Counted]) -> Int {
                episodes.filter { $0.outcome == outcome }.count
            }
            let ended = group.count - count("open", in: group)
            let mature = group.filter { $0.start + 61 <= asOfDay }
            let matureRecovered = count("recovered", in: mature)
            let interval = wilson(matureRecovered, of: mature.count)
            return [
                "\(group.count)", "\(count("recovered", in: group))", "\(count("expired", in: group))",
                "\(count("cancelled", in: group))", "\(count("other", in: group))", "\(count("open", in: group))",
                ended == 0 ? "" : decimal(Double(count("recovered", in: group)) / Double(ended)),
                "\(mature.count)", "\(matureRecovered)",
                mature.isEmpty ? "" : decimal(Double(matureRecovered) / Double(mature.count)),
                interval.map { decimal($0.low) } ?? "", interval.map { decimal($0.high) } ?? "",
            ]
        }
    }

    /// revenue.csv (METRICS.md, "Money and flows") as rows keyed by currency.
    static func revenue() -> [[String]: [String]] {
        var sums: [String: [Int64]] = [:]
        for episode in episodes {
            switch episode.outcome {
            case "recovered":
                guard let recovery = episode.recovery else { continue }
                var row = sums[recovery.currency, default: Array(repeating: 0, count: 7)]
                row[0] += 1
                row[1] += recovery.price
                if episode.isSavedInGrace { row[2] += recovery.price }
                sums[recovery.currency] = row
            case "expired", "open":
                var row = sums[episode.stake.currency, default: Array(repeating: 0, count: 7)]
                let offset = episode.outcome == "expired" ? 3 : 5
                row[offset] += 1
                row[offset + 1] += episode.stake.price
                sums[episode.stake.currency] = row
            default:
                break
            }
        }
        return Dictionary(
            uniqueKeysWithValues: sums.map { currency, row in
                let cells = [
                    "\(row[0])", money(row[1]), money(row[2]), "\(row[3])", money(row[4]), "\(row[5])", money(row[6]),
                ]
                return ([currency], cells)
            })
    }

    /// A CSV's data rows (no field holds a comma here), keyed by their first `keyColumns` fields.
    static func csvRows(_ text: String, keyColumns: Int) -> [[String]: [String]] {
        var rows: [[String]: [String]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            rows[Array(fields.prefix(keyColumns))] = Array(fields.dropFirst(keyColumns))
        }
        return rows
    }

    /// The 95% Wilson interval of METRICS.md, written out again.
    static func wilson(_ successes: Int, of trials: Int) -> (low: Double, high: Double)? {
        guard trials > 0 else { return nil }
        let z = 1.959963984540054
        let n = Double(trials)
        let p = Double(successes) / n
        let center = p + z * z / (2 * n)
        let spread = z * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        return ((center - spread) / (1 + z * z / n), (center + spread) / (1 + z * z / n))
    }

    static func decimal(_ value: Double) -> String {
        String(format: "%.6f", value)
    }

    /// Milliunits as currency units with three decimals.
    static func money(_ milliunits: Int64) -> String {
        "\(milliunits / 1000)." + String(format: "%03d", milliunits % 1000)
    }

    static func percent(_ count: Int, of total: Int) -> String {
        String(format: "%.1f%%", 100 * Double(count) / Double(total))
    }

    static func percentInterval(_ count: Int, of total: Int) -> String {
        guard let interval = wilson(count, of: total) else { return "n/a" }
        return String(format: "%.1f%%–%.1f%%", 100 * interval.low, 100 * interval.high)
    }
}
