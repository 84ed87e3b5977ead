import AppStoreNotifications
import Crypto
import Foundation
import PGClient
import Store

/// One notification as stored: the typed columns of the `notifications` table and the decoded document.
package struct NotificationRow: Sendable {
    /// The `notifications` table's declaration: each column and its type, in the order `encode` writes them. The
    /// loader's staging table has the same columns.
    package static let table = StoredTables.notifications

    /// The column names, in COPY order (``table``'s).
    package static let columns = table.columnNames

    /// The column types, in the order of ``columns`` (``table``'s): the binary format writes each value in its
    /// type's own format.
    package static let types: [CopyBinary.FieldType] = table.types

    /// The position of `original_transaction_id` in ``columns``.
    static let subscriptionField = table.position(of: "original_transaction_id") ?? columns.count

    /// The position of `signed_date` in ``columns``.
    static let signedDateField = table.position(of: "signed_date") ?? columns.count

    /// The position of `source_line` in ``columns``.
    static let sourceLineField = table.position(of: "source_line") ?? columns.count

    /// Encodes one decoded notification as a row of binary COPY, in the order of ``table``'s columns, each value
    /// named by its column (a debug build checks each name against the declaration: ``CopyBinary/declaration``).
    ///
    /// `signedPayloadSHA256` is the SHA-256 of the compact JWS `decoded` came from, as the export carried it
    /// (``StoredPayloads/digest(of:)``): the loader recognises the same signed text by it when it comes again.
    ///
    /// A `status` outside `smallint` is written at its own 4 bytes, which PostgreSQL refuses: the batch then goes
    /// through the loader's text path, where PostgreSQL names the value it cannot store, as for any other refusal.
    /// - Throws: ``RowRejection`` with its reason and a detail when a value cannot be stored (a bad UUID, a date
    ///   outside years 1–9999, a NUL character).
    package static func encode(
        _ decoded: DecodedNotification,
        verified: Bool,
        fileID: Int64,
        line: Int,
        loadRunID: Int64,
        signedPayloadSHA256: SHA256Digest?,
        into row: inout CopyBinary
    ) throws(RowRejection) {
        let payload = decoded.payload
        guard let uuid = payload.notificationUUID, UUIDText.isValid(uuid) else {
            throw RowRejection(
                .badUUID,
                "notificationUUID \(payload.notificationUUID.map { "\"\($0.prefix(60))\"" } ?? "") is not a UUID")
        }
        let transaction = decoded.transaction
        let renewal = decoded.renewalInfo
        let data = payload.data
        do {
            try row.append(uuid: uuid, column: "notification_uuid")
            try row.append(payload.notificationType?.rawValue, column: "notification_type")
            try row.append(payload.subtype?.rawValue, column: "subtype")
            try appendDate(payload.signedDate, "signed_date", "signedDate", &row)
            try row.append(payload.version, column: "version")
            try row.append(environment(of: payload), column: "environment")
            try row.append(bundleID(of: payload), column: "bundle_id")
            row.append(
                data?.appAppleId ?? payload.summary?.appAppleId ?? payload.externalPurchaseToken?.appAppleId
                    ?? payload.appData?.appAppleId, column: "app_apple_id")
            if let status = data?.status?.rawValue, let narrow = Int16(exactly: status) {
                row.append(narrow, column: "status")
            } else {
                row.append(data?.status?.rawValue, column: "status")
            }
            try row.append(subscription(of: decoded), column: "original_transaction_id")
            try row.append(transaction?.transactionId, column: "transaction_id")
            try row.append(transaction?.webOrderLineItemId, column: "web_order_line_item_id")
            try row.append(transaction?.productId ?? payload.summary?.productId, column: "product_id")
            try row.append(transaction?.subscriptionGroupIdentifier, column: "subscription_group_identifier")
            try row.append(transaction?.storefront, column: "storefront")
            try row.append(transaction?.storefrontId, column: "storefront_id")
            try appendDate(
                transaction?.purchaseDate, "purchase_date", "data.signedTransactionInfo.purchaseDate", &row)
            try appendDate(
                transaction?.originalPurchaseDate, "original_purchase_date",
                "data.signedTransactionInfo.originalPurchaseDate", &row)
            try appendDate(transaction?.expiresDate, "expires_date", "data.signedTransactionInfo.expiresDate", &row)
            row.append(transaction?.price, column: "price")
            try row.append(transaction?.currency, column: "currency")
            try row.append(transaction?.inAppOwnershipType?.rawValue, column: "in_app_ownership_type")
            try row.append(transaction?.transactionReason?.rawValue, column: "transaction_reason")
            row.append(transaction?.offerType?.rawValue, column: "offer_type")
            try row.append(transaction?.offerIdentifier, column: "offer_identifier")
            try row.append(transaction?.offerDiscountType?.rawValue, column: "offer_discount_type")
            try row.append(transaction?.offerPeriod, column: "offer_period")
            try appendDate(
                transaction?.revocationDate, "revocation_date", "data.signedTransactionInfo.revocationDate", &row)
            row.append(transaction?.revocationReason?.rawValue, column: "revocation_reason")
            try appendDate(
                renewal?.gracePeriodExpiresDate, "grace_period_expires_date",
                "data.signedRenewalInfo.gracePeriodExpiresDate", &row)
            row.append(renewal?.isInBillingRetryPeriod, column: "is_in_billing_retry_period")
            row.append(renewal?.expirationIntent?.rawValue, column: "expiration_intent")
            row.append(renewal?.autoRenewStatus?.rawValue, column: "auto_renew_status")
            try row.append(renewal?.autoRenewProductId, column: "auto_renew_product_id")
            row.append(renewal?.renewalPrice, column: "renewal_price")
            try row.append(renewal?.currency, column: "renewal_currency")
            try appendDate(renewal?.renewalDate, "renewal_date", "data.signedRenewalInfo.renewalDate", &row)
            try row.append(
                nonEmpty(transaction?.appAccountToken) ?? nonEmpty(renewal?.appAccountToken),
                column: "app_account_token")
            try row.append(
                nonEmpty(transaction?.appTransactionId) ?? nonEmpty(renewal?.appTransactionId),
                column: "app_transaction_id")
            try decoded.document.withUnsafeBytes { try row.appendJSONB(utf8: $0, column: "payload") }
            row.append(verified, column: "verified")
            row.append(fileID, column: "source_file_id")
            row.append(Int64(line), column: "source_line")
            row.append(loadRunID, column: "load_run_id")
            if let signedPayloadSHA256 {
                signedPayloadSHA256.withUnsafeBytes { row.append(bytea: $0, column: "signed_payload_sha256") }
            } else {
                row.appendNull(column: "signed_payload_sha256")
            }
            try row.append(
                nonEmpty(transaction?.previousOriginalTransactionId), column: "previous_original_transaction_id")
            try row.append(transaction?.revocationType?.rawValue, column: "revocation_type")
            row.append(transaction?.revocationPercentage, column: "revocation_percentage")
            try row.append(transaction?.billingPlanType?.rawValue, column: "billing_plan_type")
            let commitment = transaction?.commitmentInfo
            row.append(commitment?.billingPeriodNumber, column: "commitment_billing_period_number")
            row.append(commitment?.totalBillingPeriods, column: "commitment_total_billing_periods")
            try appendDate(
                commitment?.commitmentExpiresDate, "commitment_expires_date",
                "data.signedTransactionInfo.commitmentInfo.commitmentExpiresDate", &row)
            row.append(commitment?.commitmentPrice, column: "commitment_price")
            try row.append(renewal?.renewalBillingPlanType?.rawValue, column: "renewal_billing_plan_type")
            let renewalCommitment = renewal?.commitmentInfo
            try row.append(
                renewalCommitment?.commitmentAutoRenewProductId, column: "renewal_commitment_product_id")
            row.append(
                renewalCommitment?.commitmentAutoRenewStatus?.rawValue, column: "renewal_commitment_auto_renew_status")
            try row.append(
                renewalCommitment?.commitmentRenewalBillingPlanType?.rawValue,
                column: "renewal_commitment_billing_plan_type")
            try appendDate(
                renewalCommitment?.commitmentRenewalDate, "renewal_commitment_date",
                "data.signedRenewalInfo.commitmentInfo.commitmentRenewalDate", &row)
            row.append(renewalCommitment?.commitmentRenewalPrice, column: "renewal_commitment_price")
            row.endRow()
        } catch let rejection as RowRejection {
            throw rejection
        } catch {
            throw RowRejection(.nulByte, "a text field holds a NUL character, which PostgreSQL cannot store")
        }
    }

    /// The subscription a notification belongs to, `notifications.original_transaction_id`: the signed
    /// transaction's originalTransactionId, else the signed renewal info's, else '' (a TEST notification, an external
    /// purchase token). The content alone decides it, so every copy of one notification has the same key.
    static func subscription(of decoded: DecodedNotification) -> String {
        decoded.transaction?.originalTransactionId ?? decoded.renewalInfo?.originalTransactionId ?? ""
    }

    /// `text`, or nil when it is empty.
    private static func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The environment a notification belongs to, wherever its kind keeps it.
    package static func environment(of payload: ResponseBodyV2DecodedPayload) -> String? {
        if let environment = payload.data?.environment ?? payload.summary?.environment ?? payload.appData?.environment {
            return environment.rawValue
        }
        if let token = payload.externalPurchaseToken {
            return (token.externalPurchaseId ?? "").hasPrefix("SANDBOX") ? "Sandbox" : "Production"
        }
        return nil
    }

    /// The bundle id a notification belongs to, wherever its kind keeps it.
    package static func bundleID(of payload: ResponseBodyV2DecodedPayload) -> String? {
        payload.data?.bundleId ?? payload.summary?.bundleId ?? payload.externalPurchaseToken?.bundleId
            ?? payload.appData?.bundleId
    }

    /// Appends a time to `column`, refusing the row when it lies outside the years 1–9999.
    /// - Parameter field: the notification's field the time came from, for the refusal's detail.
    private static func appendDate(
        _ milliseconds: Int64?,
        _ column: StaticString,
        _ field: String,
        _ row: inout CopyBinary
    ) throws(RowRejection) {
        guard row.appendTimestamp(milliseconds: milliseconds, column: column) else {
            throw RowRejection(.dateOutOfRange, "\(field) \(milliseconds ?? 0) is outside the years 1–9999")
        }
    }
}
