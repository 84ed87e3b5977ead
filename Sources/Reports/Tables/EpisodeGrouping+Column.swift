import Analysis
import AppStoreNotifications

extension EpisodeGrouping {
    /// The columns the grouping fills, named like the report's columns where there is one: `offer-type` adds the
    /// offer's name beside its code, and `grace-length` typed (for JSON) says `has_grace` before `grace_days`, so that
    /// no grace and a grace of unknown length stay apart without a word in a number column.
    /// - Parameter typed: for JSON: values typed, no words standing in for them.
    package func columns(typed: Bool) -> [String] {
        switch self {
        case .cohortMonth, .cohortWeek: return ["cohort"]
        case .app: return ["bundle_id"]
        case .product: return ["product_id"]
        case .storefront: return ["storefront"]
        case .offerType: return ["offer_type", "offer_type_name"]
        case .graceLength: return typed ? ["has_grace", "grace_days"] : ["grace_days"]
        }
    }

    /// One group's cells in ``columns(typed:)``.
    ///
    /// In words (text, CSV, Markdown): `none` without an offer or a grace period, `unknown` for a grace period of
    /// unknown length. Typed: those are empty (`null`), `has_grace` telling the two apart; an empty product or
    /// storefront is empty in both.
    /// - Parameters:
    ///   - value: the group's value of this attribute.
    ///   - typed: for JSON.
    package func cells(_ value: Value, typed: Bool) -> [ReportTable.Cell] {
        switch (self, value) {
        case (.offerType, .number(let code)):
            return [.integer(code), Self.offerTypeName(code)]
        case (.offerType, _):
            return [typed ? .empty : .text("none"), .empty]
        case (.graceLength, .number(let days)):
            return typed ? [.boolean(true), .integer(days)] : [.integer(days)]
        case (.graceLength, .unknown):
            return typed ? [.boolean(true), .empty] : [.text("unknown")]
        case (.graceLength, _):
            return typed ? [.boolean(false), .empty] : [.text("none")]
        case (_, .period(let period)):
            return [.text(period.description)]
        case (_, .text(let text)):
            return [text.isEmpty ? .empty : .text(text)]
        case (_, .number(let number)):
            return [.integer(number)]
        case (_, .none):
            return [typed ? .empty : .text("none")]
        case (_, .unknown):
            return [typed ? .empty : .text("unknown")]
        }
    }

    /// The cells of the row over every group: `(all)` in words; empty when typed, where `is_total` marks the row.
    package func totalCells(typed: Bool) -> [ReportTable.Cell] {
        columns(typed: typed).map { _ in typed ? .empty : .text(ReportTable.total) }
    }

    /// Apple's name of an offer type code (`INTRODUCTORY_OFFER`), empty for a code Apple does not document.
    package static func offerTypeName(_ code: Int) -> ReportTable.Cell {
        Int32(exactly: code).flatMap(OfferType.init(rawValue:)).map { .text($0.name) } ?? .empty
    }
}
