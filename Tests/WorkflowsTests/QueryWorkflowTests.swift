import Analysis
import EmbeddedPostgres
import Logging
import Reports
import TestSupport
import Testing
import Workflows

/// `churn query`'s answers, from the workflows called in process as the commands call them (``QueryWorkflow``,
/// ``EnvironmentTablesWorkflow``, ``ReturnsWorkflow``), rendered as the commands render them: each is the report's
/// table over the same episodes. `QueryCommandTests` keeps what needs the `churn` process: options, exit codes and
/// the aligned table.
@Suite struct QueryWorkflowTests {
    /// The fixture's database, as `--database-url` names it.
    static func target(_ fixture: QueryFixture) -> DatabaseTarget {
        .url(fixture.schema.url)
    }

    /// The answer to `kind`, as `churn query <kind> --format csv` prints it.
    static func csv(
        _ kind: EpisodeQuestion.Kind, grouping: [EpisodeGrouping] = [], filter: EpisodeFilter = EpisodeFilter(),
        fixture: QueryFixture
    ) throws -> String {
        let question = EpisodeQuestion(kind, grouping: grouping)
        let answer = try QueryWorkflow(target: target(fixture), logger: .test).run(
            QueryWorkflow.Inputs(environment: "Production", asOf: nil, filter: filter, question: question))
        #expect(answer.asOf == fixture.asOf)
        return TableRenderer.render(question.table(answer: answer.groups, asOf: answer.asOf, for: .csv), as: .csv)
    }

    @Test func recoveryRateByCohortMonthIsTheReportsCohortRows() async throws {
        let fixture = try await QueryFixture.shared()
        let report = ChurnReport(fixture.stored).tables[0]
        let cohortRows = report.rows.filter { $0[1] == .text(ReportTable.total) }
            .map { ([$0[0]] + $0.dropFirst(2)).map(\.formatted).joined(separator: ",") }
        let header = (["cohort"] + report.columns.dropFirst(2)).joined(separator: ",")
        #expect(
            try Self.csv(.recoveryRate, grouping: [.cohortMonth], fixture: fixture)
                == ([header] + cohortRows).joined(separator: "\n") + "\n")
    }

    @Test(arguments: [
        (EpisodeQuestion.Kind.retryDays, RetryDays.fileName), (.revenue, Revenue.fileName),
        (.graceWhatIf, GraceWhatIf.fileName), (.flows, Flows.fileName),
    ])
    func questionsAreTheReportsFile(kind: EpisodeQuestion.Kind, file: String) async throws {
        let fixture = try await QueryFixture.shared()
        let report = try #require(ChurnReport(fixture.stored).tables.first { $0.name == file })
        #expect(!report.rows.isEmpty)
        #expect(try Self.csv(kind, fixture: fixture) == CSVWriter.render(report))
    }

    @Test(arguments: [
        (EnvironmentTablesWorkflow.Table.billingFailures, BillingFailures.fileName),
        (.dataQuality, DataQuality.fileName),
    ])
    func environmentTablesAreTheReportsFile(table: EnvironmentTablesWorkflow.Table, file: String) async throws {
        let fixture = try await QueryFixture.shared()
        let report = try #require(ChurnReport(fixture.stored).tables.first { $0.name == file })
        let answer = try EnvironmentTablesWorkflow(target: Self.target(fixture), logger: .test).run(
            table, environment: "Production", asOf: nil)
        #expect(!report.rows.isEmpty)
        #expect(CSVWriter.render(answer.table) == CSVWriter.render(report))
    }

    /// Flows are asked of weeks: a week's answer is that week's row of the report, episodes that started in an
    /// earlier week included; from a week on, every later row.
    @Test func flowsForAWeekAreThatWeeksRowOfTheReport() async throws {
        let fixture = try await QueryFixture.shared()
        let report = try #require(ChurnReport(fixture.stored).tables.first { $0.name == Flows.fileName })
        let lines = CSVWriter.render(report).split(separator: "\n").map(String.init)
        // A week in which an episode that started in an earlier week left retry.
        let weeks = ChurnReport(fixture.stored).flows
        let index = try #require(
            weeks.indices.dropFirst().first { weeks[$0].expired + weeks[$0].recoveredAfterGrace > weeks[$0].entered })
        let week = weeks[index].week
        for before in [week.end, nil] {
            let shown = try Self.csv(
                .flows, filter: EpisodeFilter(startFrom: week.start, startBefore: before), fixture: fixture
            ).split(separator: "\n").map(String.init)
            #expect(shown.first == lines.first)
            #expect(shown.dropFirst().first == lines[index + 1])
            #expect(shown.count == (before == nil ? lines.count - index : 2))
        }
    }

    /// `query returns --bundle-id`: only the expiries of that app. B (com.example) is the fixture's one expiry; G, of
    /// the other app, ended otherwise, so its answer has no row. An app the environment does not have is refused,
    /// naming those it has.
    @Test func returnsOfOneApp() async throws {
        let fixture = try await QueryFixture.shared()
        let workflow = ReturnsWorkflow(target: Self.target(fixture), logger: .test)
        func expired(_ bundleIds: [String]) throws -> [String] {
            let answer = try workflow.run(
                ReturnsWorkflow.Inputs(
                    environment: "Production", asOf: nil, filter: EpisodeFilter(bundleIds: bundleIds)))
            let lines = CSVWriter.render(answer.table).split(separator: "\n").dropFirst()
            return lines.map { String($0.split(separator: ",", omittingEmptySubsequences: false)[1]) }
        }
        #expect(try expired([]).last == "1")
        #expect(try expired(["com.example"]).last == "1")
        #expect(try expired([QueryFixture.otherApp]).isEmpty)
        #expect {
            try expired(["com.exmaple"])
        } throws: { error in
            guard case WorkflowError.unknownFilterValue(let option, _, _, let known) = error else { return false }
            return option == "--bundle-id" && known == ["com.example", QueryFixture.otherApp]
        }
    }
}
