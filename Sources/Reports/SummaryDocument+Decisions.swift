import Analysis
import Foundation

extension SummaryDocument {
    /// The anchor of the grace what-if section, for the decisions' link.
    static let graceWhatIfHeading = "Another grace setting"

    /// The grace line of the first screen: for the app with the most mature episodes, the setting of App Store
    /// Connect's Billing Grace Period that explains its data, and the setting that would have kept the most paid
    /// service (in money where one currency allows, else in days; ties: the least free access), with the free
    /// access each gives beside it.
    func graceLine() -> String {
        let link = "([" + Self.graceWhatIfHeading + "](#another-grace-setting))"
        let totals = report.graceWhatIf.filter { $0.productId == nil }
        let byApp = Dictionary(grouping: totals, by: \.bundleId)
        guard
            let (app, rows) = byApp.max(by: { lhs, rhs in
                let (a, b) = (
                    lhs.value.first?.figures.matureEpisodes ?? 0, rhs.value.first?.figures.matureEpisodes ?? 0
                )
                return a != b ? a < b : rhs.key.utf8.lexicographicallyPrecedes(lhs.key.utf8)
            }), let mature = rows.first?.figures.matureEpisodes, mature > 0
        else {
            return "**Billing Grace Period:** no app has decided failed renewals yet to weigh it by " + link + "."
        }
        let name = app.isEmpty ? "the app without a bundle id" : "`\(MarkdownWriter.escape(app))`"
        let current = rows.filter(\.isCurrent)
        let inMoney = rows.allSatisfy { $0.figures.paidAmountKept != nil }
        /// What a setting keeps, then what it gives (less is better): the order of "kept the most".
        func value(_ row: GraceWhatIf.Row) -> (kept: Double, given: Double) {
            inMoney
                ? (row.figures.paidAmountKept ?? 0, row.figures.freeAccessAmount ?? 0)
                : (Double(row.figures.paidKept), Double(row.figures.freeAccess))
        }
        func keepsMore(_ a: GraceWhatIf.Row, than b: GraceWhatIf.Row) -> Bool {
            let (x, y) = (value(a), value(b))
            return x.kept != y.kept ? x.kept > y.kept : x.given < y.given
        }
        /// `X paid days kept and Y free days[ per decided failed renewal] (USD a and USD b in all)`.
        func kept(_ row: GraceWhatIf.Row, perEpisode: Bool) -> String {
            var text =
                Self.days(row.figures.paidKept, per: mature) + " paid days kept and "
                + Self.days(row.figures.freeAccess, per: mature) + " free days"
                + (perEpisode ? " per decided failed renewal" : "")
            if inMoney, let currency = row.figures.currency {
                text +=
                    " (" + Self.money(row.figures.paidAmountKept, currency) + " and "
                    + Self.money(row.figures.freeAccessAmount, currency) + " in all)"
            }
            return text
        }
        var text = "**Billing Grace Period** of " + name + " (App Store Connect): "
        if let first = current.first {
            text += "the data fit " + Self.settingNames(current.map(\.setting)) + ": " + kept(first, perEpisode: true)
        } else {
            text += "no setting App Store Connect offers explains the grace periods in the data"
        }
        let best = rows.min { keepsMore($0, than: $1) }
        if let best, !best.isCurrent {
            // Settings that keep and give exactly as much (both renewal types without a free trial) are named together.
            let tied = rows.filter { value($0) == value(best) }.map(\.setting)
            text +=
                ". " + Self.capitalized(Self.settingNames(tied)) + " would have kept the most: "
                + kept(best, perEpisode: current.isEmpty)
                + ", if each payment came on the same day, which a longer grace may delay"
        } else if !current.isEmpty {
            text += ". No other setting would have kept more paid service, if each payment came on the same day"
        }
        if byApp.values.filter({ ($0.first?.figures.matureEpisodes ?? 0) > 0 }).count > 1 {
            text += "; the other apps are below"
        }
        return text + " " + link + "."
    }

