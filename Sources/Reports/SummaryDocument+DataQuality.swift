import Analysis

extension SummaryDocument {
    func writeDataQuality(to writer: inout MarkdownWriter) {
        writer.heading("Data quality")
        let items = dataQualityWarnings
        if items.isEmpty {
            writer.paragraph(
                "Nothing to report: no further copies of a notification, no notifications left out, no orphans, no late or stale "
                    + "failure notices, no inferred ends and no rejected inputs.")
        } else {
            writer.bulletList(items)
        }
    }

    /// One sentence per check with a count above 0, in `data_quality.csv`'s order.
    var dataQualityWarnings: [String] {
        let counts = report.dataQuality
        let rejections = report.options.rejections
        var items: [String] = []
        if counts.inferredExpiry > 0 {
            items.append(
                "**Expiries inferred at day 60: \(HumanFormat.count(counts.inferredExpiry))** "
                    + "(`inferred_expiry`): no closing notification came, and they count as expired; many suggest "
                    + "notifications missing from the export.")
        }
        if counts.lateFailureNotice > 0 || counts.staleFailureNotice > 0 {
            items.append(
                "**Failure notices that came after the renewal that resolved them: "
                    + "\(HumanFormat.count(counts.lateFailureNotice)) paired with their recovery, "
                    + "\(HumanFormat.count(counts.staleFailureNotice)) for a period already paid** "
                    + "(`late_failure_notice`, `stale_failure_notice`): a late notice and its recovery are one "
                    + "recovered episode; a stale notice finds no recovery and opens nothing.")
        }
        if counts.graceEndInferred > 0 || counts.graceEndUnknown > 0 {
            items.append(
                "**Grace periods announced without an end date: \(HumanFormat.count(counts.graceEndInferred)) "
                    + "dated from the product's usual grace length, \(HumanFormat.count(counts.graceEndUnknown)) "
                    + "left unknown** (`grace_end_inferred`, `grace_end_unknown`); an unknown end keeps an episode out "
                    + "of the save rate, the saved amount and the daily hazard.")
        }
        let orphans = [
            (counts.orphanDidRenewBillingRecovery, "`DID_RENEW`/`BILLING_RECOVERY`"),
            (counts.orphanExpiredBillingRetry, "`EXPIRED`/`BILLING_RETRY`"),
            (counts.orphanGracePeriodExpired, "`GRACE_PERIOD_EXPIRED`"),
        ].filter { $0.0 > 0 }
        if !orphans.isEmpty {
            let total = orphans.reduce(0) { $0 + $1.0 }
            items.append(
                "**Orphan notifications: \(HumanFormat.count(total))** ("
                    + orphans.map { "\($0.1) \(HumanFormat.count($0.0))" }.joined(separator: ", ")
                    + "): they arrived for a subscription with no open episode, for example when the export starts in "
                    + "the middle of one, and count in no rate.")
        }
        let rejected = rejections.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .filter { (rejections[$0] ?? 0) > 0 }
        if !rejected.isEmpty {
            let total = rejected.reduce(0) { $0 + (rejections[$1] ?? 0) }
            items.append(
                "**Rejected inputs: \(HumanFormat.count(total))** ("
                    + rejected.map {
                        "`rejected_\(MarkdownWriter.escape($0))` \(HumanFormat.count(rejections[$0] ?? 0))"
                    }
                    .joined(separator: ", ")
                    + "): refused at load time and in no figure; the quarantine keeps each with its reason.")
        }
        if counts.familySharedSkipped > 0 {
            items.append(
                "**Family-shared notifications left out: \(HumanFormat.count(counts.familySharedSkipped))** "
                    + "(`family_shared_skipped`): the purchaser's own subscription carries the billing issue.")
        }
        if counts.outsideEnvironment > 0 {
            items.append(
                "**Notifications of other environments left out: \(HumanFormat.count(counts.outsideEnvironment))** "
                    + "(`outside_environment`).")
        }
        if counts.outsideBundle > 0 {
            items.append(
                "**Notifications of other apps left out: \(HumanFormat.count(counts.outsideBundle))** "
                    + "(`outside_bundle`). A load was told to take one app only (`--bundle-id`); if that was a "
                    + "mistake, the next nightly with the right option loads them.")
        }
        if counts.duplicatesSkipped > 0 {
            items.append(
                "**Further copies of a notification: \(HumanFormat.count(counts.duplicatesSkipped))** "
                    + "(`duplicates_skipped`). The same `notificationUUID` more than once, from exports that overlap "
                    + "or from the App Store sending it again; each counts once.")
        }
        if counts.hasAppleChecks {
            items.append(
                "**Uncertain episodes checked against Apple's status: "
                    + "\(HumanFormat.count(counts.appleStatusAgrees + counts.appleStatusDiffers + counts.appleCheckFailed))** "
                    + "(`apple_status_agrees` \(HumanFormat.count(counts.appleStatusAgrees)), `apple_status_differs` "
                    + "\(HumanFormat.count(counts.appleStatusDiffers)), `apple_history_fetched` "
                    + "\(HumanFormat.count(counts.appleHistoryFetched)), `apple_check_failed` "
                    + "\(HumanFormat.count(counts.appleCheckFailed))). Where Apple's status differs, the subscription's "
                    + "notification history was fetched and loaded; the episodes follow from those signed "
                    + "notifications, never from a status alone.")
        }
        return items
    }
}
