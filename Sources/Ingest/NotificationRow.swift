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

    /// Encodes one decoded notification as a row of binary COPY, in the order of ``table``'s columns.
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
            try row.append(uuid: uuid)
            try row.append(payload.notificationType?.rawValue)
            try row.append(payload.subtype?.rawValue)
            try appendDate(payload.signedDate, "signedDate", &row)
            try row.append(payload.version)
            try row.append(environment(of: payload))
            try row.append(bundleID(of: payload))
            row.append(
                data?.appAppleId ?? payload.summary?.appAppleId ?? payload.externalPurchaseToken?.appAppleId
                    ?? payload.appData?.appAppleId)
            if let status = data?.status?.rawValue, let narrow = Int16(exactly: status) {
                row.append(narrow)
            } else {
                row.append(data?.status?.rawValue)
            }
            try row.append(subscription(of: decoded))
            try row.append(transaction?.transactionId)
            try row.append(transaction?.webOrderLineItemId)
            try row.append(transaction?.productId ?? payload.summary?.productId)
            try row.append(transaction?.subscriptionGroupIdentifier)
            try row.append(transaction?.storefront)
            try row.append(transaction?.storefrontId)
            try appendDate(transaction?.purchaseDate, "data.signedTransactionInfo.purchaseDate", &row)
            try appendDate(transaction?.originalPurchaseDate, "data.signedTransactionInfo.originalPurchaseDate", &row)
            try appendDate(transaction?.expiresDate, "data.signedTransactionInfo.expiresDate", &row)
            row.append(transaction?.price)
            try row.append(transaction?.currency)
            try row.append(transaction?.inAppOwnershipType?.rawValue)
            try row.append(transaction?.transactionReason?.rawValue)
            row.append(transaction?.offerType?.rawValue)
            try row.append(transaction?.offerIdentifier)
            try row.append(transaction?.offerDiscountType?.rawValue)
            try row.append(transaction?.offerPeriod)
            try appendDate(transaction?.revocationDate, "data.signedTransactionInfo.revocationDate", &row)
            row.append(transaction?.revocationReason?.rawValue)
            try appendDate(renewal?.gracePeriodExpiresDate, "data.signedRenewalInfo.gracePeriodExpiresDate", &row)
            row.append(renewal?.isInBillingRetryPeriod)
            row.append(renewal?.expirationIntent?.rawValue)
            row.append(renewal?.autoRenewStatus?.rawValue)
            try row.append(renewal?.autoRenewProductId)
            row.append(renewal?.renewalPrice)
            try row.append(renewal?.currency)
            try appendDate(renewal?.renewalDate, "data.signedRenewalInfo.renewalDate", &row)
            try row.append(nonEmpty(transaction?.appAccountToken) ?? nonEmpty(renewal?.appAccountToken))
            try row.append(nonEmpty(transaction?.appTransactionId) ?? nonEmpty(renewal?.appTransactionId))
            try decoded.document.withUnsafeBytes { try row.appendJSONB(utf8: $0) }
            row.append(verified)
            row.append(fileID)
            row.append(Int64(line))
            row.append(loadRunID)
            if let signedPayloadSHA256 {
                signedPayloadSHA256.withUnsafeBytes { row.append(bytea: $0) }
            } else {
                row.appendNull()
            }
            try row.append(nonEmpty(transaction?.previousOriginalTransactionId))
            try row.append(transaction?.revocationType?.rawValue)
            row.append(transaction?.revocationPercentage)
            try row.append(transaction?.billingPlanType?.rawValue)
            let commitment = transaction?.commitmentInfo
            row.append(commitment?.billingPeriodNumber)
            row.append(commitment?.totalBillingPeriods)
            try appendDate(
                commitment?.commitmentExpiresDate, "data.signedTransactionInfo.commitmentInfo.commitmentExpiresDate",
                &row)
            row.append(commitment?.commitmentPrice)
            try row.append(renewal?.renewalBillingPlanType?.rawValue)
            let renewalCommitment = renewal?.commitmentInfo
            try row.append(renewalCommitment?.commitmentAutoRenewProductId)
            row.append(renewalCommitment?.commitmentAutoRenewStatus?.rawValue)
            try row.append(renewalCommitment?.commitmentRenewalBillingPlanType?.rawValue)
            try appendDate(
                renewalCommitment?.commitmentRenewalDate, "data.signedRenewalInfo.commitmentInfo.commitmentRenewalDate",
                &row)
            row.append(renewalCommitment?.commitmentRenewalPrice)
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

    private static func appendDate(
        _ milliseconds: Int64?,
        _ field: String,
        _ row: inout CopyBinary
    ) throws(RowRejection) {
        guard row.appendTimestamp(milliseconds: milliseconds) else {
            throw RowRejection(.dateOutOfRange, "\(field) \(milliseconds ?? 0) is outside the years 1–9999")
        }
    }
}
