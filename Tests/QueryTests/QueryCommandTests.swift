import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// `churn query` as a user runs it: the built executable against the fixture's schema.
@Suite struct QueryCommandTests {
    /// `query returns --bundle-id` reaches the workflow (whose answers `QueryWorkflowTests` checks in process): the
    /// other app has no expiry, so its answer is the header alone, and a mistyped app exits 64.
    @Test func returnsTakeAnApp() async throws {
        let fixture = try await QueryFixture.shared()
        let other = try ChurnCommand.run(
            [
                "query", "returns", "--format", "csv", "--bundle-id", QueryFixture.otherApp, "--database-url",
                fixture.schema.url,
            ])
        #expect(other.status == 0 && other.stdout.split(separator: "\n").count == 1, "\(other.stdout)\(other.stderr)")
        let unknown = try ChurnCommand.run(
            ["query", "returns", "--bundle-id", "com.exmaple", "--database-url", fixture.schema.url])
        #expect(unknown.status == 64, "\(unknown.stderr)")
    }

    /// The questions about the whole environment answer with the report's file (its figures: `QueryWorkflowTests`)
    /// and take no episode filters: their figures are no selection.
    @Test func environmentQuestionsTakeNoEpisodeFilters() async throws {
        let fixture = try await QueryFixture.shared()
        for (question, file) in [
            ("billing-failures", BillingFailures.fileName), ("data-quality", DataQuality.fileName),
        ] {
            let answer = try ChurnCommand.run([
                "query", question, "--format", "csv", "--database-url", fixture.schema.url,
            ])
            let report = try #require(ChurnReport(fixture.stored).tables.first { $0.name == file })
            #expect(answer.status == 0 && answer.stdout == CSVWriter.render(report), "\(question): \(answer.stderr)")
            let filtered = try ChurnCommand.run(
                ["query", question, "--product", "x", "--database-url", fixture.schema.url])
            #expect(filtered.status == 64, "\(question): \(filtered.stderr)")
        }
    }

