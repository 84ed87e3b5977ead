import Analysis
import AnalysisStore
import Foundation
import PGClient
import Reports
import TestSupport
import Testing

/// Every question, in every format, gives the report's figures for the same scope.
@Suite struct QuestionTests {
    /// One question and the report rows it must reproduce.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var question: EpisodeQuestion
        var granularity: CalendarPeriod.Granularity = .month
        /// The expected columns and rows, taken from the report's tables.
        var expected: @Sendable ([ReportTable]) -> (columns: [String], rows: [[ReportTable.Cell]])

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "recovery-rate by cohort-month", question: EpisodeQuestion(.recoveryRate, grouping: [.cohortMonth])
        ) {
            // The (cohort, (all)) rows, ending with ((all), (all)), without the product column.
            let table = $0[0]
            let rows = table.rows.filter { $0[1] == .text("(all)") }
            return (["cohort"] + table.columns.dropFirst(2), rows.map { [$0[0]] + $0.dropFirst(2) })
        },
        Case(
            name: "recovery-rate by cohort-week", question: EpisodeQuestion(.recoveryRate, grouping: [.cohortWeek]),
            granularity: .week
        ) {
            let table = $0[0]
            let rows = table.rows.filter { $0[1] == .text("(all)") }
            return (["cohort"] + table.columns.dropFirst(2), rows.map { [$0[0]] + $0.dropFirst(2) })
        },
        Case(
            name: "recovery-rate by cohort-month and product",
            question: EpisodeQuestion(.recoveryRate, grouping: [.cohortMonth, .product])
        ) {
            let table = $0[0]
            let rows = table.rows.filter {
                ($0[0] != .text("(all)") && $0[1] != .text("(all)")) || $0 == table.rows.last
            }
            return (table.columns, rows)
        },
        Case(name: "recovery-rate", question: EpisodeQuestion(.recoveryRate)) {
            let table = $0[0]
            return (Array(table.columns.dropFirst(2)), [Array((table.rows.last ?? []).dropFirst(2))])
        },
        Case(name: "recovery-curve", question: EpisodeQuestion(.recoveryCurve)) { ($0[1].columns, $0[1].rows) },
        Case(name: "grace-saves by cohort-month", question: EpisodeQuestion(.graceSaves, grouping: [.cohortMonth])) {
            ($0[2].columns, $0[2].rows)
        },
        Case(name: "grace-saves", question: EpisodeQuestion(.graceSaves)) {
            (Array($0[2].columns.dropFirst()), [Array(($0[2].rows.last ?? []).dropFirst())])
        },
        Case(name: "grace-saves --revenue", question: EpisodeQuestion(.graceRevenue)) { ($0[3].columns, $0[3].rows) },
        Case(name: "message-bands", question: EpisodeQuestion(.messageBands)) { ($0[4].columns, $0[4].rows) },
        Case(name: "retry-days", question: EpisodeQuestion(.retryDays)) { ($0[5].columns, $0[5].rows) },
        Case(name: "revenue", question: EpisodeQuestion(.revenue)) { ($0[6].columns, $0[6].rows) },
        Case(name: "grace-whatif", question: EpisodeQuestion(.graceWhatIf)) { ($0[9].columns, $0[9].rows) },
        Case(name: "flows", question: EpisodeQuestion(.flows)) { ($0[11].columns, $0[11].rows) },
        Case(
            name: "open-episodes --sort start",
            question: EpisodeQuestion(.openEpisodes, openEpisodes: OpenEpisodes.Selection(order: .start))
        ) { ($0[7].columns, $0[7].rows) },
    ]

    static let formats = TableRenderer.Format.allCases

    @Test(arguments: cases, formats)
    func answersEqualTheReport(_ testCase: Case, _ format: TableRenderer.Format) async throws {
        let fixture = try await QueryFixture.shared()
        let connection = try fixture.schema.connect()
        let reader = try fixture.schema.connect()
        let dataset = try #require(
            try EpisodeQuery(environment: "Production").dataset(asOf: nil, connection: connection, reader: reader)
        )
        #expect(dataset.asOf == fixture.asOf)
        #expect(dataset.episodes == fixture.stored.episodes)
        let report = ChurnReport(fixture.stored, options: ChurnReport.Options(granularity: testCase.granularity)).tables
        let expected = testCase.expected(report)
        let answer = testCase.question.table(episodes: dataset.episodes, asOf: dataset.asOf)
        #expect(answer.columns == expected.columns)
        #expect(answer.rows == expected.rows)
        #expect(!answer.rows.isEmpty)
        try RenderedTable.expect(answer, as: format, columns: expected.columns, rows: expected.rows)
    }

    /// Mature as of day 70: the three episodes that started by day 9 (2 recovered). Wilson for 2 of 3:
    /// (2/3 + z²/6 ∓ z·√(2/27 + z²/36)) / (1 + z²/3) = (1.30692 ∓ 0.83335) / 2.28049 = 0.207660 … 0.938508.
    @Test func theReportNumbersAreTheHandCheckedOnes() async throws {
        let fixture = try await QueryFixture.shared()
        let answer = EpisodeQuestion(.recoveryRate, grouping: [.cohortMonth])
            .table(episodes: fixture.stored.episodes, asOf: fixture.asOf)
        #expect(
            CSVWriter.render(answer) == """
                cohort,episodes,recovered,expired,cancelled,other,open,recovery_rate,mature_episodes,mature_recovered,mature_recovery_rate,mature_recovery_rate_low,mature_recovery_rate_high
                2023-11,4,2,1,0,1,0,0.500000,3,2,0.666667,0.207660,0.938508
                2023-12,4,2,0,1,0,1,0.666667,0,0,,,
                (all),8,4,1,1,1,1,0.571429,3,2,0.666667,0.207660,0.938508

                """
        )
    }

    @Test func groupsByGraceLengthStorefrontAndOfferType() async throws {
        let fixture = try await QueryFixture.shared()
        let episodes = fixture.stored.episodes
        let byGrace = EpisodeQuestion(.recoveryRate, grouping: [.graceLength]).table(
            episodes: episodes, asOf: fixture.asOf)
        #expect(
            CSVWriter.render(byGrace) == """
                grace_days,episodes,recovered,expired,cancelled,other,open,recovery_rate,mature_episodes,mature_recovered,mature_recovery_rate,mature_recovery_rate_low,mature_recovery_rate_high
                none,4,1,1,1,1,0,0.250000,2,1,0.500000,0.094531,0.905469
                3,1,1,0,0,0,0,1.000000,0,0,,,
                16,2,2,0,0,0,0,1.000000,1,1,1.000000,0.206549,1.000000
                28,1,0,0,0,0,1,,0,0,,,
                (all),8,4,1,1,1,1,0.571429,3,2,0.666667,0.207660,0.938508

                """
        )
        let byStorefront = EpisodeQuestion(.recoveryRate, grouping: [.storefront, .offerType])
            .table(episodes: episodes, asOf: fixture.asOf)
        #expect(
            CSVWriter.render(byStorefront) == """
                storefront,offer_type,offer_type_name,episodes,recovered,expired,cancelled,other,open,recovery_rate,mature_episodes,mature_recovered,mature_recovery_rate,mature_recovery_rate_low,mature_recovery_rate_high
                GBR,none,,3,1,0,1,0,1,0.500000,1,1,1.000000,0.206549,1.000000
                GBR,1,INTRODUCTORY_OFFER,1,1,0,0,0,0,1.000000,0,0,,,
                USA,none,,2,1,1,0,0,0,0.500000,2,1,0.500000,0.094531,0.905469
                USA,1,INTRODUCTORY_OFFER,1,1,0,0,0,0,1.000000,0,0,,,
                USA,3,OFFER_CODE,1,0,0,0,1,0,0.000000,0,0,,,
                (all),(all),(all),8,4,1,1,1,1,0.571429,3,2,0.666667,0.207660,0.938508

                """
        )
        // Grace saves count grace episodes only: the lengths without grace are left out.
        let graceByLength = EpisodeQuestion(.graceSaves, grouping: [.graceLength])
            .table(episodes: episodes, asOf: fixture.asOf)
        #expect(graceByLength.rows.map { $0[0] } == [.integer(3), .integer(16), .integer(28), .text("(all)")])
        #expect(graceByLength.rows[1][2] == .integer(2), "A and F are saved in grace")
        // Each group gets its own curve; the last 60 rows are the curve over every episode.
        let curves = EpisodeQuestion(.recoveryCurve, grouping: [.product]).table(episodes: episodes, asOf: fixture.asOf)
        #expect(curves.rows.count == 3 * 60)
        #expect(
            Array(curves.rows.suffix(60).map { Array($0.dropFirst()) })
                == RecoveryCurve.table(RecoveryCurve.points(episodes: episodes, asOf: fixture.asOf)).rows)
        let monthly = episodes.filter { $0.productId == QueryFixture.monthly }
        #expect(
            Array(curves.rows.prefix(60).map { Array($0.dropFirst()) })
                == RecoveryCurve.table(RecoveryCurve.points(episodes: monthly, asOf: fixture.asOf)).rows)
    }

    @Test(arguments: formats)
    func listsTheEpisodes(_ format: TableRenderer.Format) async throws {
        let fixture = try await QueryFixture.shared()
        let table = EpisodeQuestion(.episodes).table(episodes: fixture.stored.episodes, asOf: fixture.asOf)
        #expect(table.columns == EpisodeList.columns)
        #expect(
            table.rows.map { "\($0[0].formatted)\($0[1].formatted)" } == [
                "E1", "A1", "B1", "G1", "C1", "F1", "E2", "D1",
            ]
        )
        let repeatEpisode = try #require(table.rows.first { $0[0] == .text("E") && $0[1] == .integer(2) })
        let values = Dictionary(uniqueKeysWithValues: zip(table.columns, repeatEpisode.map(\.formatted)))
        #expect(values["outcome"] == "open")
        #expect(values["end_at"] == "")
        #expect(values["duration_days"] == "48.0000", "open: from day 22 to the as-of time on day 70")
        #expect(values["grace_days"] == "28")
        #expect(values["cohort_month"] == "2023-12")
        let saved = try #require(table.rows.first { $0[0] == .text("F") })
        let savedValues = Dictionary(uniqueKeysWithValues: zip(table.columns, saved.map(\.formatted)))
        #expect(savedValues["recovery_amount"] == "4.990")
        #expect(savedValues["recovery_currency"] == "EUR")
        #expect(savedValues["trial_conversion"] == "true")
        #expect(savedValues["saved_in_grace"] == "true")
        #expect(savedValues["offer_type"] == "1")
        try RenderedTable.expect(table, as: format, columns: table.columns, rows: table.rows)

        // Grouped, the list has the columns of the ungrouped one (product_id is one of them, once) and the limit
        // holds for each group: the first two of each product by start, monthly first.
        let limited = EpisodeQuestion(.episodes, grouping: [.product], limit: 2)
            .table(episodes: fixture.stored.episodes, asOf: fixture.asOf, for: format)
        #expect(limited.columns == EpisodeList.columns)
        #expect(limited.columns.filter { $0 == "product_id" }.count == 1)
        #expect(
            limited.rows.map { "\($0[0].formatted)\($0[1].formatted) \($0[2].formatted)" } == [
                "E1 com.example.monthly", "A1 com.example.monthly", "G1 com.example.yearly", "C1 com.example.yearly",
            ])
        try RenderedTable.expect(limited, as: format, columns: limited.columns, rows: limited.rows)
    }
}

