import Analysis
import Testing

@Suite struct DataQualityTests {
    @Test func everyCheckThenRejectionsByReason() {
        let rows = DataQuality.rows(
            counts: DataQualityCounts(duplicatesSkipped: 4, graceEndUnknown: 10),
            rejections: ["malformed_json": 1, "bad_signature": 2])
        #expect(rows.count == 13)
        #expect(rows.first == DataQuality.Row(check: "duplicates_skipped", count: 4))
        #expect(
            rows.suffix(3) == [
                DataQuality.Row(check: "grace_end_unknown", count: 10),
                DataQuality.Row(check: "rejected_bad_signature", count: 2),
                DataQuality.Row(check: "rejected_malformed_json", count: 1),
            ])
        #expect(DataQuality.rows(counts: DataQualityCounts()).map(\.count) == Array(repeating: 0, count: 11))
    }

    @Test func countsAddUp() {
        var total = DataQualityCounts(duplicatesSkipped: 1, orphanGracePeriodExpired: 2)
        total.add(DataQualityCounts(duplicatesSkipped: 2, lateFailureNotice: 1, graceEndUnknown: 4))
        #expect(
            total
                == DataQualityCounts(
                    duplicatesSkipped: 3, orphanGracePeriodExpired: 2, lateFailureNotice: 1, graceEndUnknown: 4))
    }
}