    /// Two apps in one database: filtered and grouped by app; the episode list narrowed by outcome and to columns.
    @Test func appsOutcomesAndColumns() async throws {
        let fixture = try await QueryFixture.shared()
        func churn(_ arguments: [String]) throws -> ChurnCommand.Result {
            try ChurnCommand.run(["query"] + arguments + ["--database-url", fixture.schema.url])
        }
        let byApp = try churn(["recovery-rate", "--group-by", "app", "--format", "csv"])
        #expect(byApp.status == 0, "\(byApp.stderr)")
        let rows = byApp.stdout.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        #expect(rows.first?.first == "bundle_id")
        #expect(
            rows.dropFirst().map { $0.prefix(2).joined(separator: ",") } == [
                "com.example,7", "\(QueryFixture.otherApp),1", "(all),8",
            ])
        let other = try churn(["episodes", "--bundle-id", QueryFixture.otherApp, "--format", "csv"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout.split(separator: "\n").dropFirst().map { $0.prefix(2) } == ["G,"])
        let typo = try churn(["episodes", "--bundle-id", "com.example.Other"])
        #expect(typo.status == 64 && typo.stderr.contains("did you mean '\(QueryFixture.otherApp)'"), "\(typo.stderr)")

        let open = try churn([
            "episodes", "--outcome", "open", "--columns", "original_transaction_id,sequence,outcome", "--format", "csv",
        ])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.stdout == "original_transaction_id,sequence,outcome\nE,2,open\n")
        let ended = try churn([
            "episodes", "--outcome", "cancelled", "--outcome", "other", "--columns", "outcome", "--format", "csv",
        ])
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stdout.split(separator: "\n").dropFirst().sorted() == ["cancelled", "other"])
        let unknown = try churn(["episodes", "--columns", "start,outcome"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.contains("'start' is not a column of this answer; its columns are original_transaction_id"))
    }

    /// The list to work from: the report's open episodes, selected and ordered.
    @Test func openEpisodesAreTheReportsSelectedAndOrdered() async throws {
        let fixture = try await QueryFixture.shared()
        let report = ChurnReport(fixture.stored)
        #expect(!report.openEpisodes.isEmpty)
        let byStart = try ChurnCommand.run(
            ["query", "open-episodes", "--sort", "start", "--format", "csv", "--database-url", fixture.schema.url])
        #expect(byStart.status == 0, "\(byStart.stderr)")
        #expect(
            byStart.stdout == CSVWriter.render(try #require(report.tables.first { $0.name == OpenEpisodes.fileName })))

        // The default order: currency by currency, the largest expected amount first.
        let expected = try ChurnCommand.run(
            ["query", "open-episodes", "--format", "csv", "--database-url", fixture.schema.url])
        let rows = expected.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        #expect(rows.count == report.openEpisodes.count)
        let keys = rows.map { (String($0[9]), (Double($0[8]) ?? 0) * (Double($0[10]) ?? 0)) }
        for (earlier, later) in zip(keys, keys.dropFirst()) {
            #expect(earlier.0 < later.0 || (earlier.0 == later.0 && earlier.1 >= later.1), "\(earlier) before \(later)")
        }

        // Filters: a minimum chance above every chance leaves the header alone; a bad one is refused.
        let none = try ChurnCommand.run(
            ["query", "open-episodes", "--min-chance", "1", "--format", "csv", "--database-url", fixture.schema.url])
        #expect(none.status == 0 && none.stdout == OpenEpisodes.columns.joined(separator: ",") + "\n", "\(none.stdout)")
        let wrong = try ChurnCommand.run([
            "query", "open-episodes", "--min-chance", "2", "--database-url", fixture.schema.url,
        ])
        #expect(wrong.status == 64 && wrong.stderr.contains("--min-chance must lie between 0 and 1"))
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

    /// `query episodes --format json` types every value: booleans, numbers, `null` for what an episode does not
    /// have, the offer's name beside its code.
    @Test func episodesInJSONAreTypedAsJSONMeansThem() async throws {
        let fixture = try await QueryFixture.shared()
        let result = try ChurnCommand.run(
            ["query", "episodes", "--format", "json", "--database-url", fixture.schema.url])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try JSONValue.objects(result.stdout)
        #expect(objects.count == 8)
        func episode(_ subscription: String, _ sequence: Int = 1) throws -> [String: JSONValue] {
            try #require(
                objects.first {
                    $0["original_transaction_id"] == .string(subscription)
                        && $0["sequence"] == .number(Double(sequence))
                })
        }
        // F: saved in grace after a free trial with an introductory offer, paid in EUR.
        let saved = try episode("F")
        #expect(saved["has_grace"] == .boolean(true))
        #expect(saved["grace_days"] == .number(16))
        #expect(saved["saved_in_grace"] == .boolean(true))
        #expect(saved["trial_conversion"] == .boolean(true))
        #expect(saved["end_inferred"] == .boolean(false))
        #expect(saved["offer_type"] == .number(1))
        #expect(saved["offer_type_name"] == .string("INTRODUCTORY_OFFER"))
        #expect(saved["recovery_amount"] == .number(4.99))
        #expect(saved["recovery_currency"] == .string("EUR"))
        // B: expired, no grace, no offer, nothing recovered: nulls, not "none" or "".
        let expired = try episode("B")
        #expect(expired["has_grace"] == .boolean(false))
        #expect(expired["grace_days"] == .null)
        #expect(expired["grace_end"] == .null)
        #expect(expired["offer_type"] == .null)
        #expect(expired["offer_type_name"] == .null)
        #expect(expired["recovered_by"] == .null)
        #expect(expired["recovery_amount"] == .null)
        #expect(expired["recovery_currency"] == .null)
        #expect(expired["mature"] == .boolean(true))
        // G: an offer code.
        #expect(try episode("G")["offer_type_name"] == .string("OFFER_CODE"))
        // E2: still open.
        let open = try episode("E", 2)
        #expect(open["end_at"] == .null)
        #expect(open["outcome"] == .string("open"))
        #expect(open["duration_days"] == .number(48))
        let booleans = [
            "end_inferred", "mature", "has_grace", "grace_end_inferred", "saved_in_grace", "trial_conversion",
        ]
        for object in objects {
            for column in booleans {
                guard case .boolean = object[column] else {
                    Issue.record("\(column) is \(String(describing: object[column]))")
                    continue
                }
            }
        }
        // The aligned table and CSV show the same values as words.
        let csv = try ChurnCommand.run(
            [
                "query", "episodes", "--product", QueryFixture.yearly, "--format", "csv", "--database-url",
                fixture.schema.url,
            ]
        )
        #expect(csv.status == 0, "\(csv.stderr)")
        let table = CSVTable(csv.stdout)
        #expect(table.header.count == EpisodeList.columns.count)
        let offerCode = try #require(table.rows.first { table.value("original_transaction_id", in: $0) == "G" })
        #expect(table.value("offer_type", in: offerCode) == "3")
        #expect(table.value("offer_type_name", in: offerCode) == "OFFER_CODE")
        #expect(table.value("mature", in: offerCode) == "false", "day 10 is not 61 days before day 70")
        #expect(table.value("grace_days", in: offerCode) == "")
    }

    /// `--limit` with `--group-by` holds for each group, and the grouped list shows each column once.
    @Test func episodesGroupedShowEachColumnOnceAndTheLimitOfEachGroup() async throws {
        let fixture = try await QueryFixture.shared()
        let grouped = try ChurnCommand.run(
            [
                "query", "episodes", "--group-by", "product", "--limit", "2", "--format", "csv", "--database-url",
                fixture.schema.url,
            ]
        )
        #expect(grouped.status == 0, "\(grouped.stderr)")
        let table = CSVTable(grouped.stdout)
        #expect(table.header == EpisodeList.columns)
        #expect(table.header.filter { $0 == "product_id" }.count == 1)
        #expect(
            table.rows.map { "\($0[0])\($0[1]) \($0[2])" } == [
                "E1 com.example.monthly", "A1 com.example.monthly", "G1 com.example.yearly", "C1 com.example.yearly",
            ])
        // Without --group-by the limit caps the whole list: the two oldest episodes.
        let ungrouped = try ChurnCommand.run(
            ["query", "episodes", "--limit", "2", "--format", "csv", "--database-url", fixture.schema.url])
        #expect(CSVTable(ungrouped.stdout).rows.map { "\($0[0])\($0[1])" } == ["E1", "A1"])
        // The repeat episodes by product: E2 only, listed once.
        let repeats = try ChurnCommand.run(
            [
                "query", "episodes", "--repeat-episode", "--group-by", "product", "--limit", "20", "--database-url",
                fixture.schema.url,
            ]
        )
        #expect(repeats.status == 0, "\(repeats.stderr)")
        let shown = try RenderedTable.cells(repeats.stdout, format: .table)
        #expect(shown.first == EpisodeList.columns)
        #expect(shown.dropFirst().map { Array($0.prefix(3)) } == [["E", "2", "com.example.monthly"]])
        let help = try ChurnCommand.run(["query", "episodes", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("--limit applies to each group"))
        #expect(words.contains("Show at most this many episodes (of each group with --group-by)."))
    }

    /// In GBR the monthly product's only grace period lasts 28 days, but the product's length over every episode is
    /// 16 (A's and F's against E2's 28): `current` follows the length that dated the grace periods, not the
    /// filtered episodes, so the app's 16-day settings fit (no free trial in scope: both renewal types). Mature as of
    /// day 70 (t0 ≤ day 9) in GBR: E1 only, recovered by retry after 1 day, so in grace under every setting but off,
    /// with 1 paid day. The fixture's prices at stake are unknown: no amounts. Built afresh as of day 69 (an earlier
    /// time than the latest data) the figures are the same.
    @Test func graceWhatIfTakesTheLengthsOfEveryEpisode() async throws {
        let fixture = try await QueryFixture.shared()
        let header = GraceWhatIf.columns.joined(separator: ",")
        var lines = [header]
        for (setting, type, days) in [
            ("off", "", 0), ("3", "all_renewals", 3), ("3", "paid_to_paid_only", 3), ("16", "all_renewals", 16),
            ("16", "paid_to_paid_only", 16), ("28", "all_renewals", 28), ("28", "paid_to_paid_only", 28),
        ] {
            let current = setting == "16"
            let kept = days == 0 ? "0,0.000000,0.000000,0.000000,0.000000" : "1,1.000000,0.000000,1.000000,0.000000"
            lines.append("com.example,\(setting),\(type),\(QueryFixture.monthly),\(days),\(current),1,\(kept),,")
            lines.append("com.example,\(setting),\(type),(all),,\(current),1,\(kept),,")
        }
        let expected = lines.joined(separator: "\n") + "\n"
        for asOf in [[], ["--as-of", String(QueryFixture.day(69))]] {
            let result = try ChurnCommand.run(
                [
                    "query", "grace-whatif", "--storefront", "GBR", "--product", QueryFixture.monthly, "--format",
                    "csv", "--database-url", fixture.schema.url,
                ] + asOf)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == expected, "\(asOf)")
        }
        let json = try ChurnCommand.run(
            [
                "query", "grace-whatif", "--storefront", "GBR", "--product", QueryFixture.monthly, "--format", "json",
                "--database-url", fixture.schema.url,
            ])
        #expect(json.status == 0, "\(json.stderr)")
        let objects = try JSONValue.objects(json.stdout)
        #expect(objects.count == 14)
        #expect(objects.map { $0["current"] } == (0..<14).map { .boolean((6..<10).contains($0)) })
        #expect(
            objects.map { $0["product_id"] } == (0..<14).map { $0 % 2 == 0 ? .string(QueryFixture.monthly) : .null })
        #expect(objects.allSatisfy { $0["paid_amount_kept"] == .null })
        // The yearly product has no mature episode in GBR: no rows.
        let yearly = try ChurnCommand.run(
            [
                "query", "grace-whatif", "--storefront", "GBR", "--product", QueryFixture.yearly, "--format", "csv",
                "--database-url", fixture.schema.url,
            ])
        #expect(yearly.stdout == header + "\n")
        let help = try ChurnCommand.run(["query", "--help"])
        #expect(help.stdout.contains("grace-whatif"))
    }

    @Test func anInjectionAttemptIsAValueNoEpisodeHas() async throws {
        let fixture = try await QueryFixture.shared()
        let evil = "x'; DROP TABLE notifications; --"
        let episodes = try ChurnCommand.run(
            ["query", "episodes", "--product", evil, "--format", "json", "--database-url", fixture.schema.url]
        )
        // A value no episode has: refused with what the episodes have (64), as any typo is.
        #expect(episodes.status == 64, "\(episodes.stderr)")
        #expect(episodes.stdout.isEmpty)
        #expect(episodes.stderr.contains("--product '\(evil)' matches no episode of Production"), "\(episodes.stderr)")
        let rate = try ChurnCommand.run(
            ["query", "recovery-rate", "--storefront", evil, "--format", "csv", "--database-url", fixture.schema.url]
        )
        #expect(rate.status == 64, "\(rate.stderr)")
        #expect(rate.stderr.contains("--storefront '\(evil)' matches no episode"), "\(rate.stderr)")
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
