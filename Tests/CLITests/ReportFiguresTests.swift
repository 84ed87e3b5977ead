import Foundation
import TestPKI
import TestSupport
import Testing

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
        /// The end, in days after ``SignedStories/dayZero``; nil while open.
        var end: Int64? = nil
        /// Recovered by a new purchase rather than by retry.
        var isNewPurchase = false
        /// The grace period's length in days, dated by the failure notice; nil without one.
        var graceDays: Int64? = nil
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
            recovery: (2990, "USD"), isSavedInGrace: true, end: 5, graceDays: 6),
        // Expired on day 63, day 60 of retry.
        Counted(subscription: "B", cohort: "2023-11", product: monthly, start: 3, outcome: "expired", end: 63),
        // Turned off renewal on day 9.
        Counted(
            subscription: "C", cohort: "2023-11", product: monthly, start: 5, outcome: "cancelled",
            stake: (4990, "EUR"), end: 9),
        // Recovered on day 20, after the grace period that ended on day 16.
        Counted(
            subscription: "D", cohort: "2023-11", product: monthly, start: 10, outcome: "recovered",
            recovery: (4990, "EUR"), stake: (4990, "EUR"), end: 20, graceDays: 6),
        // No EXPIRED ever came: expired on day 72 by inference.
        Counted(subscription: "E", cohort: "2023-11", product: monthly, start: 12, outcome: "expired", end: 72),
        // Refunded on day 25.
        Counted(subscription: "F", cohort: "2023-12", product: monthly, start: 20, outcome: "other", end: 25),
        // Bought again on day 30, at 3.99.
        Counted(
            subscription: "G", cohort: "2023-12", product: monthly, start: 22, outcome: "recovered",
            recovery: (3990, "USD"), end: 30, isNewPurchase: true),
        // The annual product, recovered the next day.
        Counted(
            subscription: "H", cohort: "2023-12", product: annual, start: 25, outcome: "recovered",
            recovery: (19990, "USD"), stake: (19990, "USD"), end: 26),
        // Expired on day 100.
        Counted(subscription: "I", cohort: "2023-12", product: monthly, start: 40, outcome: "expired", end: 100),
        // Recovered on day 61; mature since day 121.
        Counted(
            subscription: "J", cohort: "2024-01", product: monthly, start: 60, outcome: "recovered",
            recovery: (2990, "USD"), end: 61),
        // Still in retry, one day short of mature.
        Counted(subscription: "K", cohort: "2024-01", product: monthly, start: 70, outcome: "open"),
        // Recovered in pounds on day 76, not mature.
        Counted(
            subscription: "L", cohort: "2024-01", product: monthly, start: 75, outcome: "recovered",
            recovery: (2490, "GBP"), stake: (2490, "GBP"), end: 76),
        // Still in its grace period; the renewal would charge 3.49.
        Counted(
            subscription: "M", cohort: "2024-01", product: monthly, start: 78, outcome: "open", stake: (3490, "USD"),
            graceDays: 6),
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
        #expect(
            try Self.csvRows(read("revenue.csv"), keyColumns: 1).mapValues { Array($0.prefix(7)) } == Self.revenue())

        // grace_whatif.csv, row by row. On paper, the monthly product under the 16-day setting (16 days: no monthly
        // episode follows a free trial, so both renewal types read the same): of its nine mature episodes, retry
        // recovered A (3 days), D (10) and J (1) within 16 days, 14 paid days; B, E and I (60 days) had 16 free days,
        // G 8 (a new purchase: free), C 4 and F 5, 65 in all.
        // Its grace periods last 6 days, which no setting gives a monthly product, and the annual product's paid
        // renewal had none: no setting fits the data. The prices at stake are in two currencies: no amounts.
        let whatIf = try Self.csvRows(read("grace_whatif.csv"), keyColumns: 4)
        #expect(whatIf == Self.graceWhatIf())
        #expect(
            whatIf[["com.example", "16", "all_renewals", Self.monthly]]
                == ["16", "false", "9", "3", "14.000000", "65.000000", "1.555556", "7.222222", "", ""])
        #expect(!whatIf.values.contains { $0[1] == "true" })

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
        let recoveredLine =
            "**Retry recovers \(Self.percent(recovered, of: mature.count))** of failed renewals "
            + "(5 of 10 decided; 95% confidence interval \(Self.percentInterval(recovered, of: mature.count)))"
        let churnLine =
            "**\(Self.percent(expired, of: mature.count)) expire unpaid**, the involuntary churn "
            + "(3; \(Self.percentInterval(expired, of: mature.count)))"
        #expect(summary.contains(recoveredLine), "\(recoveredLine)")
        #expect(summary.contains(churnLine), "\(churnLine)")
        // The same, worked out on paper: 5 of 10 is 23.7%–76.3%, 3 of 10 is 10.8%–60.3%.
        #expect(
            recoveredLine.contains(
                "50.0%** of failed renewals (5 of 10 decided; 95% confidence interval 23.7%–76.3%)"))
        #expect(churnLine.contains("**30.0% expire unpaid**, the involuntary churn (3; 10.8%–60.3%)"))
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

    /// grace_whatif.csv (METRICS.md, "What another grace setting would have kept or given away") as rows keyed by
    /// app, setting, renewal type and product (`(all)` for the app's products together), amounts aside.
    static func graceWhatIf() -> [[String]: [String]] {
        var rows: [[String]: [String]] = [:]
        // No product here is weekly and no episode follows a free trial: a setting's length is its duration.
        let settings: [(name: String, type: String, days: Int64)] = [
            ("off", "", 0), ("3", "all_renewals", 3), ("3", "paid_to_paid_only", 3), ("16", "all_renewals", 16),
            ("16", "paid_to_paid_only", 16), ("28", "all_renewals", 28), ("28", "paid_to_paid_only", 28),
        ]
        let products = Set(episodes.map(\.product)).sorted()
        for setting in settings {
            var total = (mature: 0, inGrace: 0, paid: Int64(0), free: Int64(0))
            for product in products {
                let mature = episodes.filter { $0.product == product && $0.start + 61 <= asOfDay }
                guard !mature.isEmpty else { continue }
                var inGrace = 0
                var paid: Int64 = 0
                var free: Int64 = 0
                for episode in mature {
                    let duration = (episode.end ?? asOfDay) - episode.start
                    if setting.days > 0, episode.outcome == "recovered", !episode.isNewPurchase,
                        duration <= setting.days
                    {
                        inGrace += 1
                        paid += duration
                    } else {
                        free += min(duration, setting.days)
                    }
                }
                rows[["com.example", setting.name, setting.type, product]] = [
                    "\(setting.days)", "false", "\(mature.count)", "\(inGrace)", decimal(Double(paid)),
                    decimal(Double(free)), decimal(Double(paid) / Double(mature.count)),
                    decimal(Double(free) / Double(mature.count)), "", "",
                ]
                total = (total.mature + mature.count, total.inGrace + inGrace, total.paid + paid, total.free + free)
            }
            rows[["com.example", setting.name, setting.type, "(all)"]] = [
                "", "false", "\(total.mature)", "\(total.inGrace)", decimal(Double(total.paid)),
                decimal(Double(total.free)), decimal(Double(total.paid) / Double(total.mature)),
                decimal(Double(total.free) / Double(total.mature)), "", "",
            ]
        }
        return rows
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
