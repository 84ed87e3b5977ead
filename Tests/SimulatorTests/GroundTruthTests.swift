import Analysis
import AppStoreNotifications
import Foundation
import NotificationTypes
import Simulator
import Testing

/// The ground truth the simulator writes must be what the episode builder finds in the export.
@Suite struct GroundTruthTests {
    static let day: Int64 = 86_400_000

    /// The grace length METRICS.md infers for a grace period no notification dated, from the truth alone: the most
    /// frequent whole-day length among the dated grace periods of the product (ties: the shorter), else of the app.
    static func inferredGraceDays(productId: String, rows: [[String: String]]) -> Int? {
        func mode(_ rows: [[String: String]]) -> Int? {
            var counts: [Int: Int] = [:]
            for row in rows where row["grace_end_inferred"] == "false" {
                guard let start = Int64(row["start_ms"] ?? ""), let graceEnd = Int64(row["grace_end_ms"] ?? "") else {
                    continue
                }
                let days = (graceEnd - start + day / 2) / day
                counts[Int(days), default: 0] += 1
            }
            return counts.min { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }?.key
        }
        return mode(rows.filter { $0["product_id"] == productId }) ?? mode(rows)
    }

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
            #expect(String(episode.graceEndInferred) == row["grace_end_inferred"])
            if row["grace_end_inferred"] == "true" {
                // The truth holds the real end; the builder infers it from the product's usual length.
                let start = try #require(Int64(row["start_ms"] ?? ""))
                let days = try #require(Self.inferredGraceDays(productId: row["product_id"] ?? "", rows: truth))
                #expect(episode.graceEnd == start + Int64(days) * Self.day)
            } else {
                #expect((episode.graceEnd.map(String.init) ?? "") == row["grace_end_ms"])
            }
            #expect((episode.end.map(String.init) ?? "") == row["end_ms"])
            #expect(episode.outcome.rawValue == row["outcome"])
            #expect((episode.recoveryPrice.map(String.init) ?? "") == row["recovery_price"])
            #expect((episode.recoveryCurrency ?? "") == row["currency"])
            #expect((episode.closingNotificationUUID ?? "") == row["closing_uuid"])
            #expect(String(episode.isTrialConversion) == row["trial_conversion"])
            #expect((episode.recoveredBy?.rawValue ?? "") == row["recovered_by"])
            #expect(String(episode.endInferred) == row["end_inferred"])
            #expect((episode.stakePrice.map(String.init) ?? "") == row["stake_price"])
            #expect((episode.stakeCurrency ?? "") == row["stake_currency"])
            #expect(String(episode.isMature(asOf: fixture.options.end)) == row["mature"])
        }

        // Data quality: resends, other environments and family copies are what the simulator made, the v2 checks
        // are its quirks; nothing else.
        let distinct = Dictionary(events.map { ($0.notificationUUID, $0) }) { first, _ in first }.values
        let quality = dataset.dataQuality
        #expect(quality.duplicatesSkipped == fixture.summary.duplicates)
        #expect(quality.outsideEnvironment == distinct.count { $0.environment != environment })
        #expect(
            quality.familySharedSkipped
                == distinct.count { $0.environment == environment && $0.inAppOwnershipType == "FAMILY_SHARED" }
        )
        #expect(quality.inferredExpiry == truth.count { $0["end_inferred"] == "true" })
        #expect(quality.lateFailureNotice == truth.count { $0["late_failure_notice"] == "true" })
        #expect(quality.staleFailureNotice == truth.reduce(0) { $0 + (Int($1["stale_notices"] ?? "") ?? 0) })
        #expect(quality.graceEndInferred == truth.count { $0["grace_end_inferred"] == "true" })
        #expect(quality.graceEndUnknown == 0)
        #expect(quality.orphanDidRenewBillingRecovery == 0)
        #expect(quality.orphanExpiredBillingRetry == 0)
        #expect(quality.orphanGracePeriodExpired == 0)
        if environment == "Production" {
            // Every quirk and outcome occurs in the fixture.
            #expect(quality.inferredExpiry > 0)
            #expect(quality.lateFailureNotice > 0)
            #expect(quality.staleFailureNotice > 0)
            #expect(quality.graceEndInferred > 0)
            #expect(truth.contains { $0["recovered_by"] == "new_purchase" })
            let summary = fixture.summary.productionQuirks
            #expect(summary.inferredExpiries == quality.inferredExpiry)
            #expect(summary.lateFailureNotices == quality.lateFailureNotice)
            #expect(summary.staleFailureNotices == quality.staleFailureNotice)
            #expect(summary.undatedGracePeriods == quality.graceEndInferred)
        }
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
        for row in truth {
            // An expiry inferred at the end of the history is still open earlier, until t0 + 61 days.
            let start = try #require(Int64(row["start_ms"] ?? ""))
            let isOpenThen = row["end_inferred"] == "true" && start + 61 * Self.day > latest
            expected[isOpenThen ? "open" : row["outcome"] ?? "", default: 0] += 1
        }
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
        let asPurchased = events.map { event in
            event.inAppOwnershipType == "FAMILY_SHARED" ? event.withOwnership("PURCHASED") : event
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

extension NotificationEvent {
    /// The same event with another `inAppOwnershipType`.
    fileprivate func withOwnership(_ ownership: String) -> NotificationEvent {
        NotificationEvent(
            notificationUUID: notificationUUID, notificationType: notificationType?.rawValue ?? "",
            subtype: subtype?.rawValue,
            signedDate: signedDate, environment: environment, bundleId: bundleId,
            originalTransactionId: originalTransactionId, transactionId: transactionId, productId: productId,
            storefront: storefront, purchaseDate: purchaseDate, expiresDate: expiresDate, price: price,
            currency: currency, inAppOwnershipType: ownership, offerType: offerType,
            offerDiscountType: offerDiscountType, gracePeriodExpiresDate: gracePeriodExpiresDate,
            renewalPrice: renewalPrice, renewalCurrency: renewalCurrency, transactionReason: transactionReason
        )
    }
}