    /// Per app, each setting's paid days kept and free access given per mature episode (and in money where one
    /// currency allows), the settings that explain the data marked, with the assumption beside it.
    func writeGraceWhatIf(to writer: inout MarkdownWriter) {
        writer.heading(Self.graceWhatIfHeading)
        let totals = report.graceWhatIf.filter { $0.productId == nil }
        let byApp = Dictionary(grouping: totals, by: \.bundleId)
        guard byApp.values.contains(where: { ($0.first?.figures.matureEpisodes ?? 0) > 0 }) else {
            writer.paragraph(
                (report.all.outcomes.episodes == 0 ? "No episode" : "No episode is mature yet")
                    + ", so there is nothing to weigh (`grace_whatif.csv`).")
            return
        }
        writer.paragraph(
            "Billing Grace Period is an app's setting in App Store Connect: off, or 3, 16 or 28 days for all "
                + "renewals or paid-to-paid only (none after a free trial); a weekly product gets 3 days, or 6 under 16 "
                + "or 28. Per app over its mature episodes (commitment plans have no grace): the recoveries within each "
                + "setting, the paid days kept and free days given per episode, in money (the price at stake per day) "
                + "where one currency allows; per product in `grace_whatif.csv`.")
        for app in byApp.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let rows = byApp[app], let mature = rows.first?.figures.matureEpisodes, mature > 0 else {
                continue
            }
            let name = app.isEmpty ? "(no bundle id)" : "`\(MarkdownWriter.escape(app))`"
            writer.paragraph("**" + name + "**: " + Self.episodes(mature) + " mature.")
            // Money only where one currency allows it for some setting; otherwise the columns would be all dashes.
            let inMoney = rows.contains { $0.figures.currency != nil }
            writer.table(
                header: ["Setting", "Recovered in grace", "Paid days kept per episode", "Free access days per episode"]
                    + (inMoney ? ["Paid kept", "Free access given"] : []),
                alignments: [.left, .right, .right, .right] + (inMoney ? [.right, .right] : []),
                rows: rows.map { row in
                    [
                        Self.settingName(row.setting) + (row.isCurrent ? " (fits the data)" : ""),
                        HumanFormat.count(row.figures.recoveredInGrace),
                        Self.days(row.figures.paidKept, per: mature),
                        Self.days(row.figures.freeAccess, per: mature),
                    ]
                        + (inMoney
                            ? [
                                row.figures.currency.map { Self.money(row.figures.paidAmountKept, $0) } ?? "–",
                                row.figures.currency.map { Self.money(row.figures.freeAccessAmount, $0) } ?? "–",
                            ] : [])
                })
        }
        writer.paragraph(
            "*The assumption:* each recovery comes on the same day whatever the setting. Losing access is itself "
                + "associated with payment (the grace-end days of the daily hazard), so a longer grace may move some "
                + "recoveries later: read the rows as what the same recoveries would be worth, not as a forecast.")
    }

    /// `16 days, all renewals`, `3 days, paid to paid only`, or `no grace period (off)`.
    static func settingName(_ setting: GraceWhatIf.Setting) -> String {
        guard let duration = setting.duration else { return "no grace period (off)" }
        let type = setting.renewalType == .paidToPaidOnly ? "paid to paid only" : "all renewals"
        return "\(duration) days, \(type)"
    }

    /// Settings as one phrase, a duration fitting under both renewal types named once: `16 days (all renewals or
    /// paid to paid only)`, `16 or 28 days, all renewals`.
    static func settingNames(_ settings: [GraceWhatIf.Setting]) -> String {
        var parts: [String] = []
        var index = settings.startIndex
        while index < settings.endIndex {
            let setting = settings[index]
            let next = settings.index(after: index)
            if let duration = setting.duration, next < settings.endIndex, settings[next].duration == duration {
                parts.append("\(duration) days (all renewals or paid to paid only)")
                index = settings.index(after: next)
            } else {
                parts.append(settingName(setting))
                index = next
            }
        }
        return parts.joined(separator: " or ")
    }

    /// The text with its first letter in upper case.
    static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    /// An estimated amount in currency units, to the currency's minor unit: `USD 1,234.56`, `JPY 32,850`.
    static func money(_ amount: Double?, _ currency: String) -> String {
        guard let amount, amount.isFinite, abs(amount) < 9e12 else { return "–" }
        return HumanFormat.money(HumanFormat.estimate(amount, currency: currency), currency: currency)
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
