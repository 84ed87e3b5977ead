import Analysis
import AppStoreNotifications
import Foundation
import Simulator

/// A simulated export with Apple's quirks at high rates, cut into files that are loaded one after another, all
/// drawn from one seed.
///
/// The files follow the history: file i holds mostly the notifications signed in the i-th part of it. Some
/// notifications come in a later file (a late delivery: newer notifications of their subscription were loaded, and
/// analysed, before them), some come again (a resend, in the same file or a later one), and every file is shuffled.
/// The simulator adds late and stale failure notices, undated grace periods, expiries never notified, family
/// sharing, Sandbox subscribers and `TEST` notifications.
struct RandomHistory: CustomStringConvertible {
    let seed: UInt64
    let options: SimulationOptions
    /// The files in load order, each as its lines' notifications.
    let files: [[SimulatedNotification]]
    /// After which files the same file is loaded a second time (a rerun, not a resend).
    let reloaded: Set<Int>
    /// Notifications put into a later file than their part of the history.
    let lateDeliveries: Int
    /// Lines that are resends of an earlier line.
    let resends: Int

    init(seed: UInt64) {
        self.seed = seed
        var random = SplitMix64(seed: seed, index: 0, stream: 0xBA7C)
        var options = SimulationOptions()
        options.seed = seed
        options.subscribers = 60 + Int(random.next() % 41)
        options.months = 4 + Int(random.next() % 6)
        // Every setting comes in five seeds in a row.
        options.grace = [GraceSetting.none, .days(3), .days(16), .days(28), .mixed][Int(seed % 5)]
        options.graceRenewals = random.chance(0.5) ? .all : .paidToPaid
        options.uniformRates = random.chance(0.5)
        options.failureRate = 0.4
        options.recoveryRate = 0.2 + 0.5 * random.nextUnit()
        options.cancelRate = 0.15
        options.otherRate = 0.05
        options.newPurchaseRate = 0.1
        options.lateFailureNoticeRate = 0.4
        options.staleFailureNoticeRate = 0.4
        options.undatedGraceRate = 0.25
        options.missingExpiryRate = 0.5
        options.familyRate = 0.1
        options.sandboxRate = 0.15
        // Customers of several subscriptions: returns on a new subscription of the same account, and migrations.
        options.returnRate = 0.5
        options.migrationRate = 0.02
        options.testEvery = 20
        self.options = options

        var notifications: [SimulatedNotification] = []
        let model = RetryModel(options: options)
        for index in 0..<options.subscribers {
            notifications += SubscriberHistory(index: index, options: options, model: model).notifications.joined()
        }

        let fileCount = 2 + Int(random.next() % 4)
        let span = options.end - options.start
        var files = [[SimulatedNotification]](repeating: [], count: fileCount)
        var lateDeliveries = 0
        var resends = 0
        for notification in notifications {
            var file = min(fileCount - 1, Int((notification.signedDate - options.start) * Int64(fileCount) / span))
            if file < fileCount - 1, random.chance(0.15) {
                file += 1 + Int(random.next() % UInt64(fileCount - 1 - file))
                lateDeliveries += 1
            }
            files[file].append(notification)
            if random.chance(0.05) {
                files[file + Int(random.next() % UInt64(fileCount - file))].append(notification)
                resends += 1
            }
        }
        for index in files.indices { files[index].shuffle(using: &random) }
        self.files = files
        self.reloaded = Set(files.indices.filter { _ in random.chance(0.3) })
        self.lateDeliveries = lateDeliveries
        self.resends = resends
    }

    var description: String {
        "seed \(seed) (\(options.subscribers) subscribers, \(options.months) months, grace \(options.grace), "
            + "\(files.count) files of \(files.map(\.count)) lines, \(lateDeliveries) late, \(resends) resent, "
            + "reloaded \(reloaded.sorted()))"
    }

    /// The lines of file `index`: each notification as `{"signedPayload": …}` with an unsigned JWS (a placeholder
    /// signature), for a load without verification.
    func lines(ofFile index: Int) throws -> [String] {
        let encoder = NotificationDecoder.makeJSONEncoder()
        return try files[index].map { notification in
            #"{"signedPayload":""# + (try unsignedToken(notification, encoder: encoder)) + #""}"#
        }
    }

    /// What the simulator signs (the transaction and renewal info, then the whole), with placeholder signatures.
    private func unsignedToken(_ notification: SimulatedNotification, encoder: JSONEncoder) throws -> String {
        try SimulatedSubscriber.token(notification, options: options, encoder: encoder) { payload in
            Self.header + "." + Base64URL.encode(payload) + ".c2lnbmF0dXJl"
        }
    }

    private static let header = Base64URL.encode(Data(#"{"alg":"ES256","x5c":["AAAA"]}"#.utf8))
}