/// JSON answers as a program reads them: one JSON type per column, `null` for whatever is empty, booleans as
/// booleans, and no word standing in for a number.
@Suite struct TypedAnswerTests {
    static let groupings: [[EpisodeGrouping]] = [
        [], [.offerType, .graceLength], [.product, .storefront, .cohortWeek],
    ]

    /// Every kind but `grace-change`, which takes no grouping and has no row without a change of the grace setting
    /// (its JSON answer is read in PlantedGraceChangeTests), and the message log's two, which take no grouping and
    /// need a log (``messageLogAnswersAreTyped()``).
    @Test(
        arguments: EpisodeQuestion.Kind.allCases.filter {
            $0 != .graceChange && $0 != .messageLog && $0 != .messageExperiment
        })
    func everyColumnHoldsOneJSONType(_ kind: EpisodeQuestion.Kind) async throws {
        let fixture = try await QueryFixture.shared()
        for grouping in Self.groupings {
            let table = EpisodeQuestion(kind, grouping: grouping)
                .table(episodes: fixture.stored.episodes, asOf: fixture.asOf, for: .json)
            let objects = try JSONValue.objects(TableRenderer.render(table, as: .json))
            #expect(!objects.isEmpty, "\(kind) \(grouping)")
            for object in objects {
                #expect(Set(object.keys) == Set(table.columns))
            }
            for column in table.columns {
                let types = Set(objects.compactMap { $0[column].map(Self.typeName) }).subtracting(["null"])
                #expect(types.count <= 1, "\(kind) \(grouping) \(column): \(types)")
                for object in objects {
                    if case .string(let text) = object[column] {
                        let words = ["", "true", "false", "none", "unknown", "(all)"]
                        #expect(!words.contains(text), "\(column): \(text)")
                    }
                }
            }
            if !grouping.isEmpty && !EpisodeQuestion(kind).isList {
                #expect(objects.last?[EpisodeQuestion.totalColumn] == .boolean(true), "\(kind) ends with the total")
                #expect(objects.dropLast().allSatisfy { $0[EpisodeQuestion.totalColumn] != nil })
            } else {
                #expect(objects.allSatisfy { $0[EpisodeQuestion.totalColumn] == nil })
            }
        }
    }

