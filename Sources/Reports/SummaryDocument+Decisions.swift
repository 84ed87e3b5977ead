import Analysis
import Foundation

extension SummaryDocument {
    /// The anchor of the grace what-if section, for the decisions' link.
    static let graceWhatIfHeading = "Another grace length"

    /// The three decisions the report serves, each with its number and a link to its section: what retry is expected
    /// to bring back, whom to reach now, and what the grace setting keeps and gives.
    func writeDecisions(to writer: inout MarkdownWriter) {
        writer.heading("What to decide")
        var items: [String] = []
        if let expected = expectedOfAtRisk() {
            items.append(
                "**What retry will still bring back:** " + expected
                    + " at risk now, weighed by each episode's chance of recovering ([Money](#money)).")
        } else {
            items.append("**What retry will still bring back:** nothing is in billing retry now.")
        }
        let inGrace = report.openEpisodes.filter(\.inGrace).count
        items.append(
            report.openEpisodes.isEmpty
                ? "**Whom to reach now:** no customer is in billing retry."
                : "**Whom to reach now:** " + Self.episodes(report.openEpisodes.count) + " in billing retry, "
                    + HumanFormat.count(inGrace) + " of them still in grace (with access): `open_episodes.csv` "
                    + "lists each with its chance of recovery and the customer's `appAccountToken` "
                    + "(`churn query open-episodes`).")
        items.append(graceDecision())
        writer.bulletList(items)
    }

    /// The grace line: the product with the most mature episodes, its current length against the longest other
    /// length, per mature episode.
    private func graceDecision() -> String {
        let link = "([" + Self.graceWhatIfHeading + "](#another-grace-length))"
        let byProduct = Dictionary(grouping: report.graceWhatIf, by: \.productId)
        guard
            let (product, rows) = byProduct.max(by: { lhs, rhs in
                let (a, b) = (
                    lhs.value.first?.figures.matureEpisodes ?? 0, rhs.value.first?.figures.matureEpisodes ?? 0
                )
                return a != b ? a < b : rhs.key.utf8.lexicographicallyPrecedes(lhs.key.utf8)
            }), let current = rows.first(where: \.isCurrent), current.figures.matureEpisodes > 0,
            let other = rows.filter({ !$0.isCurrent }).max(by: { $0.graceDays < $1.graceDays })
        else {
            return "**Which grace setting:** no product has mature episodes with a known grace length yet " + link + "."
        }
        let name = product.isEmpty ? "episodes without a product" : "`\(MarkdownWriter.escape(product))`"
        return "**Which grace setting:** for " + name + ", " + Self.graceName(current.graceDays) + " kept "
            + Self.days(current.figures.paidKept, per: current.figures.matureEpisodes) + " paid days and gave "
            + Self.days(current.figures.freeAccess, per: current.figures.matureEpisodes)
            + " days of free access per mature episode; " + Self.graceName(other.graceDays) + " would have kept "
            + Self.days(other.figures.paidKept, per: other.figures.matureEpisodes) + " and given "
            + Self.days(other.figures.freeAccess, per: other.figures.matureEpisodes)
            + ", if every recovery had come on the same day " + link + "."
    }

    /// Per product, each grace length's paid days kept and free access given per mature episode, the current one
    /// marked, with the assumption beside it.
    func writeGraceWhatIf(to writer: inout MarkdownWriter) {
        writer.heading(Self.graceWhatIfHeading)
        let byProduct = Dictionary(grouping: report.graceWhatIf, by: \.productId)
        guard byProduct.values.contains(where: { ($0.first?.figures.matureEpisodes ?? 0) > 0 }) else {
            writer.paragraph(
                (report.all.outcomes.episodes == 0 ? "No episode" : "No episode is mature yet")
                    + ", so there is nothing to weigh (`grace_whatif.csv`).")
            return
        }
        writer.paragraph(
            "A payment collected inside the grace period keeps the billing date, so the days since the failed "
                + "renewal are paid service; a later payment starts a new period, and those days are neither paid "
                + "nor served. Meanwhile the grace period gives access to customers who never pay. Per product, "
                + "over its mature episodes: the recoveries by retry within each length, the paid days they kept "
                + "and the days of access the others got, per mature episode (`grace_whatif.csv`). The App Store "
                + "offers 3, 16 or 28 days, or none (3 or 6 for weekly products).")
        for product in byProduct.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let rows = byProduct[product], let mature = rows.first?.figures.matureEpisodes, mature > 0 else {
                continue
            }
            let name = product.isEmpty ? "(no product)" : "`\(MarkdownWriter.escape(product))`"
            writer.paragraph("**" + name + "**: " + Self.episodes(mature) + " mature.")
            writer.table(
                header: ["Grace", "Recovered in grace", "Paid days kept per episode", "Free access days per episode"],
                alignments: [.left, .right, .right, .right],
                rows: rows.sorted { $0.graceDays < $1.graceDays }.map { row in
                    [
                        Self.graceName(row.graceDays) + (row.isCurrent ? " (current)" : ""),
                        HumanFormat.count(row.figures.recoveredInGrace),
                        Self.days(row.figures.paidKept, per: mature),
                        Self.days(row.figures.freeAccess, per: mature),
                    ]
                })
        }
        writer.paragraph(
            "*The assumption:* each recovery is taken to come on the same day whatever the grace length. Losing "
                + "access is itself associated with payment (see the grace-end days in the life table), so a "
                + "longer grace period may move some recoveries later and a shorter one earlier. Read the rows as "
                + "what the same recoveries would be worth under another setting, not as a forecast.")
    }

    /// `16-day grace`, or `no grace`.
    static func graceName(_ days: Int) -> String {
        days == 0 ? "no grace" : "\(days)-day grace"
    }

    /// Milliseconds summed over `episodes`, as days per episode with one decimal.
    static func days(_ milliseconds: Int64, per episodes: Int) -> String {
        guard episodes > 0 else { return "–" }
        return String(format: "%.1f", Double(milliseconds) / Double(Milliseconds.day) / Double(episodes))
    }
}
