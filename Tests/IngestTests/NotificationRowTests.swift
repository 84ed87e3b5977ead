import AppStoreNotifications
import Foundation
import PGClient
import TestSupport
import Testing

@testable import Ingest

/// The stored row of a notification, written in binary COPY format: the types the `notifications` table has, and
/// for real signed notifications the same values as the text the loader sends when PostgreSQL refuses a batch, and
/// as PostgreSQL's own reading of the stored document.
@Suite struct NotificationRowTests {
    @Test func theColumnTypesAreTheTables() throws {
        let connection = try TestDatabase.makeSchema("rowtypes").migrated()
        let stored = try connection.execute(
            """
            SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute
            WHERE attrelid = 'notifications'::regclass AND attnum > 0 AND NOT attisdropped
            """
        ).rows
        let types = Dictionary(uniqueKeysWithValues: stored.map { ($0[0] ?? "", $0[1] ?? "") })
        #expect(NotificationRow.columns.count == NotificationRow.types.count)
        for (column, type) in zip(NotificationRow.columns, NotificationRow.types) {
            #expect(types[column] == type.name, "\(column)")
        }
    }

    /// Signed notifications with every stored field in use, NULLs, extreme dates and numbers, and text that needs
    /// escaping in the text format.
    static func samples() throws -> [String] {
        var tokens = try Fixtures.lifecycleTokens()
        tokens.append(try Fixtures.text("mock-testNotification.jws"))
        let signer = try TestSigner()
        var random = SeededRandom(seed: 42)
        let texts = ["com.exämple.月額", "tab\tand\\backslash", "quote \" here", "new\nline", "plain", "🎉"]
        let instants: [Int64] = [-62_135_596_800_000, 253_402_300_799_999, 0, 946_684_800_000, 1_711_843_260_123]
        for index in 0..<120 {
            func some<T>(_ value: T) -> T? { random.chance(0.3) ? nil : value }
            let signedDate = 1_700_000_000_000 + Int64(index) * 3_600_123
            var transaction: [String: Any] = [:]
            let fields: [(String, Any?)] = [
                ("webOrderLineItemId", some("\(index)000")),
                ("subscriptionGroupIdentifier", some("group-\(index % 3)")),
                ("storefrontId", some("143441")),
                ("productId", texts[index % texts.count]),
                ("originalPurchaseDate", some(instants[index % instants.count])),
                ("expiresDate", instants[(index + 1) % instants.count]),
                ("transactionReason", some(index % 2 == 0 ? "RENEWAL" : "PURCHASE")),
                ("offerType", some(index % 4)),
                ("offerIdentifier", some(texts[(index + 2) % texts.count])),
                ("offerDiscountType", some("FREE_TRIAL")),
                ("offerPeriod", some("P1M")),
                ("revocationDate", index % 5 == 0 ? signedDate : nil),
                ("revocationReason", index % 5 == 0 ? 1 : nil),
                ("price", index == 7 ? Int64.max : index == 8 ? Int64.min : Int64(index) * 1_000),
                // Empty now and then: stored as NULL, as from the renewal info when only it has one.
                ("appAccountToken", index % 4 == 0 ? nil : index % 7 == 0 ? "" : some(texts[index % texts.count])),
                ("appTransactionId", some("70\(index)")),
                // Apple's 2025–2026 additions: migrations, partial refunds, 12-month commitments.
                ("previousOriginalTransactionId", index % 6 == 0 ? "\(index)9" : nil),
                ("revocationType", index % 5 == 0 ? (index % 2 == 0 ? "REFUND_PRORATED" : "REFUND_FULL") : nil),
                ("revocationPercentage", index % 10 == 0 ? 25_000 + index : nil),
                ("billingPlanType", some(index % 2 == 0 ? "MONTHLY" : "BILLED_UPFRONT")),
                (
                    "commitmentInfo",
                    index % 3 == 0
                        ? [
                            "billingPeriodNumber": index % 12 + 1, "totalBillingPeriods": 12,
                            "commitmentExpiresDate": instants[(index + 3) % instants.count],
                            "commitmentPrice": Int64(index) * 12_000,
                        ] as [String: Any] : nil
                ),
            ]
            for case (let key, let value?) in fields { transaction[key] = value }
            var renewal: [String: Any] = [:]
            let renewalFields: [(String, Any?)] = [
                ("gracePeriodExpiresDate", some(signedDate + 86_400_000)),
                ("isInBillingRetryPeriod", some(index % 2 == 0)),
                ("expirationIntent", some(index % 6)),
                ("autoRenewStatus", some(index % 2)),
                ("autoRenewProductId", some(texts[(index + 3) % texts.count])),
                ("renewalPrice", some(Int64(index) * 7)),
                ("currency", some(index % 2 == 0 ? "USD" : "JPY")),
                ("renewalDate", some(instants[(index + 2) % instants.count])),
                ("appAccountToken", some("00000000-0000-4000-8000-\(String(format: "%012d", index))")),
                ("appTransactionId", some("70\(index)")),
                ("renewalBillingPlanType", some(index % 2 == 0 ? "MONTHLY" : "BILLED_UPFRONT")),
                (
                    "commitmentInfo",
                    index % 4 == 1
                        ? [
                            "commitmentAutoRenewProductId": texts[(index + 1) % texts.count],
                            "commitmentAutoRenewStatus": index % 2,
                            "commitmentRenewalBillingPlanType": "MONTHLY",
                            "commitmentRenewalDate": instants[(index + 4) % instants.count],
                            "commitmentRenewalPrice": Int64(index) * 9_990,
                        ] as [String: Any] : nil
                ),
            ]
            for case (let key, let value?) in renewalFields { renewal[key] = value }
            let statuses = [1, 2, 3, 4, 5, -32_768, 32_767]
            var extra: [String: Any] = ["status": statuses[index % statuses.count]]
            if index % 9 == 0 { extra["appAppleId"] = Int64.max }
            tokens.append(
                try signer.notification(
                    type: ["DID_RENEW", "DID_FAIL_TO_RENEW", "EXPIRED", "SUBSCRIBED"][index % 4],
                    subtype: some("GRACE_PERIOD"), signedDate: signedDate,
                    environment: index % 3 == 0 ? "Sandbox" : "Production",
                    transaction: transaction, renewal: renewal, extra: extra
                )
            )
        }
        // A notification without data (no transaction): most columns NULL.
        tokens.append(
            try signer.sign([
                "notificationType": "TEST", "notificationUUID": UUID().uuidString, "signedDate": 1_700_000_000_000,
            ])
        )
        return tokens
    }

