import Analysis

extension EpisodeGrouping {
    /// The column the grouping fills, named like the report's columns where there is one.
    package var column: String {
        switch self {
        case .cohortMonth, .cohortWeek: return "cohort"
        case .product: return "product_id"
        case .storefront: return "storefront"
        case .offerType: return "offer_type"
        case .graceLength: return "grace_days"
        }
    }
}

extension EpisodeGrouping.Value {
    /// The value as a table cell: numbers as integers, `none` and `unknown` as words.
    package var cell: ReportTable.Cell {
        switch self {
        case .none: return .text("none")
        case .number(let number): return .integer(number)
        case .period(let period): return .text(period.description)
        case .text(let text): return .text(text)
        case .unknown: return .text("unknown")
        }
    }
}
