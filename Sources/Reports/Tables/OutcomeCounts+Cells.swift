import Analysis

extension OutcomeCounts {
    /// `episodes, recovered, expired, cancelled, other, open, recovery_rate` as cells.
    var cells: [ReportTable.Cell] {
        [
            .integer(episodes), .integer(recovered), .integer(expired), .integer(cancelled), .integer(other),
            .integer(open), .ratio(recovered, closed),
        ]
    }
}
