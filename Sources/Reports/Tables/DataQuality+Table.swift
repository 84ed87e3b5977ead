import Analysis

extension DataQuality {
    package static let fileName = "data_quality.csv"
    package static let columns = ["check", "count"]

    /// `data_quality.csv`: one row per check.
    package static func table(_ rows: [Row]) -> ReportTable {
        ReportTable(name: fileName, columns: columns, rows: rows.map { [.text($0.check), .integer($0.count)] })
    }
}
