import Analysis
import AnalysisStore
import Foundation
import Ingest
import Logging
import PGClient
import Reports
import Simulator
import TestSupport
import Testing

/// Random simulated histories (``RandomHistory``) loaded file by file, each file followed by an incremental analysis
/// of both environments: after every file the stored episodes are those the episode builder makes of every
/// notification loaded so far, and after the last file a full rebuild changes no row.
///
/// A failure names the seed and the shape of its history; `swift test --filter RandomHistoryTests` runs them all, and
/// `RandomHistory(seed:)` makes the same files again.
@Suite struct RandomHistoryTests {
    @Test(arguments: [UInt64](1...8))
    func incrementalAnalysesFollowTheBuilderAndEqualAFullRebuild(seed: UInt64) async throws {
        let history = RandomHistory(seed: seed)
        let schema = try TestDatabase.makeSchema("random")
        let writer = try schema.migrated()
        let reader = try schema.connect()
        let analyzer = EpisodeAnalyzer(writer: writer, reader: reader, logger: .test)
        let store = StoredDataset(connection: writer)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("random-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var loaded: [NotificationEvent] = []
        for index in history.files.indices {
            let path = directory.appendingPathComponent("export-\(index).jsonl").path
            let lines = try history.lines(ofFile: index)
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
            let loads = history.reloaded.contains(index) ? 2 : 1
            for _ in 0..<loads {
                let options = LoadOptions(policy: AcceptancePolicy(verifier: nil), workers: 2, command: "test")
                let summary = try await Loader(connection: writer, options: options, logger: .test).load([path])
                #expect(summary.rejected == 0, "\(history), file \(index)")
            }
            loaded += history.files[index].map { NotificationEvent($0, bundleId: history.options.bundleID) }
            for environment in ["Production", "Sandbox"] {
                let analysis = try analyzer.analyze(environment: environment)
                #expect(analysis.filesAnalyzed == loads, "\(history), file \(index), \(environment)")
                try expectStoredEqualsBuilt(
                    store, writer, environment: environment, events: loaded,
                    "\(history), \(environment), after file \(index)"
                )
                try expectCustomersEqualAFullRelink(
                    writer, environment: environment, "\(history), \(environment), after file \(index)")
            }
        }

        let incremental = try storedRows(writer)
        for environment in ["Production", "Sandbox"] {
            try analyzer.analyze(environment: environment, full: true)
        }
        let full = try storedRows(writer)
        #expect(full.count == incremental.count, "\(history): rows after the full rebuild")
        let difference = zip(incremental, full).first { $0 != $1 }
        #expect(difference == nil, "\(history): incremental row \(difference?.0 ?? "") became \(difference?.1 ?? "")")

        // The history holds what it is meant to exercise.
        let latest = try #require(try store.latestSignedDate())
        let production = try store.stored(environment: "Production", asOf: latest)
        let quality = production.dataQuality
        #expect(history.lateDeliveries > 0 && history.resends > 0, "\(history)")
        #expect(production.episodes.count >= 20, "\(history)")
        #expect(quality.lateFailureNotice > 0 && quality.staleFailureNotice > 0, "\(history): \(quality)")
        #expect(quality.inferredExpiry > 0 && quality.duplicatesSkipped > 0, "\(history): \(quality)")
        #expect(quality.familySharedSkipped > 0 && quality.outsideEnvironment > 0, "\(history): \(quality)")
        let linked = try writer.execute("SELECT count(*) FROM subscription_customers").scalar
        #expect(Int(linked ?? "") ?? 0 > 0, "\(history): no subscriptions linked into customers")
        if history.options.grace != .none {
            #expect(quality.graceEndInferred + quality.graceEndUnknown > 0, "\(history): \(quality)")
        }

        // The `episodes` view closes a retry window by the latest notification as the rule in Swift does
        // (`Episode.closeRetryWindow(asOf:)`, `isMature(asOf:)`): the outcome, the end, whether it is inferred, and
        // maturity of every stored episode.
        for environment in ["Production", "Sandbox"] {
            try expectTheEpisodesViewFollowsTheRule(writer, environment: environment, latest: latest, "\(history)")
        }

        // Customers and their returns, as the store's SQL finds them, are those the rule in Swift states
        // (`CustomerRule`), at the latest data and as of earlier times.
        let first = try #require(loaded.map(\.signedDate).min())
        let asOfTimes = [latest] + [2, 4, 6].map { first + (latest - first) * Int64($0) / 8 }
        for environment in ["Production", "Sandbox"] {
            try expectCustomersFollowTheRule(
                store, writer, reader, environment: environment, events: loaded, asOfTimes: asOfTimes, "\(history)")
        }

        // As of earlier times, the episodes built afresh stream (`report --as-of`, `query --as-of`) as a fresh
        // build holds them: the same finished episodes (those with a grace period to date last) and the same counts.
        for eighth in [2, 4, 6, 8] {
            let asOf = first + (latest - first) * Int64(eighth) / 8
            for environment in ["Production", "Sandbox"] {
                let held = try store.build(environment: environment, asOf: asOf, reader: reader)
                var streamed: [Episode] = []
                var counts = try store.streamBuilt(environment: environment, asOf: asOf, reader: reader) {
                    streamed.append($0)
                }
                func key(_ episode: Episode) -> String { "\(episode.subscription)|\(episode.sequence)" }
                #expect(
                    streamed.sorted { key($0) < key($1) } == held.episodes.sorted { key($0) < key($1) },
                    "\(history), \(environment), as of \(asOf)"
                )
                counts.episodes = held.episodes
                #expect(counts == held, "\(history), \(environment), as of \(asOf): counts")
            }
        }
    }

