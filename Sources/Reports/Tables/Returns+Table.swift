import Analysis

extension Returns {
    package static let fileName = "returns.csv"
    package static let valueColumns = ["expired", "returned", "returned_30d", "returned_90d", "returned_180d"]

    /// `returns.csv` (grouped by month) or `churn query returns` (by month, product or storefront): one row per
    /// group, the total as `(all)`; a share is empty where no follow-up reaches its day.
    package static func table(_ rows: [Row], grouping: Grouping = .month, name: String = fileName) -> ReportTable {
        let groupColumn =
            switch grouping {
            case .month: "month"
            case .product: "product_id"
            case .storefront: "storefront"
            }
        return ReportTable(
            name: name,
            columns: [groupColumn] + valueColumns,
            rows: rows.map { row in
                [
                    .text(row.group), .integer(row.expired), .integer(row.returned), share(row.returned30d),
                    share(row.returned90d), share(row.returned180d),
                ]
            })
    }

    private static func share(_ value: Double?) -> ReportTable.Cell {
        value.map { .decimal($0, places: ReportTable.Cell.ratePlaces) } ?? .empty
    }
}
