import Analysis
import Reports
import TestSupport
import Testing

@Suite struct EpisodeListTableTests {
    @Test func rowCarriesTheV2Columns() {
        let t0 = T.march1
        let newPurchase = Episode(
            subscription: "S1", productId: "monthly", storefront: "USA", start: t0, end: t0 + 5 * T.day,
            outcome: .recovered, recoveryPrice: 59990, recoveryCurrency: "EUR", recoveredBy: .newPurchase,
            stakePrice: 9990, stakeCurrency: "EUR", openingNotificationUUID: "f1", closingNotificationUUID: "u1")
        let inferred = Episode(
            subscription: "S2", productId: "monthly", start: t0, hasGrace: true, graceEnd: t0 + 16 * T.day,
            end: t0 + 60 * T.day, outcome: .expired, endInferred: true, graceEndInferred: true,
            openingNotificationUUID: "f2")
        func cells(_ episode: Episode, asOf: Int64) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: zip(EpisodeList.columns, EpisodeList.row(episode, asOf: asOf).map(\.formatted)))
        }
        let young = cells(newPurchase, asOf: t0 + 61 * T.day - 1)
        #expect(young["recovered_by"] == "new_purchase")
        #expect(young["end_inferred"] == "false")
        #expect(young["mature"] == "false")
        #expect(young["recovery_amount"] == "59.990")
        #expect(young["stake_amount"] == "9.990")
        #expect(young["stake_currency"] == "EUR")
        #expect(cells(newPurchase, asOf: t0 + 61 * T.day)["mature"] == "true")

        let old = cells(inferred, asOf: t0 + 100 * T.day)
        #expect(old["outcome"] == "expired")
        #expect(old["recovered_by"] == "")
        #expect(old["end_inferred"] == "true")
        #expect(old["grace_end_inferred"] == "true")
        #expect(old["duration_days"] == "60.0000")
        #expect(old["stake_amount"] == "")
        #expect(EpisodeList.columns.count == EpisodeList.row(inferred, asOf: 0).count)
    }
}