    /// The stored dataset equals the builder's over `events`, and so do the stored rows (with the grace ends the
    /// analysis inferred in SQL) once the retry window of the as-of time is applied, and the report of the stored
    /// episodes streamed through its figures is the report of the builder's dataset, file for file: at the latest
    /// signedDate and 400 days later.
    private func expectStoredEqualsBuilt(
        _ store: StoredDataset, _ connection: PGConnection, environment: String, events: [NotificationEvent],
        _ context: String
    ) throws {
        guard let latest = try store.latestSignedDate() else {
            #expect(events.isEmpty, "\(context): nothing stored")
            return
        }
        let rows = try EpisodeQuery(environment: environment).storedEpisodes(connection)
        for asOf in [latest, latest + 400 * T.day] {
            let built = EpisodeBuilder(options: .init(environment: environment, asOf: asOf)).dataset(events)
            let stored = try store.stored(environment: environment, asOf: asOf)
            #expect(stored.dataQuality == built.dataQuality, "\(context), as of \(asOf)")
            #expect(stored.renewals == built.renewals, "\(context), as of \(asOf)")
            expectSameEpisodes(stored.episodes, built.episodes, "\(context), as of \(asOf), stored dataset")
            // The report of the stored episodes streamed through its figures is the report of the built dataset.
            let options = Report.Options(environment: environment)
            var tally = Report.Tally(asOf: asOf, options: options)
            let counts = try store.streamStored(environment: environment, asOf: asOf) { tally.add($0) }
            #expect(counts.episodes.isEmpty, "\(context), as of \(asOf)")
            let streamed = try Report(tally, dataQuality: counts.dataQuality, renewals: counts.renewals).files()
            let expected = try Report(dataset: built, options: options).files()
            #expect(streamed.map(\.name) == expected.map(\.name), "\(context), as of \(asOf)")
            for (file, expectedFile) in zip(streamed, expected) {
                #expect(file.contents == expectedFile.contents, "\(context), as of \(asOf), \(file.name)")
            }
            var closed = rows
            for index in closed.indices { closed[index].closeRetryWindow(asOf: asOf) }
            expectSameEpisodes(closed, built.episodes, "\(context), as of \(asOf), stored rows")
        }
    }

