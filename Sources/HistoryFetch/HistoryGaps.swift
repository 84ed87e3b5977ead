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

    /// Reads every page `pager` gives and compares it with what the database stores.
    /// - Parameter areStored: for each notification of a page, in order, whether the database holds it; called on
    ///   a ``ConnectionExecutor``, so it may block on libpq.
    /// - Throws: ``AppStoreServerAPIError``, or what `areStored` throws.
    package static func find(
        pager: NotificationHistoryPager,
        logger: Logger,
        areStored: ([DecodedNotification]) throws -> [Bool]
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
                var listed: [(notification: DecodedNotification, uuid: String, day: Int)] = []
                for item in page.response.notificationHistory ?? [] {
                    guard let token = item.signedPayload,
                        let decoded = try? NotificationDecoder.decodeSignedPayload(token),
                        let uuid = decoded.payload.notificationUUID, let signedDate = decoded.payload.signedDate
                    else {
                        undecodable += 1
                        continue
                    }
                    listed.append(
                        (decoded, uuid.lowercased(), CivilDate.split(unixMilliseconds: signedDate).daysSinceEpoch))
                }
                let stored = try areStored(listed.map(\.notification))
                for (index, (_, uuid, day)) in listed.enumerated() {
                    var entry = counts[day] ?? (0, 0, [])
                    entry.apple += 1
                    if index < stored.count, stored[index] {
                        entry.stored += 1
                    } else {
                        entry.missing.append(uuid)
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
}
