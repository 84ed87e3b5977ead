/// `data_quality.csv`: one count per check.
///
/// Rows: the eleven checks of ``DataQualityCounts`` in METRICS.md's order, always (zeros included, so the file's
/// shape is stable), then `rejected_<reason>` for each quarantine reason the caller passes, by reason (UTF-8 byte
/// order).
package enum DataQuality {
    package static let fileName = "data_quality.csv"
    package static let columns = ["check", "count"]

    /// The data-quality table.
    ///
    /// - Parameters:
    ///   - counts: what the episode builder counted.
    ///   - rejections: inputs quarantined at load time, by reason (such as `bad_signature`).
    /// - Returns: `data_quality.csv`.
    package static func table(counts: DataQualityCounts, rejections: [String: Int] = [:]) -> ReportTable {
        var table = ReportTable(name: fileName, columns: columns)
        for (check, count) in counts.checks {
            table.rows.append([.text(check), .integer(count)])
        }
        for reason in rejections.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            table.rows.append([.text("rejected_" + reason), .integer(rejections[reason] ?? 0)])
        }
        return table
    }
}
