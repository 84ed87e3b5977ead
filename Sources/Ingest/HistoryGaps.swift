import AppStoreNotifications
import AppStoreServerAPI
import CivilTime
import Foundation
import Logging
import PGClient

/// What Apple's notification history holds for a range that the database lacks, per UTC day of `signedDate`.
///
/// The history is read page by page; each page's notifications are looked up in `notifications` by their key, so
/// memory holds only the counts per day and the missing UUIDs. The notifications are decoded without verifying their
/// signatures: nothing is stored, and a notification the load refused (see `quarantine`) is missing all the same.
package struct HistoryGaps: Sendable {
    /// One day with notifications in Apple's history.
    package struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`, UTC.
        package var day: String
        /// Notifications Apple lists for the day.
        package var apple: Int
        /// Of those, the ones stored.
        package var stored: Int
        /// The `notificationUUID`s of the others, sorted (lowercase).
        package var missing: [String]
    }

    /// The days with notifications, in order.
    package var days: [Day]
    /// History items whose `signedPayload` could not be decoded (not compared).
    package var undecodable: Int
    /// Pages read.
    package var pages: Int

    package var apple: Int { days.reduce(0) { $0 + $1.apple } }
    package var missing: Int { days.reduce(0) { $0 + $1.missing.count } }

    /// Reads every page `pager` gives and compares it with what `connection` stores.
    /// - Throws: ``AppStoreServerAPIError``, ``PGError``.
    package static func find(
        pager: NotificationHistoryPager,
        connection: PGConnection,
        logger: Logger
    ) async throws -> HistoryGaps {
        try await withTaskExecutorPreference(ConnectionExecutor()) {
            var pager = pager
            var counts: [Int: (apple: Int, stored: Int, missing: [String])] = [:]
            var undecodable = 0
            var pages = 0
            while let page = try await pager.next(onMalformed: { malformed in
                logger.warning(
                    "a malformed history page; requesting it again", metadata: ["gaps.reason": "\(malformed.reason)"]
                )
            }) {
                pages += 1
                var listed: [(key: NotificationKey, day: Int)] = []
                for item in page.response.notificationHistory ?? [] {
                    guard let token = item.signedPayload,
                        let decoded = try? NotificationDecoder.decodeSignedPayload(token),
                        let uuid = decoded.payload.notificationUUID, let signedDate = decoded.payload.signedDate
                    else {
                        undecodable += 1
                        continue
                    }
                    let key = NotificationKey(
                        subscription: NotificationRow.subscription(of: decoded), uuid: uuid.lowercased()
                    )
                    listed.append((key, CivilDate.split(unixMilliseconds: signedDate).daysSinceEpoch))
                }
                let stored = try storedKeys(listed.map(\.key), connection: connection)
                for (key, day) in listed {
                    var entry = counts[day] ?? (0, 0, [])
                    entry.apple += 1
                    if stored.contains(key) {
                        entry.stored += 1
                    } else {
                        entry.missing.append(key.uuid)
                    }
                    counts[day] = entry
                }
            }
            let days = counts.keys.sorted().compactMap { key -> Day? in
                guard let entry = counts[key] else { return nil }
                let date = CivilDate(daysSinceEpoch: key)
                return Day(
                    day: String(format: "%04d-%02d-%02d", date.year, date.month, date.day), apple: entry.apple,
                    stored: entry.stored, missing: entry.missing.sorted()
                )
            }
            logger.info("history compared", metadata: ["gaps.pages": "\(pages)", "gaps.days": "\(days.count)"])
            return HistoryGaps(days: days, undecodable: undecodable, pages: pages)
        }
    }

    /// Which of `keys` `notifications` holds, by its primary key (the subscription a notification's content decides,
    /// and its UUID). Text that is no UUID is never stored.
    private static func storedKeys(_ keys: [NotificationKey], connection: PGConnection) throws -> Set<NotificationKey> {
        try NotificationKey.stored(keys.filter { UUIDText.isValid($0.uuid) }, connection: connection)
    }
}