    /// `(extract(epoch FROM column) * 1000)::bigint`, exact for timestamps of whole milliseconds.
    static func milliseconds(_ column: String) -> String {
        "(extract(epoch FROM \(column)) * 1000)::bigint"
    }

    /// Each column, and what PostgreSQL reads for it from the stored document (`payload`, nested tokens decoded), or
    /// for the document itself and the line, from the decoded notification (`expected`).
    static let expectations: [(column: String, stored: String, fromDocument: String)] = {
        let tx = "payload #> '{data,signedTransactionInfo}'"
        let renewal = "payload #> '{data,signedRenewalInfo}'"
        func either(_ key: String, _ places: [String]) -> String {
            "coalesce(" + places.map { "payload #>> '{\($0),\(key)}'" }.joined(separator: ", ") + ")"
        }
        return [
            ("notification_uuid", "notification_uuid", "(payload ->> 'notificationUUID')::uuid"),
            ("notification_type", "notification_type", "payload ->> 'notificationType'"),
            ("subtype", "subtype", "payload ->> 'subtype'"),
            ("signed_date", milliseconds("signed_date"), "(payload ->> 'signedDate')::bigint"),
            ("version", "version", "payload ->> 'version'"),
            ("environment", "environment", either("environment", ["data", "summary", "appData"])),
            ("bundle_id", "bundle_id", either("bundleId", ["data", "summary", "externalPurchaseToken", "appData"])),
            (
                "app_apple_id", "app_apple_id",
                either("appAppleId", ["data", "summary", "externalPurchaseToken", "appData"]) + "::bigint"
            ),
            ("status", "status", "(payload #>> '{data,status}')::smallint"),
            (
                "original_transaction_id", "original_transaction_id",
                "coalesce(\(tx) ->> 'originalTransactionId', \(renewal) ->> 'originalTransactionId', '')"
            ),
            ("transaction_id", "transaction_id", "\(tx) ->> 'transactionId'"),
            ("web_order_line_item_id", "web_order_line_item_id", "\(tx) ->> 'webOrderLineItemId'"),
            ("product_id", "product_id", "coalesce(\(tx) ->> 'productId', payload #>> '{summary,productId}')"),
            (
                "subscription_group_identifier", "subscription_group_identifier",
                "\(tx) ->> 'subscriptionGroupIdentifier'"
            ),
            ("storefront", "storefront", "\(tx) ->> 'storefront'"),
            ("storefront_id", "storefront_id", "\(tx) ->> 'storefrontId'"),
            ("purchase_date", milliseconds("purchase_date"), "(\(tx) ->> 'purchaseDate')::bigint"),
            (
                "original_purchase_date", milliseconds("original_purchase_date"),
                "(\(tx) ->> 'originalPurchaseDate')::bigint"
            ),
            ("expires_date", milliseconds("expires_date"), "(\(tx) ->> 'expiresDate')::bigint"),
            ("price", "price", "(\(tx) ->> 'price')::bigint"),
            ("currency", "currency", "\(tx) ->> 'currency'"),
            ("in_app_ownership_type", "in_app_ownership_type", "\(tx) ->> 'inAppOwnershipType'"),
            ("transaction_reason", "transaction_reason", "\(tx) ->> 'transactionReason'"),
            ("offer_type", "offer_type", "(\(tx) ->> 'offerType')::integer"),
            ("offer_identifier", "offer_identifier", "\(tx) ->> 'offerIdentifier'"),
            ("offer_discount_type", "offer_discount_type", "\(tx) ->> 'offerDiscountType'"),
            ("offer_period", "offer_period", "\(tx) ->> 'offerPeriod'"),
            ("revocation_date", milliseconds("revocation_date"), "(\(tx) ->> 'revocationDate')::bigint"),
            ("revocation_reason", "revocation_reason", "(\(tx) ->> 'revocationReason')::integer"),
            (
                "grace_period_expires_date", milliseconds("grace_period_expires_date"),
                "(\(renewal) ->> 'gracePeriodExpiresDate')::bigint"
            ),
            (
                "is_in_billing_retry_period", "is_in_billing_retry_period",
                "(\(renewal) ->> 'isInBillingRetryPeriod')::boolean"
            ),
            ("expiration_intent", "expiration_intent", "(\(renewal) ->> 'expirationIntent')::integer"),
            ("auto_renew_status", "auto_renew_status", "(\(renewal) ->> 'autoRenewStatus')::integer"),
            ("auto_renew_product_id", "auto_renew_product_id", "\(renewal) ->> 'autoRenewProductId'"),
            ("renewal_price", "renewal_price", "(\(renewal) ->> 'renewalPrice')::bigint"),
            ("renewal_currency", "renewal_currency", "\(renewal) ->> 'currency'"),
            ("renewal_date", milliseconds("renewal_date"), "(\(renewal) ->> 'renewalDate')::bigint"),
            (
                "app_account_token", "app_account_token",
                "coalesce(nullif(\(tx) ->> 'appAccountToken', ''), nullif(\(renewal) ->> 'appAccountToken', ''))"
            ),
            (
                "app_transaction_id", "app_transaction_id",
                "coalesce(nullif(\(tx) ->> 'appTransactionId', ''), nullif(\(renewal) ->> 'appTransactionId', ''))"
            ),
            ("payload", "payload", "expected.document::jsonb"),
            ("verified", "verified", "true"),
            ("source_file_id", "source_file_id", "7"),
            ("source_line", "source_line", "expected.line"),
            ("load_run_id", "load_run_id", "3"),
            ("signed_payload_sha256", "signed_payload_sha256", "sha256(convert_to(expected.token, 'UTF8'))"),
            (
                "previous_original_transaction_id", "previous_original_transaction_id",
                "nullif(\(tx) ->> 'previousOriginalTransactionId', '')"
            ),
            ("revocation_type", "revocation_type", "\(tx) ->> 'revocationType'"),
            ("revocation_percentage", "revocation_percentage", "(\(tx) ->> 'revocationPercentage')::integer"),
            ("billing_plan_type", "billing_plan_type", "\(tx) ->> 'billingPlanType'"),
            (
                "commitment_billing_period_number", "commitment_billing_period_number",
                "(\(tx) #>> '{commitmentInfo,billingPeriodNumber}')::integer"
            ),
            (
                "commitment_total_billing_periods", "commitment_total_billing_periods",
                "(\(tx) #>> '{commitmentInfo,totalBillingPeriods}')::integer"
            ),
            (
                "commitment_expires_date", milliseconds("commitment_expires_date"),
                "(\(tx) #>> '{commitmentInfo,commitmentExpiresDate}')::bigint"
            ),
            ("commitment_price", "commitment_price", "(\(tx) #>> '{commitmentInfo,commitmentPrice}')::bigint"),
            ("renewal_billing_plan_type", "renewal_billing_plan_type", "\(renewal) ->> 'renewalBillingPlanType'"),
            (
                "renewal_commitment_product_id", "renewal_commitment_product_id",
                "\(renewal) #>> '{commitmentInfo,commitmentAutoRenewProductId}'"
            ),
            (
                "renewal_commitment_auto_renew_status", "renewal_commitment_auto_renew_status",
                "(\(renewal) #>> '{commitmentInfo,commitmentAutoRenewStatus}')::integer"
            ),
            (
                "renewal_commitment_billing_plan_type", "renewal_commitment_billing_plan_type",
                "\(renewal) #>> '{commitmentInfo,commitmentRenewalBillingPlanType}'"
            ),
            (
                "renewal_commitment_date", milliseconds("renewal_commitment_date"),
                "(\(renewal) #>> '{commitmentInfo,commitmentRenewalDate}')::bigint"
            ),
            (
                "renewal_commitment_price", "renewal_commitment_price",
                "(\(renewal) #>> '{commitmentInfo,commitmentRenewalPrice}')::bigint"
            ),
        ]
    }()

