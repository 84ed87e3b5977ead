import Foundation
import TestPKI
import TestSupport
import Testing

/// `forecast_check.csv` as `churn report` writes it, for a small signed story whose chances are worked out by hand:
/// once as of the latest data (the stored episodes, and the episodes built as of 61 days earlier) and once as of an
/// earlier time (both passes built afresh).
@Suite struct ForecastCheckReportTests {
    /// The story, in days after ``SignedStories/dayZero``; each failure's `expiresDate` (t0) is its day.
    static func lines(_ stories: inout SignedStories) throws -> [String] {
        let fail = "DID_FAIL_TO_RENEW"
        let renew = "DID_RENEW"
        let recovery = "BILLING_RECOVERY"
        let expired = "EXPIRED"
        return [
            // P1 recovered after 10 days; P2 expired after 30; P3 recovered after 40; P4 expired after 60.
            try stories.line("P1", fail, at: 10, expires: 10),
            try stories.line("P1", renew, recovery, at: 20, expires: 50),
            try stories.line("P2", fail, at: 12, expires: 12),
            try stories.line("P2", expired, "BILLING_RETRY", at: 42),
            try stories.line("P3", fail, at: 15, expires: 15),
            try stories.line("P3", renew, recovery, at: 55, expires: 85),
            try stories.line("P4", fail, at: 20, expires: 20),
            try stories.line("P4", expired, "BILLING_RETRY", at: 80),
            // O2 recovered after 45 days, O1 after 36.
            try stories.line("O2", fail, at: 30, expires: 30),
            try stories.line("O2", renew, recovery, at: 75, expires: 105),
            try stories.line("O1", fail, at: 64, expires: 64),
            try stories.line("O1", renew, recovery, at: 100, expires: 130),
            // K starts after both check times; Z's renewal is the latest data.
            try stories.line("K", fail, at: 100, expires: 100),
            try stories.line("Z", renew, at: 140, expires: 170),
        ]
    }

    @Test func theCheckMatchesTheChancesWorkedByHand() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forecast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var stories = try SignedStories(name: "Forecast")
        let export = directory.appendingPathComponent("export.jsonl")
        try Data((try Self.lines(&stories).joined(separator: "\n") + "\n").utf8).write(to: export)
        let root = directory.appendingPathComponent("root.der")
        try Data(try stories.root.rootDER()).write(to: root)
        let schema = try TestDatabase.makeSchema("forecast")
        let load = try ChurnCommand.run(
            ["load", "--database-url", schema.url, "--trust-root", root.path, "--quiet", export.path])
        #expect(load.status == 0, "\(load.stderr)")
        func report(_ name: String, _ extra: [String] = []) throws -> (csv: [String], summary: String) {
            let out = directory.appendingPathComponent(name)
            let run = try ChurnCommand.run(["report", "--database-url", schema.url, "--out", out.path] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            let csv = try String(contentsOf: out.appendingPathComponent("forecast_check.csv"), encoding: .utf8)
            let summary = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
            return (csv.split(separator: "\n").map(String.init), summary)
        }
        let header =
            "chance_band,episodes,expected_recoveries,observed_recoveries,observed_share,observed_share_low,"
            + "observed_share_high,mean_chance"

        // As of day 140 (the latest data), B = day 79. Episodes then, by duration (days): P1 10 recovered, O1 15
        // open, P2 30 expired, P3 40 recovered, O2 45 recovered, P4 59 open. Aalen–Johansen:
        //   t = 10: n = 6, 1 recovered → CIF = 1/6,               S = 5/6
        //   t = 30: n = 4, 1 expired   → CIF = 1/6,               S = 5/6 · 3/4 = 5/8
        //   t = 40: n = 3, 1 recovered → CIF = 1/6 + 5/24 = 3/8,   S = 5/8 · 2/3 = 5/12
        //   t = 45: n = 2, 1 recovered → CIF = 3/8 + 5/24 = 7/12,  S = 5/24
        // O1 (u = 15): (7/12 − 1/6) / (5/6) = 0.5; P4 (u = 59): (7/12 − 7/12) / (5/24) = 0. By day 140 O1 recovered
        // on its day 36, P4 expired. Wilson: 0 of 1 → 0–0.793451, 1 of 1 → 0.206549–1, 1 of 2 → 0.094531–0.905469.
        let latest = try report("latest")
        #expect(
            latest.csv == [
                header,
                "0.0-0.1,1,0.000000,0,0.000000,0.000000,0.793451,0.000000",
                "0.5-0.6,1,0.500000,1,1.000000,0.206549,1.000000,0.500000",
                "(all),2,0.500000,1,0.500000,0.094531,0.905469,0.250000",
            ])
        // The same as of day 140 named: the episodes as of B built afresh rather than derived from those as of T.
        #expect(try report("latest-rebuilt", ["--as-of", Self.timestamp(140)]).csv == latest.csv)
        #expect(
            latest.summary.contains(
                "61 days ago (as of \(Self.minute(79))), 2 episodes were open; this method expected 0.5 of them to "
                    + "recover by day 60; 1 did (share 50.0%, 95% confidence interval 9.5%–90.5%)."))

        // As of day 130, B = day 69. Episodes then: O1 5 open, P1 10 recovered, P2 30 expired, O2 39 open, P3 40
        // recovered, P4 49 open:
        //   t = 10: n = 5, 1 recovered → CIF = 0.2, S = 0.8
        //   t = 30: n = 4, 1 expired   → CIF = 0.2, S = 0.6
        //   t = 40: n = 2, 1 recovered → CIF = 0.2 + 0.6 / 2 = 0.5, S = 0.3
        // O1 (u = 5): 0.5 / 1 = 0.5; O2 (u = 39): (0.5 − 0.2) / 0.6 = 0.5; P4 (u = 49): 0. O1 and O2 recovered by
        // day 60, P4 expired. Wilson: 2 of 2 → 0.342380–1, 2 of 3 → 0.207660–0.938508.
        let earlier = try report("earlier", ["--as-of", Self.timestamp(130)])
        #expect(
            earlier.csv == [
                header,
                "0.0-0.1,1,0.000000,0,0.000000,0.000000,0.793451,0.000000",
                "0.5-0.6,2,1.000000,2,1.000000,0.342380,1.000000,0.500000",
                "(all),3,1.000000,2,0.666667,0.207660,0.938508,0.333333",
            ])
    }

    /// A day of the story as the summary writes it: `2024-01-01 00:00 UTC`.
    static func minute(_ day: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(SignedStories.day(day)) / 1000))
    }

    /// A day of the story as `--as-of` takes it (ISO 8601).
    static func timestamp(_ day: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(SignedStories.day(day)) / 1000))
    }
}
