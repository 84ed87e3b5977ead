import Analysis
import AppStoreNotifications
import Foundation
import Simulator
import Testing

/// The ground truth the simulator writes must be what the episode builder finds in the export.
@Suite struct GroundTruthTests {
    @Test(arguments: ["Production", "Sandbox"])
    func truthAgreesWithEpisodeBuilder(environment: String) throws {
        let fixture = try Fixtures.varied.get()
        let events = fixture.notifications.map(NotificationEvent.init)
        let dataset = EpisodeBuilder(options: .init(environment: environment, asOf: fixture.options.end))
            .dataset(events)
        let truth = try fixture.truthRows().filter {
            $0["environment"] == environment && $0["ownership"] == "PURCHASED"
        }
        #expect(truth.count > (environment == "Production" ? 100 : 10))
        #expect(dataset.episodes.count == truth.count)

        // Per cohort and outcome.
        func key(_ cohort: String, _ outcome: String) -> String { cohort + " " + outcome }
        var expected: [String: Int] = [:]
        for row in truth { expected[key(row["cohort"] ?? "", row["outcome"] ?? ""), default: 0] += 1 }
        var built: [String: Int] = [:]
        for episode in dataset.episodes { built[key(episode.cohortMonth, episode.outcome.rawValue), default: 0] += 1 }
        #expect(built == expected)

        // Episode by episode.
        let episodes = Dictionary(dataset.episodes.map { ($0.openingNotificationUUID, $0) }) { first, _ in first }
        for row in truth {
            let opening = try #require(row["opening_uuid"])
            let episode = try #require(episodes[opening], "no episode opened by \(opening)")
            #expect(episode.subscription == row["subscription"])
            #expect(String(episode.sequence) == row["sequence"])
            #expect(episode.productId == row["product_id"])
            #expect(episode.storefront == row["storefront"])
            #expect(String(episode.start) == row["start_ms"])
            #expect(episode.hasGrace == (row["grace_end_ms"] != ""))
            #expect((episode.graceEnd.map(String.init) ?? "") == row["grace_end_ms"])
            #expect((episode.end.map(String.init) ?? "") == row["end_ms"])
            #expect(episode.outcome.rawValue == row["outcome"])
            #expect((episode.recoveryPrice.map(String.init) ?? "") == row["recovery_price"])
            #expect((episode.recoveryCurrency ?? "") == row["currency"])
            #expect((episode.closingNotificationUUID ?? "") == row["closing_uuid"])
            #expect(String(episode.isTrialConversion) == row["trial_conversion"])
            #expect((episode.recoveredBy?.rawValue ?? "") == row["recovered_by"])
            #expect((episode.stakePrice.map(String.init) ?? "") == row["stake_price"])
            #expect((episode.stakeCurrency ?? "") == row["stake_currency"])
            #expect(String(episode.isMature(asOf: fixture.options.end)) == row["mature"])
        }

        // Data quality: resends, other environments and family copies are what the simulator made; nothing else.
        let distinct = Dictionary(events.map { ($0.notificationUUID, $0) }) { first, _ in first }.values
        #expect(dataset.dataQuality.duplicatesSkipped == fixture.summary.duplicates)
        #expect(dataset.dataQuality.outsideEnvironment == distinct.count { $0.environment != environment })
        #expect(
            dataset.dataQuality.familySharedSkipped
                == distinct.count { $0.environment == environment && $0.inAppOwnershipType == "FAMILY_SHARED" }
        )
        #expect(dataset.dataQuality.inferredExpiry == 0)
        #expect(dataset.dataQuality.orphanDidRenewBillingRecovery == 0)
        #expect(dataset.dataQuality.orphanExpiredBillingRetry == 0)
        #expect(dataset.dataQuality.orphanGracePeriodExpired == 0)
    }

    @Test func truthHoldsAsOfTheLatestSignedDate() throws {
        // A report's default as-of time is the latest signedDate loaded, a little before the history's end.
        let fixture = try Fixtures.varied.get()
        let events = fixture.notifications.map(NotificationEvent.init)
        let latest = try #require(events.map(\.signedDate).max())
        #expect(latest < fixture.options.end)
        let dataset = EpisodeBuilder(options: .init(environment: "Production", asOf: latest)).dataset(events)
        let truth = try fixture.truthRows().filter {
            $0["environment"] == "Production" && $0["ownership"] == "PURCHASED"
        }
        var expected: [String: Int] = [:]
        for row in truth { expected[row["outcome"] ?? "", default: 0] += 1 }
        var built: [String: Int] = [:]
        for episode in dataset.episodes { built[episode.outcome.rawValue, default: 0] += 1 }
        #expect(built == expected)
    }

    @Test func familyEpisodesMirrorThePurchasers() throws {
        let fixture = try Fixtures.varied.get()
        let rows = try fixture.truthRows()
        let family = rows.filter { $0["ownership"] == "FAMILY_SHARED" }
        #expect(!family.isEmpty)
        let events = fixture.notifications.map(NotificationEvent.init)
        // Counted as Production-only family members, the builder sees the same episodes when ownership is ignored.
        let asPurchased = events.map { event -> NotificationEvent in
            var copy = event
            if copy.inAppOwnershipType == "FAMILY_SHARED" { copy.inAppOwnershipType = "PURCHASED" }
            return copy
        }
        let dataset = EpisodeBuilder(options: .init(environment: "Production", asOf: fixture.options.end))
            .dataset(asPurchased)
        let production = rows.filter { $0["environment"] == "Production" }
        #expect(dataset.episodes.count == production.count)
        #expect(
            Set(dataset.episodes.map(\.openingNotificationUUID)) == Set(production.compactMap { $0["opening_uuid"] }))
    }

    @Test func everyOutcomeOccurs() throws {
        let fixture = try Fixtures.varied.get()
        let outcomes = Set(try fixture.truthRows().compactMap { $0["outcome"] })
        #expect(outcomes == Set(Episode.Outcome.allCases.map(\.rawValue)))
        #expect(fixture.summary.productionEpisodes.values.reduce(0, +) > 100)
    }
}