    /// `message-log` and `message-experiment` over a log of the fixture's first ten episodes (the sheet an hour after
    /// each t0, the arms `a` and `b` in turn, and an event a day before the first to open the log's span).
    @Test func messageLogAnswersAreTyped() async throws {
        let fixture = try await QueryFixture.shared()
        let logged = fixture.stored.episodes.sorted { $0.start < $1.start }.prefix(10)
        let first = try #require(logged.first)
        let events =
            [
                MessageEvent(
                    originalTransactionId: first.subscription, appAccountToken: nil, at: first.start - T.day,
                    action: .deferred)
            ]
            + logged.enumerated().map { index, episode in
                MessageEvent(
                    originalTransactionId: episode.subscription, appAccountToken: nil, at: episode.start + T.hour,
                    action: .shown, arm: index % 2 == 0 ? "a" : "b")
            }
        let apps = Dictionary(
            logged.map { ($0.subscription, $0.bundleId ?? "") }, uniquingKeysWith: { first, _ in first })
        var tally = MessageLog.Tally(log: MessageLog(events: events, apps: apps, sightings: []), asOf: fixture.asOf)
        for episode in fixture.stored.episodes { tally.add(episode) }
        for (kind, figures) in [
            (EpisodeQuestion.Kind.messageLog, EpisodeQuestion.Figures.messageLog(tally.shownDayRows)),
            (.messageExperiment, .messageExperiment(tally.experimentRows)),
        ] {
            let table = EpisodeQuestion(kind).table(
                answer: [EpisodeQuestion.Group(key: nil, figures: figures)], asOf: fixture.asOf, for: .json)
            let objects = try JSONValue.objects(TableRenderer.render(table, as: .json))
            #expect(!objects.isEmpty, "\(kind)")
            for column in table.columns {
                let types = Set(objects.compactMap { $0[column].map(Self.typeName) }).subtracting(["null"])
                #expect(types.count <= 1, "\(kind) \(column): \(types)")
            }
            if kind == .messageLog {
                // The row over days 1–60 has no band: null, as message-bands' pooled row.
                #expect(objects.last?["band"] == .null)
            }
        }
    }