    @Test func signedNotificationsStoreTheSameAsTextAndAsTheirDocumentSays() throws {
        let connection = try TestDatabase.makeSchema("rowvalues").migrated()
        for table in ["from_binary", "from_text"] {
            try connection.execute("CREATE TABLE \(table) (LIKE notifications INCLUDING DEFAULTS)")
        }
        let samples = try Self.samples()
        var rows = CopyBinary(declaration: NotificationRow.table)
        var lines: [String] = []
        for (index, token) in samples.enumerated() {
            let decoded = try NotificationDecoder.decodeSignedPayload(token)
            try NotificationRow.encode(
                decoded, verified: true, fileID: 7, line: index + 1, loadRunID: 3,
                signedPayloadSHA256: StoredPayloads.digest(of: Array(token.utf8)[...]), into: &rows
            )
            let document = try connection.quoteLiteral(String(decoding: decoded.document, as: UTF8.self))
            let uuid = try #require(decoded.payload.notificationUUID)
            lines.append("('\(uuid)'::uuid, \(index + 1), \(document), \(try connection.quoteLiteral(token)))")
        }
        var text = CopyText()
        try text.append(binaryRows: rows.bytes[...], types: NotificationRow.types)
        let columns = NotificationRow.columns.joined(separator: ", ")
        // As binary, without any fallback: a value in the wrong format for its column would fail here.
        let stored = try connection.copyIn("COPY from_binary (\(columns)) FROM STDIN WITH (FORMAT binary)") { writer in
            try writer.write(rows.bytes)
        }
        #expect(stored == samples.count)
        let fromText = try connection.copyIn("COPY from_text (\(columns)) FROM STDIN") { writer in
            try writer.write(text.bytes)
        }
        #expect(fromText == samples.count)

        let differing = try connection.execute(
            """
            SELECT count(*) FROM (
                (SELECT \(columns) FROM from_binary EXCEPT ALL SELECT \(columns) FROM from_text)
                UNION ALL (SELECT \(columns) FROM from_text EXCEPT ALL SELECT \(columns) FROM from_binary)) d
            """
        ).scalar
        #expect(differing == "0")

        // The loader finds each binary row's key (subscription and UUID) in the row itself, as stored.
        let keys = BatchPlan.rows(in: rows.bytes).map { [$0.key.subscription, $0.key.uuid] }
        let storedKeys = try connection.execute(
            "SELECT original_transaction_id, notification_uuid::text FROM from_binary ORDER BY source_line"
        ).rows.map { $0.map { $0 ?? "" } }
        #expect(keys == storedKeys)
        #expect(keys.contains { $0[0].isEmpty } && keys.contains { !$0[0].isEmpty })

        let expectations = Self.expectations
        #expect(expectations.map(\.column) == NotificationRow.columns)
        let checks = expectations.map { e in
            "count(*) FILTER (WHERE \(e.stored) IS DISTINCT FROM \(e.fromDocument))::text, count(\(e.stored))::text"
        }
        let counts = try #require(
            try connection.execute(
                """
                SELECT \(checks.joined(separator: ", ")), count(*)::text
                FROM from_binary JOIN (VALUES \(lines.joined(separator: ", "))) AS expected (uuid, line, document, token)
                    ON expected.uuid = notification_uuid
                """
            ).rows.first
        )
        #expect(counts.last == String(samples.count), "every stored row is checked")
        for (index, expectation) in expectations.enumerated() {
            #expect(counts[2 * index] == "0", "\(expectation.column) differs from the document")
            #expect(counts[2 * index + 1] != "0", "\(expectation.column) is never set by the samples")
        }
        let extremes = try connection.execute(
            """
            SELECT min(expires_date)::text, max(expires_date)::text, min(status)::text, max(status)::text,
                   max(price)::text, count(*) FILTER (WHERE product_id = 'tab\tand\\backslash')::text
            FROM from_binary
            """
        ).rows
        let expected = ["0001-01-01 00:00:00+00", "9999-12-31 23:59:59.999+00", "-32768", "32767"]
        #expect(extremes == [expected + ["9223372036854775807", "20"]])
    }

    /// The stored document lists each object's keys as `jsonb` keeps them (shorter first, then by bytes), so that
    /// PostgreSQL's sort of them finds them sorted; Apple's own order, as the samples' payloads have it, does not.
    @Test func theDocumentsKeysComeInTheOrderJsonbKeeps() throws {
        let connection = try TestDatabase.makeSchema("documentorder").migrated()
        try connection.execute("CREATE TABLE documents (kind text, document text)")
        var values: [String] = []
        for token in try Self.samples() {
            let decoded = try NotificationDecoder.decodeSignedPayload(token)
            for (kind, json) in [("document", decoded.document), ("payload", decoded.jws.payload)] {
                values.append("('\(kind)', \(try connection.quoteLiteral(String(decoding: json, as: UTF8.self))))")
            }
        }
        try connection.execute("INSERT INTO documents VALUES \(values.joined(separator: ", "))")
        let objects = [
            "", "->'data'", "->'data'->'signedTransactionInfo'", "->'data'->'signedRenewalInfo'", "->'appData'",
        ]
        let unordered = objects.map { path in
            """
            SELECT d.kind, (d.document::json\(path)) AS object, (d.document::jsonb\(path)) AS stored FROM documents d
            """
        }
        let counts = try connection.execute(
            """
            SELECT kind, count(*) FILTER (WHERE ARRAY(SELECT json_object_keys(object))
                    IS DISTINCT FROM ARRAY(SELECT jsonb_object_keys(stored)))::text,
                count(*)::text
            FROM (\(unordered.joined(separator: " UNION ALL "))) o
            WHERE json_typeof(object) = 'object'
            GROUP BY kind ORDER BY kind
            """
        ).rows
        #expect(counts.count == 2)
        #expect(counts.first?[0] == "document" && counts.first?[1] == "0", "\(counts)")
        #expect(counts.last?[0] == "payload" && counts.last?[1] != "0", "\(counts)")
        let sameValues = try connection.execute(
            """
            SELECT count(*)::text FROM documents d JOIN documents p ON p.kind = 'payload' AND d.kind = 'document'
                AND (p.document::jsonb ->> 'notificationUUID') = (d.document::jsonb ->> 'notificationUUID')
            WHERE (d.document::jsonb - 'data' - 'appData') = (p.document::jsonb - 'data' - 'appData')
            """
        ).scalar
        #expect(sameValues == String(try Self.samples().count))
    }
}
