import Analysis
import Foundation
import PGClient
import Reports
import Store
import TestSupport
import Testing

/// The SQL views of `003_views.sql`, against hand-checked numbers and the report's CSV files.
@Suite struct ViewTests {
    @Test func recoveryByCohortHasTheHandCheckedNumbersAndTheReportsRows() async throws {
        let fixture = try await QueryFixture.shared()
        let connection = try fixture.schema.connect()
        let rows = try connection.execute(
            """
            SELECT cohort_month, product_id, episodes, recovered, expired, cancelled, other, open,
                   to_char(recovery_rate, 'FM0.000000')
            FROM recovery_by_cohort WHERE environment = $1
            """,
            ["Production"]
        ).rows.map { $0.map { $0 ?? "" }.joined(separator: ",") }
        #expect(
            rows == [
                "2023-11,com.example.monthly,3,2,1,0,0,0,0.666667",
                "2023-11,com.example.yearly,1,0,0,0,1,0,0.000000",
                "2023-11,(all),4,2,1,0,1,0,0.500000",
                "2023-12,com.example.monthly,2,1,0,0,0,1,1.000000",
                "2023-12,com.example.yearly,2,1,0,1,0,0,0.500000",
                "2023-12,(all),4,2,0,1,0,1,0.666667",
                "(all),com.example.monthly,5,3,1,0,0,1,0.750000",
                "(all),com.example.yearly,3,1,0,1,1,0,0.333333",
                "(all),(all),8,4,1,1,1,1,0.571429",
            ]
        )
        // Row for row the report's file, in every column the two share, numbers as the CSV writes them (from the
        // same doubles). (The report may have columns the view has not, or the reverse.)
        let report = CSVTable(CSVWriter.render(ChurnReport(fixture.stored).tables[0]))
        let view = try connection.execute(
            "SELECT cohort_month AS cohort, * FROM recovery_by_cohort WHERE environment = $1", ["Production"]
        )
        let shared = report.header.filter { view.columns.contains($0) }
        #expect(shared.count >= 9)
        #expect(report.rows.count == view.rows.count)
        for (reportRow, viewRow) in zip(report.rows, view.rows) {
            for column in shared {
                let value = view.columns.firstIndex(of: column).flatMap { viewRow[$0] }
                let formatted =
                    column.contains("rate")
                    ? value.flatMap(Double.init).map { ReportTable.Cell.decimal($0, places: 6).formatted } ?? ""
                    : value ?? ""
                #expect(formatted == report.value(column, in: reportRow), "\(column)")
            }
        }
        // The mature columns: as of day 70, episodes from day 9 on are not mature: A, B and E1 (monthly, November).
        let mature = try connection.execute(
            """
            SELECT cohort_month, product_id, mature_episodes, mature_recovered, mature_recovery_rate,
                   mature_recovery_rate_low, mature_recovery_rate_high
            FROM recovery_by_cohort WHERE environment = $1
            """,
            ["Production"]
        ).rows
        for row in mature {
            let (n, x) = (Int(row[2] ?? "") ?? -1, Int(row[3] ?? "") ?? -1)
            let isNovemberMonthly = row[0] != "2023-12" && row[1] != QueryFixture.yearly
            #expect((n, x) == (isNovemberMonthly ? (3, 2) : (0, 0)), "\(row)")
            let expected = ConfidenceInterval.wilson(successes: x, trials: n)
            #expect(row[4].flatMap(Double.init) == (n > 0 ? Double(x) / Double(n) : nil))
            for (value, bound) in [(row[5], expected?.low), (row[6], expected?.high)] {
                #expect(value.flatMap(Double.init).map { abs($0 - (bound ?? .nan)) < 1e-12 } ?? (bound == nil))
            }
        }
        #expect(ConfidenceInterval.wilson(successes: 2, trials: 3).map { ($0.low * 1e6).rounded() } == 207_660)
    }

    @Test func episodesHaveDurationsGraceLengthAndOrder() async throws {
        let fixture = try await QueryFixture.shared()
        let connection = try fixture.schema.connect()
        let rows = try connection.execute(
            """
            SELECT original_transaction_id || sequence, is_first_episode, outcome, duration_days::float8, grace_days,
                   recovery_amount, recovery_currency
            FROM episodes WHERE environment = $1 ORDER BY start_at
            """,
            ["Production"]
        ).rows.map { $0.map { $0 ?? "-" }.joined(separator: " ") }
        #expect(
            rows == [
                "E1 t recovered 1 - 2.990 USD",
                "A1 t recovered 3 16 2.990 USD",
                "B1 t expired 60 - - -",
                "G1 t other 2 - - -",
                "C1 t recovered 10 3 2.990 USD",
                "F1 t recovered 3 16 4.990 EUR",
                "E2 f open 48 28 - -",
                "D1 t cancelled 2 - - -",
            ]
        )
        // The view's grace length is the one `--group-by grace-length` uses.
        let graceDays = try connection.execute(
            "SELECT original_transaction_id || sequence, grace_days FROM episodes WHERE environment = $1",
            ["Production"]
        ).rows
        for row in graceDays {
            let episode = try #require(fixture.stored.episodes.first { "\($0.subscription)\($0.sequence)" == row[0] })
            #expect(row[1].flatMap { Int($0) } == episode.graceDays)
        }
    }

    @Test func dailyRecoveryMatchesTheCurvesCounts() async throws {
        let fixture = try await QueryFixture.shared()
        let connection = try fixture.schema.connect()
        let rows = try connection.execute(
            "SELECT day, at_risk, recovered_on_day, recovered_cumulative FROM daily_recovery WHERE environment = $1",
            ["Production"]
        ).rows.map { $0.map { Int($0 ?? "") ?? -1 } }
        #expect(rows.count == 60)
        let byDay = Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0) })
        #expect(byDay[1] == [1, 8, 1, 1])
        #expect(byDay[3] == [3, 7, 2, 3])
        #expect(byDay[4] == [4, 5, 0, 3])
        #expect(byDay[10] == [10, 3, 1, 4])
        #expect(byDay[60] == [60, 1, 0, 4])
        #expect(rows.map { $0[2] }.reduce(0, +) == 4)
        let curve = RecoveryCurve.points(episodes: fixture.stored.episodes, asOf: fixture.asOf)
        #expect(rows.map { [$0[0], $0[1], $0[3]] } == curve.map { [$0.day, $0.atRisk, $0.recovered] })
    }

    /// `recovered` means one thing: in `recovery_curve.csv` and `churn query recovery-curve` it is cumulative, and the
    /// view names its columns so that none reads as the other (`recovered_cumulative`, `recovered_on_day`).
    @Test func dailyRecoveryNamesTheCurvesFiguresAsTheReportAndQueryPrintThem() async throws {
        let fixture = try await QueryFixture.shared()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("curve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let report = try ChurnCommand.run(["report", "--out", out.path, "--database-url", fixture.schema.url])
        #expect(report.status == 0, "\(report.stderr)")
        let file = CSVTable(try String(contentsOf: out.appendingPathComponent("recovery_curve.csv"), encoding: .utf8))
        #expect(file.header == ["day", "at_risk", "recovered", "cif_recovery"])
        let query = try ChurnCommand.run(
            ["query", "recovery-curve", "--format", "csv", "--database-url", fixture.schema.url])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(CSVTable(query.stdout).rows == file.rows)

        let connection = try fixture.schema.connect()
        let view = try connection.execute(
            "SELECT * FROM daily_recovery WHERE environment = $1 ORDER BY day", ["Production"])
        #expect(view.columns == ["environment", "day", "at_risk", "recovered_on_day", "recovered_cumulative"])
        let rows = view.rows.map { $0.dropFirst().map { Int($0 ?? "") ?? -1 } }
        #expect(rows.count == 60)
        var previous = 0
        for (row, line) in zip(rows, file.rows) {
            let recovered = Int(file.value("recovered", in: line) ?? "")
            #expect(String(row[0]) == file.value("day", in: line))
            #expect(String(row[1]) == file.value("at_risk", in: line))
            #expect(row[3] == recovered, "recovered_cumulative is the file's recovered")
            #expect(row[2] == (recovered ?? 0) - previous, "recovered_on_day is the day's step of it")
            previous = recovered ?? 0
        }
        #expect(rows.map { $0[2] } != rows.map { $0[3] }, "the fixture tells the two apart")
        // No column of the view is called `recovered` any more: a query written for the daily count fails.
        #expect(throws: PGError.self) {
            try connection.execute("SELECT recovered FROM daily_recovery")
        }
    }

    @Test func theViewsAreReplacedNotDuplicatedWhenMigratingAgain() throws {
        // A schema of its own: replacing views locks them, which must not race the other tests' reads.
        let schema = try TestDatabase.makeSchema("views")
        let connection = try schema.migrated()
        // The migrations that define the views (004 replaced 003's) and rename daily_recovery's columns (006).
        for name in ["004_metrics_v2.sql", "006_daily_recovery_names.sql"] {
            let migration = try #require(Store.Migrator.all.first { $0.name == name })
            try connection.withTransaction { try connection.executeScript(migration.sql, name: migration.name) }
        }
        let views = try connection.execute(
            "SELECT table_name FROM information_schema.views WHERE table_schema = $1 ORDER BY 1", [schema.name]
        ).rows.compactMap { $0[0] }
        #expect(views == ["daily_recovery", "episodes", "recovery_by_cohort"])
        #expect(
            try connection.columns(of: "daily_recovery")
                == ["environment", "day", "at_risk", "recovered_on_day", "recovered_cumulative"])
    }
}

/// A CSV file the report wrote, read back (the fields these tests read hold no quotes or commas).
struct CSVTable {
    var header: [String]
    var rows: [[String]]

    init(_ text: String) {
        let lines = text.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        header = lines.first ?? []
        rows = Array(lines.dropFirst())
    }

    func value(_ column: String, in row: [String]) -> String? {
        header.firstIndex(of: column).map { row[$0] }
    }
}
