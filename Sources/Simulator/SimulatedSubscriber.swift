import Analysis
import AppStoreNotifications
import Foundation

/// Everything one subscriber contributes to an export: the notifications of their subscription and of its family
/// members (and perhaps a `TEST`), signed and in delivery order with resends and late deliveries mixed in, and the
/// ground-truth episodes.
package struct SimulatedSubscriber: Sendable {
    /// Per subscription (purchaser first, then family members, then the `TEST` notification if any), the
    /// notifications in signed order, before signing.
    package var notifications: [[SimulatedNotification]]
    /// The lines as delivered: each subscription's notifications in signed order except for late deliveries
    /// (swapped with the next one), with resends (the same line again, one to four lines later).
    package var records: [ExportRecord]
    package var truth: [GroundTruthEpisode]
    /// The purchaser's planted returns (``SimulationOptions/returnRate``).
    package var returns: [PlantedReturn]
    /// The lines of the app's message log (``SimulationOptions/sheets``).
    package var sheetEvents: [PlantedSheetEvent]
    /// How many lines are resends.
    package var duplicates: Int
    /// How many notifications were delivered after the next one of their subscription.
    package var lateDeliveries: Int

    /// Simulates subscriber `index` and signs its notifications.
    /// - Parameter model: `RetryModel(options: options)`, worked out once for many subscribers; nil: worked out here.
    /// - Throws: when encoding or signing fails.
    package init(
        index: Int,
        options: SimulationOptions,
        model: RetryModel? = nil,
        signer: DeterministicJWSSigner,
        encoder: JSONEncoder
    ) throws {
        let history = SubscriberHistory(index: index, options: options, model: model)
        let notifications = history.notifications
        self.notifications = notifications
        self.truth = history.truth
        self.returns = history.returns
        self.sheetEvents = history.sheetEvents

        var noise = SplitMix64(seed: options.seed, index: UInt64(index), stream: 3)
        var delivery = SplitMix64(seed: options.seed, index: UInt64(index), stream: 4)
        var lateDeliveries = 0
        var ordered: [ExportRecord] = []
        for subscription in notifications {
            var records = try subscription.map { notification in
                ExportRecord(
                    signedPayload: try Self.sign(notification, options: options, signer: signer, encoder: encoder),
                    sendAttempts: Self.sendAttempts(for: notification, generator: &delivery)
                )
            }
            var position = 0
            while position + 1 < records.count {
                if noise.chance(options.outOfOrderRate) {
                    records.swapAt(position, position + 1)
                    lateDeliveries += 1
                    position += 2
                } else {
                    position += 1
                }
            }
            ordered += records
        }

        // Resends: each line may come again after 1 to 4 further lines (fewer at the end of the subscriber's lines).
        var lines: [ExportRecord] = []
        lines.reserveCapacity(ordered.count + 4)
        var pending: [(after: Int, record: ExportRecord)] = []
        var duplicates = 0
        for record in ordered {
            lines.append(record)
            pending = pending.compactMap { entry in
                if entry.after == 0 {
                    lines.append(entry.record)
                    return nil
                }
                return (entry.after - 1, entry.record)
            }
            if noise.chance(options.duplicateRate) {
                pending.append((Int(noise.next() % 4), record))
                duplicates += 1
            }
        }
        lines += pending.map(\.record)
        self.records = lines
        self.duplicates = duplicates
        self.lateDeliveries = lateDeliveries
    }

    /// The signed payload of a notification: its transaction and renewal info signed first, then the whole.
    static func sign(
        _ notification: SimulatedNotification,
        options: SimulationOptions,
        signer: DeterministicJWSSigner,
        encoder: JSONEncoder
    ) throws -> String {
        try token(notification, options: options, encoder: encoder) { try signer.sign($0) }
    }

    /// The payload of a notification as `sign` turns each JSON part into a token: its transaction and renewal info
    /// first, then the whole. Tests that load without verification pass placeholder signatures.
    package static func token(
        _ notification: SimulatedNotification,
        options: SimulationOptions,
        encoder: JSONEncoder,
        sign: (Data) throws -> String
    ) throws -> String {
        var data = NotificationData()
        data.appAppleId = options.appAppleID
        data.bundleId = options.bundleID
        data.environment = .known(notification.environment)
        if let transaction = notification.transaction {
            // The build number goes up once a month.
            data.bundleVersion = String(100 + UTCCalendar.monthsBetween(options.start, notification.signedDate))
            data.signedTransactionInfo = try sign(encoder.encode(transaction))
        }
        if let renewalInfo = notification.renewalInfo {
            data.signedRenewalInfo = try sign(encoder.encode(renewalInfo))
        }
        data.status = notification.status.map { .known($0) }

        var payload = ResponseBodyV2DecodedPayload()
        payload.notificationType = .known(notification.notificationType)
        payload.subtype = notification.subtype.map { .known($0) }
        payload.notificationUUID = notification.notificationUUID
        payload.data = data
        payload.version = "2.0"
        payload.signedDate = notification.signedDate
        return try sign(encoder.encode(payload))
    }

    /// Delivery attempts: mostly one success 0.2 to 2 seconds after signing; some production notifications fail first
    /// and are retried after 1, 12, 24, 48 and 72 hours (five retries at most); Sandbox tries once.
    static func sendAttempts(
        for notification: SimulatedNotification,
        generator: inout SplitMix64
    ) -> [SendAttemptItem] {
        let failures: [SendAttemptResult] = [
            .timedOut, .noResponse, .unsuccessfulHTTPResponseCode, .socketIssue, .tlsIssue, .prematureClose,
        ]
        func attempt(_ date: Int64, _ result: SendAttemptResult) -> SendAttemptItem {
            var item = SendAttemptItem()
            item.attemptDate = date
            item.sendAttemptResult = .known(result)
            return item
        }
        var date = notification.signedDate + generator.int64(in: 200...2_000)
        if notification.environment == .sandbox {
            let result = generator.chance(0.02) ? failures[Int(generator.next() % UInt64(failures.count))] : .success
            return [attempt(date, result)]
        }
        guard generator.chance(0.05) else { return [attempt(date, .success)] }
        let retryHours: [Int64] = [1, 12, 24, 48, 72]
        let failed = 1 + Int(generator.next() % 6)
        var attempts: [SendAttemptItem] = []
        for index in 0..<failed {
            attempts.append(attempt(date, failures[Int(generator.next() % UInt64(failures.count))]))
            if index < retryHours.count { date += retryHours[index] * 3_600_000 }
        }
        if failed <= retryHours.count { attempts.append(attempt(date, .success)) }
        return attempts
    }
}
