import Analysis
import Foundation
import TestSupport
import Testing

/// `churn query` as a user runs it: the built executable against the fixture's schema.
@Suite struct QueryCommandTests {
    @Test func recoveryRateByCohortMonthPrintsTheReportsCohortRows() throws {
        let fixture = try QueryFixture.shared()
        let result = try ChurnCommand.run(
            [
                "query", "recovery-rate", "--group-by", "cohort-month", "--format", "csv", "--database-url",
                fixture.schema.url,
            ]
        )
        #expect(result.status == 0, "\(result.stderr)")
        let report = ChurnReport.tables(fixture.stored)[0]
        // The answer's columns run through recovery_rate; the file's mature columns follow it.
        let figures = try #require(report.columns.firstIndex(of: "recovery_rate")) - 1
        let cohortRows = report.rows.filter { $0[1] == .text(ReportTable.total) }
            .map { ([$0[0]] + $0.dropFirst(2).prefix(figures)).map(\.formatted).joined(separator: ",") }
        #expect(
            result.stdout == (["cohort,episodes,recovered,expired,cancelled,other,open,recovery_rate"] + cohortRows)
                .joined(separator: "\n") + "\n")
    }

    @Test func filtersAndTheAlignedTable() throws {
        let fixture = try QueryFixture.shared()
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
                storefront  episodes  recovered  expired  cancelled  other  open  recovery_rate
                ----------  --------  ---------  -------  ---------  -----  ----  -------------
                GBR                2          1        0          0      0     1       1.000000
                USA                2          1        1          0      0     0       0.500000
                (all)              4          2        1          0      0     1       0.666667

                """
        )
    }

    @Test func anInjectionAttemptIsAValueThatMatchesNothing() throws {
        let fixture = try QueryFixture.shared()
        let evil = "x'; DROP TABLE notifications; --"
        let episodes = try ChurnCommand.run(
            ["query", "episodes", "--product", evil, "--format", "json", "--database-url", fixture.schema.url]
        )
        #expect(episodes.status == 0, "\(episodes.stderr)")
        #expect(episodes.stdout == "[]\n")
        let rate = try ChurnCommand.run(
            ["query", "recovery-rate", "--storefront", evil, "--format", "csv", "--database-url", fixture.schema.url]
        )
        #expect(rate.stdout == "episodes,recovered,expired,cancelled,other,open,recovery_rate\n0,0,0,0,0,0,\n")
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