    @Test func graceLengthAndOfferTypeAreTypedInJSONAndWordsInText() async throws {
        let fixture = try await QueryFixture.shared()
        func table(_ grouping: EpisodeGrouping, _ format: TableRenderer.Format) -> ReportTable {
            EpisodeQuestion(.recoveryRate, grouping: [grouping])
                .table(episodes: fixture.stored.episodes, asOf: fixture.asOf, for: format)
        }
        let byGrace = table(.graceLength, .json)
        #expect(Array(byGrace.columns.prefix(4)) == ["has_grace", "grace_days", "is_total", "episodes"])
        #expect(
            byGrace.rows.map { Array($0.prefix(4)) } == [
                [.boolean(false), .empty, .boolean(false), .integer(4)],
                [.boolean(true), .integer(3), .boolean(false), .integer(1)],
                [.boolean(true), .integer(16), .boolean(false), .integer(2)],
                [.boolean(true), .integer(28), .boolean(false), .integer(1)],
                [.empty, .empty, .boolean(true), .integer(8)],
            ])
        #expect(
            table(.graceLength, .csv).rows.map { $0[0].formatted } == ["none", "3", "16", "28", "(all)"])
        let byOffer = table(.offerType, .json)
        #expect(Array(byOffer.columns.prefix(3)) == ["offer_type", "offer_type_name", "is_total"])
        #expect(
            byOffer.rows.map { Array($0.prefix(4)) } == [
                [.empty, .empty, .boolean(false), .integer(5)],
                [.integer(1), .text("INTRODUCTORY_OFFER"), .boolean(false), .integer(2)],
                [.integer(3), .text("OFFER_CODE"), .boolean(false), .integer(1)],
                [.empty, .empty, .boolean(true), .integer(8)],
            ])
        // The pooled row of message-bands has no band number in JSON, and `(all)` in the file's layout.
        let bands = EpisodeQuestion(.messageBands)
            .table(episodes: fixture.stored.episodes, asOf: fixture.asOf, for: .json)
        #expect(bands.rows.last?.first == .empty)
        #expect(bands.rows.dropLast().allSatisfy { if case .integer = $0.first { true } else { false } })
        #expect(
            EpisodeQuestion(.messageBands).table(episodes: fixture.stored.episodes, asOf: fixture.asOf).rows.last?.first
                == .text("(all)"))
    }

    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .boolean: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
