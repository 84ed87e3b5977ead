import Analysis

extension SummaryDocument {
    func writeDataQuality(to writer: inout MarkdownWriter) {
        writer.heading("Data quality")
        let items = dataQualityWarnings
        if items.isEmpty {
            writer.paragraph(
                "Nothing to report: no resent duplicates, no notifications left out, no orphans, no unresolved "
                    + "episodes and no rejected inputs.")
        } else {
            writer.bulletList(items)
        }
    }

    /// One sentence per check with a count above 0, in `data_quality.csv`'s order.
    var dataQualityWarnings: [String] {
        let counts = report.dataset.dataQuality
        let rejections = report.options.rejections
        var items: [String] = []
        if counts.unresolvedOpenEpisodes > 0 {
            items.append(
                "**Unresolved open episodes: \(HumanFormat.count(counts.unresolvedOpenEpisodes))** "
                    + "(`unresolved_open_episodes`). Episodes that started more than 61 days before the as-of time "
                    + "and still have no closing notification, which the App Store would have sent by then: the "
                    + "export is probably missing notifications. They count as open.")
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
                    + "). Notifications that belong to an episode but arrived for a subscription with no open "
                    + "episode, typically because the export starts in the middle of one. They count in no rate.")
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
                    + "). Inputs refused at load time; the quarantine keeps each one with its reason. They are in "
                    + "no figure.")
        }
        if counts.familySharedSkipped > 0 {
            items.append(
                "**Family-shared notifications left out: \(HumanFormat.count(counts.familySharedSkipped))** "
                    + "(`family_shared_skipped`). The purchaser's own subscription carries the billing issue; "
                    + "counting family members too would count it twice.")
        }
        if counts.outsideEnvironment > 0 {
            items.append(
                "**Notifications of other environments left out: \(HumanFormat.count(counts.outsideEnvironment))** "
                    + "(`outside_environment`). This report covers \(environment) only.")
        }
        if counts.duplicatesSkipped > 0 {
            items.append(
                "**Resent duplicates: \(HumanFormat.count(counts.duplicatesSkipped))** (`duplicates_skipped`). "
                    + "Copies of a notification the App Store sent again; each notification counts once.")
        }
        return items
    }
}
