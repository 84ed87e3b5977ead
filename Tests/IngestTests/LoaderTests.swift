import AppStoreNotifications
import Foundation
import Ingest
import TestSupport
import Testing

@Suite struct LoaderTests {
    @Test func loadsTheBillingLifecycleVerifiedWithEveryFieldTyped() async throws {
        let harness = try LoadHarness("lifecycle")
        let directory = try ExportDirectory()
        let path = try directory.write("lifecycle.jsonl", lines: try Fixtures.lifecycleTokens().map(\.asExportLine))
        let summary = try await harness.load(
            [path], policy: AcceptancePolicy(verifier: try Fixtures.appleTestVerifier())
        )
        #expect(summary.loaded == 5)
        #expect(summary.rejected == 0)
        #expect(summary.verified)

        let first = try harness.rows(
            """
            SELECT notification_type, subtype, to_char(signed_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                   environment, bundle_id, app_apple_id::text, status::text, original_transaction_id, transaction_id,
                   product_id, storefront, price::text, currency, in_app_ownership_type,
                   (extract(epoch FROM expires_date) * 1000)::bigint::text,
                   (extract(epoch FROM grace_period_expires_date) * 1000)::bigint::text,
                   is_in_billing_retry_period::text, expiration_intent::text, auto_renew_status::text,
                   transaction_reason, verified::text, source_line::text
            FROM notifications WHERE notification_uuid = '093f9e0a-308c-5edd-83aa-70179d290f4a'
            """
        )
        #expect(
            first == [
                [
                    "DID_FAIL_TO_RENEW", "GRACE_PERIOD", "2024-03-31 00:01:00", "Sandbox", "com.example", "1234", "4",
                    "1000000000000001", "1000000000000001", "com.example.monthly", "USA", "9990", "USD", "PURCHASED",
                    "1711843200000", "1713225600000", "true", "2", "1", "PURCHASE", "true", "1",
                ]
            ]
        )
        // The nested tokens are stored decoded inside the payload.
        let nested = try harness.rows(
            """
            SELECT payload #>> '{data,signedTransactionInfo,purchaseDate}', payload #>> '{data,signedRenewalInfo,renewalPrice}',
                   payload ->> 'notificationUUID'
            FROM notifications WHERE notification_type = 'DID_RENEW'
            """
        )
        #expect(nested == [["1713571200000", "9990", "a4d7c5e8-7307-5570-8c5a-d946a51ef84b"]])
        // The renewal info's price and currency (of the failed renewal, for the price at stake).
        let renewal = try harness.rows(
            """
            SELECT renewal_price::text, renewal_currency, count(*)::text FROM notifications
            WHERE renewal_currency = payload #>> '{data,signedRenewalInfo,currency}'
            GROUP BY 1, 2
            """
        )
        #expect(renewal == [["9990", "USD", "5"]])
        let recovery = try harness.rows(
            "SELECT subtype, transaction_id, (extract(epoch FROM purchase_date) * 1000)::bigint::text FROM notifications WHERE notification_type = 'DID_RENEW'"
        )
        #expect(recovery == [["BILLING_RECOVERY", "1000000000000002", "1713571200000"]])
        let expired = try harness.rows(
            "SELECT subtype, is_in_billing_retry_period::text, status::text FROM notifications WHERE notification_type = 'EXPIRED'"
        )
        #expect(expired == [["BILLING_RETRY", "false", "2"]])
        // The run and the file are recorded.
        let run = try harness.rows("SELECT status, files::text, loaded::text, verified::text FROM load_runs")
        #expect(run == [["succeeded", "1", "5", "true"]])
        let file = try harness.rows("SELECT path, size_bytes::text, sha256, loaded::text FROM source_files")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(file.first?[0] == path)
        #expect(file.first?[1] == size.map(String.init))
        #expect(file.first?[2]?.count == 64)
    }

    @Test func reloadingTheSameFileStoresNothingNewAndSaysSo() async throws {
        let harness = try LoadHarness("reload")
        let directory = try ExportDirectory()
        let path = try directory.write(
            "lifecycle.jsonl", lines: try Fixtures.lifecycleTokens().map(\.asExportLine) + ["not json"])
        let policy = AcceptancePolicy(verifier: try Fixtures.appleTestVerifier())
        let first = try await harness.load([path], policy: policy)
        #expect(first.loaded == 5)
        #expect(first.files.first?.previousRunWithSameContent == nil)
        let second = try await harness.load([path], policy: policy)
        #expect(second.loaded == 0)
        #expect(second.duplicates == 5)
        #expect(second.files.first?.previousRunWithSameContent == first.loadRunID)
        #expect(try harness.scalar("SELECT count(*) FROM notifications") == "5")
        // The bad line is quarantined once, not once per load.
        #expect(try harness.scalar("SELECT count(*) FROM quarantine") == "1")
    }

    @Test func readsAPrettyPrintedHistoryPageACompactOneAndGzip() async throws {
        let harness = try LoadHarness("history")
        let directory = try ExportDirectory()
        let page = try Fixtures.url("notificationHistoryPage.json").path
        let policy = AcceptancePolicy(verifier: try Fixtures.appleTestVerifier(), environment: "Sandbox")
        let summary = try await harness.load([page], policy: policy)
        #expect(summary.loaded == 5)
        #expect(summary.rejected == 0)

        // The same page compacted to one line, gzip-compressed: all duplicates now.
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: page)))
        let compact = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let gz = try directory.gzip(try directory.write("page.jsonl", lines: [compact]))
        let again = try await harness.load([gz], policy: policy)
        #expect(again.records == 5)
        #expect(again.duplicates == 5)
        #expect(try harness.scalar("SELECT count(DISTINCT source_file_id) FROM notifications") == "1")
    }

    @Test func readsBareJWSLinesAndGzipWithoutTheExtension() async throws {
        let harness = try LoadHarness("bare")
        let directory = try ExportDirectory()
        let tokens = try Fixtures.lifecycleTokens()
        let gz = try directory.gzip(try directory.write("bare.txt", lines: tokens))
        let renamed = directory.url.appendingPathComponent("bare-export.dat").path
        try FileManager.default.moveItem(atPath: gz, toPath: renamed)
        let summary = try await harness.load(
            [renamed], policy: AcceptancePolicy(verifier: try Fixtures.appleTestVerifier())
        )
        #expect(summary.loaded == 5)
    }

    @Test func loadsApplesMockTestNotification() async throws {
        let harness = try LoadHarness("mock")
        let directory = try ExportDirectory()
        let path = try directory.write("mock.jsonl", lines: [try Fixtures.text("mock-testNotification.jws")])
        let summary = try await harness.load(
            [path], policy: AcceptancePolicy(verifier: try Fixtures.appleTestVerifier())
        )
        #expect(summary.loaded == 1)
        let row = try harness.rows(
            "SELECT notification_uuid::text, notification_type, environment, bundle_id, (extract(epoch FROM signed_date) * 1000)::bigint::text, original_transaction_id FROM notifications"
        )
        // No transaction, no subscription: original_transaction_id '' (a key column is never NULL).
        #expect(
            row == [["9ad56bd2-0bc6-42e0-af24-fd996d87a1e6", "TEST", "Sandbox", "com.example", "1681314324000", ""]])
        // Found stored by its key the next time.
        let again = try await harness.load(
            [path], policy: AcceptancePolicy(verifier: try Fixtures.appleTestVerifier())
        )
        #expect((again.loaded, again.duplicates) == (0, 1))
    }

    @Test func keepsUnknownNotificationTypesAndSubtypes() async throws {
        let harness = try LoadHarness("unknown")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        let token = try signer.notification(type: "SOMETHING_NEW_IN_2027", subtype: "SHINY")
        let path = try directory.write("new.jsonl", lines: [token.asExportLine])
        let summary = try await harness.load([path], policy: AcceptancePolicy(verifier: signer.verifier))
        #expect(summary.loaded == 1)
        #expect(
            try harness.rows("SELECT notification_type, subtype FROM notifications") == [
                ["SOMETHING_NEW_IN_2027", "SHINY"]
            ])
    }

    @Test func unverifiedLoadsAreMarkedSo() async throws {
        let harness = try LoadHarness("noverify")
        let directory = try ExportDirectory()
        let path = try directory.write("lifecycle.jsonl", lines: try Fixtures.lifecycleTokens())
        let summary = try await harness.load([path], policy: AcceptancePolicy(verifier: nil))
        #expect(summary.loaded == 5)
        #expect(!summary.verified)
        #expect(try harness.scalar("SELECT count(*) FROM notifications WHERE verified") == "0")
        #expect(try harness.scalar("SELECT verified::text FROM load_runs") == "false")
    }

    @Test func aTruncatedGzipKeepsTheLinesBeforeTheCut() async throws {
        let harness = try LoadHarness("truncated")
        let directory = try ExportDirectory()
        let tokens = try Fixtures.lifecycleTokens()
        let gz = try directory.gzip(try directory.write("cut.jsonl", lines: tokens.map(\.asExportLine)))
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: gz)))
        let cut = try directory.write("cut-short.jsonl.gz", bytes: Array(bytes.prefix(bytes.count * 3 / 4)))
        let summary = try await harness.load(
            [cut], policy: AcceptancePolicy(verifier: try Fixtures.appleTestVerifier())
        )
        #expect(summary.loaded >= 1)
        #expect(summary.files.first?.rejectedByReason["truncated_input"] == 1)
        #expect(try harness.scalar("SELECT count(*) FROM quarantine WHERE reason = 'truncated_input'") == "1")
    }

    @Test func anEmptyFileLoadsNothingAndSucceeds() async throws {
        let harness = try LoadHarness("empty")
        let directory = try ExportDirectory()
        let path = try directory.write("empty.jsonl", bytes: [])
        let summary = try await harness.load([path], policy: AcceptancePolicy(verifier: nil))
        #expect(summary.records == 0)
        #expect(summary.rejected == 0)
        #expect(try harness.scalar("SELECT status FROM load_runs") == "succeeded")
    }
}
