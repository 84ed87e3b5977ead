import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// `churn query` as a user runs it: the built executable against the fixture's schema.
@Suite struct QueryCommandTests {
    @Test func recoveryRateByCohortMonthPrintsTheReportsCohortRows() async throws {
        let fixture = try await QueryFixture.shared()
        let result = try ChurnCommand.run(
            [
                "query", "recovery-rate", "--group-by", "cohort-month", "--format", "csv", "--database-url",
                fixture.schema.url,
            ]
        )
        #expect(result.status == 0, "\(result.stderr)")
        let report = ChurnReport(fixture.stored).tables[0]
        let cohortRows = report.rows.filter { $0[1] == .text(ReportTable.total) }
            .map { ([$0[0]] + $0.dropFirst(2)).map(\.formatted).joined(separator: ",") }
        let header = (["cohort"] + report.columns.dropFirst(2)).joined(separator: ",")
        #expect(result.stdout == ([header] + cohortRows).joined(separator: "\n") + "\n")
    }

    @Test(arguments: [("retry-days", 5), ("revenue", 6), ("flows", 7)])
    func v2QuestionsPrintTheReportsFile(question: String, table: Int) async throws {
        let fixture = try await QueryFixture.shared()
        let result = try ChurnCommand.run(
            ["query", question, "--format", "csv", "--database-url", fixture.schema.url])
        #expect(result.status == 0, "\(result.stderr)")
        let report = ChurnReport(fixture.stored).tables[table]
        #expect(!report.rows.isEmpty)
        #expect(result.stdout == CSVWriter.render(report))
    }

    @Test func filtersAndTheAlignedTable() async throws {
        let fixture = try await QueryFixture.shared()
        let result = try ChurnCommand.run(
            [
                "query", "recovery-rate", "--group-by", "storefront", "--product", QueryFixture.monthly, "--from",
                "2023-11",
                "--to", "2023-W52", "--paid-renewal", "--database-url", fixture.schema.url,
            ]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                storefront  episodes  recovered  expired  cancelled  other  open  recovery_rate  mature_episodes  \
                mature_recovered  mature_recovery_rate  mature_recovery_rate_low  mature_recovery_rate_high
                ----------  --------  ---------  -------  ---------  -----  ----  -------------  ---------------  \
                ----------------  --------------------  ------------------------  -------------------------
                GBR                2          1        0          0      0     1       1.000000                1  \
                               1              1.000000                  0.206549                   1.000000
                USA                2          1        1          0      0     0       0.500000                2  \
                               1              0.500000                  0.094531                   0.905469
                (all)              4          2        1          0      0     1       0.666667                3  \
                               2              0.666667                  0.207660                   0.938508

                """
        )
    }

    @Test func anInjectionAttemptIsAValueThatMatchesNothing() async throws {
        let fixture = try await QueryFixture.shared()
        let evil = "x'; DROP TABLE notifications; --"
        let episodes = try ChurnCommand.run(
            ["query", "episodes", "--product", evil, "--format", "json", "--database-url", fixture.schema.url]
        )
        #expect(episodes.status == 0, "\(episodes.stderr)")
        #expect(episodes.stdout == "[]\n")
        let rate = try ChurnCommand.run(
            ["query", "recovery-rate", "--storefront", evil, "--format", "csv", "--database-url", fixture.schema.url]
        )
        #expect(
            rate.stdout == "episodes,recovered,expired,cancelled,other,open,recovery_rate,mature_episodes,"
                + "mature_recovered,mature_recovery_rate,mature_recovery_rate_low,mature_recovery_rate_high\n"
                + "0,0,0,0,0,0,,0,0,,,\n")
        let connection = try fixture.schema.connect()
        #expect(try QueryFixture.count("notifications", connection) == fixture.notificationCount)
        #expect(try QueryFixture.count("billing_episodes", connection) == 9)
    }

    @Test func badUsageGives64AndHelpTeachesWithExamples() throws {
        let badFrom = try ChurnCommand.run(["query", "recovery-rate", "--from", "2023-13"])
        #expect(badFrom.status == 64)
        #expect(badFrom.stderr.contains("--from 2023-13"))
        #expect(try ChurnCommand.run(["query", "recovery-rate", "--group-by", "colour"]).status == 64)
        #expect(
            try ChurnCommand.run(["query", "recovery-rate", "--group-by", "cohort-month,cohort-week"]).status == 64)
        #expect(try ChurnCommand.run(["query", "episodes", "--trial-conversion", "--paid-renewal"]).status == 64)
        let help = try ChurnCommand.run(["query", "--help"])
        #expect(help.status == 0)
        for subcommand in ["recovery-rate", "recovery-curve", "grace-saves", "message-bands", "episodes"] {
            #expect(help.stdout.contains("churn query \(subcommand)"))
        }
    }
}
