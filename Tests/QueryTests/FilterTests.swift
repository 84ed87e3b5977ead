import Analysis
import AnalysisStore
import Foundation
import PGClient
import Reports
import TestSupport
import Testing

/// Each filter narrows the episodes as it says, in SQL and in memory alike; values are only ever values.
@Suite struct FilterTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var filter: EpisodeFilter
        /// Subscription and sequence of the episodes selected, such as `E2`.
        var expected: Set<String>

        var testDescription: String { name }
    }

    static let all: Set<String> = ["A1", "B1", "C1", "D1", "E1", "E2", "F1", "G1"]

    static let cases: [Case] = [
        Case(name: "none", filter: EpisodeFilter(), expected: all),
        Case(name: "product", filter: EpisodeFilter(productIds: [QueryFixture.yearly]), expected: ["C1", "D1", "G1"]),
        Case(
            name: "two products", filter: EpisodeFilter(productIds: [QueryFixture.yearly, QueryFixture.monthly]),
            expected: all
        ),
        Case(name: "missing product", filter: EpisodeFilter(productIds: [""]), expected: []),
        Case(name: "app", filter: EpisodeFilter(bundleIds: [QueryFixture.otherApp]), expected: ["G1"]),
        Case(
            name: "the other app", filter: EpisodeFilter(bundleIds: ["com.example"]), expected: all.subtracting(["G1"])),
        Case(name: "storefront", filter: EpisodeFilter(storefronts: ["GBR"]), expected: ["C1", "D1", "E1", "E2"]),
        Case(
            name: "from a month", filter: EpisodeFilter(startFrom: span("2023-12")?.lowerBound),
            expected: ["C1", "D1", "E2", "F1"]
        ),
        Case(
            name: "to a month", filter: EpisodeFilter(startBefore: span("2023-11")?.upperBound),
            expected: ["A1", "B1", "E1", "G1"]
        ),
        Case(
            name: "from a day to a day",
            filter: EpisodeFilter(
                startFrom: span("2023-11-24")?.lowerBound, startBefore: span("2023-12-05")?.upperBound),
            expected: ["G1", "C1", "F1"]
        ),
        Case(
            name: "to an ISO week", filter: EpisodeFilter(startBefore: span("2023-W46")?.upperBound),
            expected: ["A1", "B1", "E1"]
        ),
        Case(name: "trial conversions", filter: EpisodeFilter(isTrialConversion: true), expected: ["C1", "F1"]),
        Case(
            name: "paid renewals", filter: EpisodeFilter(isTrialConversion: false),
            expected: ["A1", "B1", "D1", "E1", "E2", "G1"]
        ),
        Case(name: "first episodes", filter: EpisodeFilter(isFirstEpisode: true), expected: all.subtracting(["E2"])),
        Case(name: "repeat episodes", filter: EpisodeFilter(isFirstEpisode: false), expected: ["E2"]),
        Case(
            name: "combined",
            filter: EpisodeFilter(productIds: [QueryFixture.monthly], storefronts: ["USA"], isTrialConversion: false),
            expected: ["A1", "B1"]
        ),
    ]

    static func span(_ text: String) -> Range<Int64>? {
        CalendarPeriod.span(named: text)
    }

    private static func names(_ episodes: [Episode]) -> Set<String> {
        Set(episodes.map { "\($0.subscription)\($0.sequence)" })
    }

    @Test(arguments: cases)
    func narrowsInSQLAndInMemoryAlike(_ testCase: Case) async throws {
        let fixture = try await QueryFixture.shared()
        let connection = try fixture.schema.connect()
        let query = EpisodeQuery(environment: "Production", filter: testCase.filter)
        let selected = try query.storedEpisodes(connection)
        #expect(Self.names(selected) == testCase.expected)
        #expect(selected == fixture.stored.episodes.filter(testCase.filter.matches), "same episodes, same order")
        // The figures of the selection are the report's analyzers over exactly these episodes.
        #expect(
            EpisodeQuestion(.recoveryRate).table(episodes: selected, asOf: fixture.asOf).rows.last?.first
                == .integer(testCase.expected.count)
        )
    }

    @Test func anotherEnvironmentHasItsOwnEpisodes() async throws {
        let fixture = try await QueryFixture.shared()
        let connection = try fixture.schema.connect()
        let sandbox = try EpisodeQuery(environment: "Sandbox").storedEpisodes(connection)
        #expect(sandbox.map(\.subscription) == ["S"])
        #expect(sandbox.first?.outcome == .open)
    }

    @Test func anEarlierAsOfBuildsAfreshAndFiltersInMemory() async throws {
        let fixture = try await QueryFixture.shared()
        let connection = try fixture.schema.connect()
        let reader = try fixture.schema.connect()
        let asOf = QueryFixture.day(26)
        let filter = EpisodeFilter(productIds: [QueryFixture.yearly])
        let dataset = try #require(
            try EpisodeQuery(environment: "Production", filter: filter)
                .dataset(asOf: asOf, connection: connection, reader: reader)
        )
        #expect(dataset.asOf == asOf)
        let built = try StoredDataset(connection: connection).build(
            environment: "Production", asOf: asOf, reader: reader)
        #expect(dataset.episodes == built.episodes.filter(filter.matches))
        // On day 26, C (recovered on day 30) and D (cancelled on day 27) are still open.
        #expect(
            dataset.episodes.map { "\($0.subscription):\($0.outcome.rawValue)" } == ["C:open", "D:open", "G:other"])

        // A later as-of reads the stored episodes and censors open ones there.
        let later = try #require(
            try EpisodeQuery(environment: "Production", filter: EpisodeFilter(isFirstEpisode: false))
                .dataset(asOf: QueryFixture.day(80), connection: connection, reader: reader)
        )
        #expect(later.asOf == QueryFixture.day(80))
        #expect(later.episodes.map { $0.duration(asOf: later.asOf) } == [58 * 86_400_000])
    }

    @Test func aValueFullOfQuotesAndSemicolonsIsJustAValue() async throws {
        let fixture = try await QueryFixture.shared()
        let connection = try fixture.schema.connect()
        let evil = "x'; DROP TABLE notifications; --"
        let queries = [
            EpisodeQuery(environment: "Production", filter: EpisodeFilter(productIds: [evil])),
            EpisodeQuery(environment: "Production", filter: EpisodeFilter(storefronts: [evil, "GBR\"; --"])),
            EpisodeQuery(environment: evil),
        ]
        for query in queries {
            #expect(!query.statement.sql.contains("DROP"))
            #expect(query.statement.parameters.map { $0.parameterText }.contains(evil))
            #expect(try query.storedEpisodes(connection).isEmpty)
        }
        #expect(try QueryFixture.count("notifications", connection) == fixture.notificationCount)
        #expect(try QueryFixture.count("billing_episodes", connection) == 9)
    }

    @Test func everyValueIsBound() throws {
        let filter = EpisodeFilter(
            bundleIds: ["b1"], productIds: ["p1", "p2"], storefronts: ["USA"], startFrom: QueryFixture.day(1),
            startBefore: QueryFixture.day(9),
            isTrialConversion: true, isFirstEpisode: false
        )
        let statement = EpisodeQuery(environment: "Production", filter: filter).statement
        #expect(
            statement.parameters.map { $0.parameterText } == [
                "Production", "b1", "p1", "p2", "USA", "2023-11-15 22:13:20.000+00", "2023-11-23 22:13:20.000+00",
                "true",
            ]
        )
        for value in ["b1", "p1", "p2", "USA", "Production", "2023"] { #expect(!statement.sql.contains(value)) }
        // Each value goes with its type: the boolean as a boolean, the times as instants; the SQL casts none.
        #expect(statement.sql.contains("trial_conversion = $8"))
        #expect(
            statement.parameters.map(\.parameterTypeOID)[5...] == [
                PGType.timestamptz.oid, PGType.timestamptz.oid, PGType.boolean.oid,
            ])
        #expect(statement.sql.firstMatch(of: /\$[0-9]+::/) == nil)
    }
}