    /// Compares two episode lists and names the first difference rather than printing both lists.
    private func expectSameEpisodes(_ actual: [Episode], _ expected: [Episode], _ context: String) {
        #expect(actual.count == expected.count, "\(context): episode count")
        let difference = zip(actual, expected).first { $0 != $1 }
        #expect(
            difference == nil,
            "\(context): \(difference.map { "got \($0.0), expected \($0.1)" } ?? "")"
        )
    }

    /// Each row of the `episodes` view is the stored episode closed as of the latest notification by the Swift rule.
    private func expectTheEpisodesViewFollowsTheRule(
        _ connection: PGConnection, environment: String, latest: Int64, _ context: String
    ) throws {
        var expected: [String] = []
        for var episode in try EpisodeQuery(environment: environment).storedEpisodes(connection) {
            _ = episode.closeRetryWindow(asOf: latest)
            let end = episode.end.map(String.init) ?? "-"
            expected.append(
                "\(episode.subscription) \(episode.sequence) \(episode.outcome.rawValue) \(end) "
                    + "\(episode.endInferred) \(episode.isMature(asOf: latest))")
        }
        let rows = try connection.execute(
            """
            SELECT original_transaction_id || ' ' || sequence || ' ' || outcome || ' '
                   || coalesce(((extract(epoch FROM end_at) * 1000)::int8)::text, '-') || ' ' || end_inferred || ' '
                   || mature
            FROM episodes WHERE environment = $1
            """,
            [environment]
        ).rows.compactMap { $0[0] }
        let view = rows
        #expect(view.sorted() == expected.sorted(), "\(context), \(environment): the episodes view")
        if environment == "Production" {
            #expect(expected.contains { $0.contains(" expired ") }, "\(context): no expired episode in the view")
        }
    }

    /// The stored customers (at the latest data) and those linked as of each earlier time are
    /// ``CustomerRule/customers(_:asOf:)`` of the builder's facts, and every expired episode's return the report's
    /// query finds is ``CustomerRule/returnedAt(subscription:end:bundleId:asOf:facts:customers:members:)``.
    private func expectCustomersFollowTheRule(
        _ store: StoredDataset, _ connection: PGConnection, _ reader: PGConnection, environment: String,
        events: [NotificationEvent], asOfTimes: [Int64], _ context: String
    ) throws {
        let builder = EpisodeBuilder(options: .init(environment: environment, asOf: asOfTimes[0]))
        var facts: [String: CustomerFacts] = [:]
        for (subscription, events) in Dictionary(grouping: events, by: \.originalTransactionId) {
            guard let subscription else { continue }
            let built = builder.build(events)
            if built.customer.firstSigned != nil { facts[subscription] = built.customer }
        }
        func rows(_ customers: [String: String]) -> [String] {
            customers.map { "\($0.key)→\($0.value)" }.sorted()
        }
        let query = "SELECT original_transaction_id || '→' || customer_id FROM %@ ORDER BY 1"
        let stored = try connection.execute(
            query.replacingOccurrences(of: "%@", with: "subscription_customers WHERE environment = $1"), [environment]
        ).rows.compactMap { $0[0] }
        #expect(stored.sorted() == rows(CustomerRule.customers(facts)), "\(context), \(environment): stored customers")
        var compared = 0
        for asOf in asOfTimes {
            let latest = asOf == asOfTimes[0]
            let customers = CustomerRule.customers(facts, asOf: latest ? nil : asOf)
            if !latest {
                try CustomerLinks(connection: connection).link(environment: environment, asOf: asOf)
                let linked = try connection.execute(
                    query.replacingOccurrences(of: "%@", with: CustomerLinks.asOfTable)
                ).rows.compactMap { $0[0] }
                #expect(linked.sorted() == rows(customers), "\(context), \(environment), as of \(asOf): customers")
            }
            let members = Dictionary(grouping: customers.keys, by: { customers[$0] ?? $0 })
            var expired = CustomerReturns()
            var expected: [String: Int64?] = [:]
            func add(_ episode: Episode) throws {
                try expired.add(episode)
                guard episode.outcome == .expired, let end = episode.end else { return }
                expected["\(episode.subscription) \(end)"] = CustomerRule.returnedAt(
                    subscription: episode.subscription, end: end, bundleId: episode.bundleId, asOf: asOf,
                    facts: facts, customers: customers, members: members)
            }
            if latest {
                _ = try store.streamStored(environment: environment, asOf: asOf, add)
            } else {
                _ = try store.streamBuilt(environment: environment, asOf: asOf, reader: reader, add)
            }
            var found: [String: Int64?] = [:]
            try expired.followUps(
                environment: environment, asOf: asOf, customersAsOfLatest: latest, store: store
            ) { found["\($0.subscription) \($0.end)"] = $0.returnedAt }
            #expect(found == expected, "\(context), \(environment), as of \(asOf): returns")
            compared += expected.count
        }
        if environment == "Production" {
            #expect(compared > 0, "\(context): no expired episode to compare")
        }
    }

    /// Every row of the episode tables, as text, in a fixed order.
    /// The customers the incremental analysis relinked are those of a relink of every key of the environment.
    private func expectCustomersEqualAFullRelink(
        _ connection: PGConnection, environment: String, _ context: String
    ) throws {
        let customers = "SELECT original_transaction_id || '→' || customer_id FROM %@ ORDER BY 1"
        let stored = try connection.execute(
            customers.replacingOccurrences(of: "%@", with: "subscription_customers WHERE environment = $1"),
            [environment]
        ).rows
        let latest = try #require(try StoredDataset(connection: connection).latestSignedDate())
        try CustomerLinks(connection: connection).link(environment: environment, asOf: latest)
        let relinked = try connection.execute(
            customers.replacingOccurrences(of: "%@", with: CustomerLinks.asOfTable)
        ).rows
        #expect(stored == relinked, "\(context): customers")
    }

    private func storedRows(_ connection: PGConnection) throws -> [String] {
        var rows: [String] = []
        for table in [
            "billing_episodes", "subscription_analysis", "subscription_renewals", "renewal_months",
            "subscription_customers",
        ] {
            rows += try connection.execute("SELECT '\(table) ' || t::text FROM \(table) t ORDER BY 1").rows
                .compactMap { $0[0] }
        }
        return rows
    }
}
