import Testing

@testable import Ingest

/// What the loader does with each row of a batch (``BatchPlan``): the earliest-signed copy of each notification is
/// stored, a later one is a further copy, and a row a killed load of the same file stored already is the file's own.
@Suite struct ResumedRowsTests {
    static func key(_ number: Int) -> NotificationKey {
        NotificationKey(subscription: "sub-\(number)", uuid: "00000000-0000-4000-8000-00000000000\(number)")
    }

    static func rows(_ rows: [(key: Int, line: Int64)], signedAt signedDate: Int64 = 1_000) -> [BatchPlan.Row] {
        rows.map { BatchPlan.Row(range: 0..<0, key: key($0.key), line: $0.line, signedDate: signedDate) }
    }

    @Test func aRowStoredFromTheSameLineByAnUnfinishedLoadOfThePathIsResumed() {
        let origins = [
            Self.key(1): NotificationKey.Origin(line: 10, isUnfinishedLoadOfPath: true, signedDate: 1_000),
            // Stored by a file stored whole, or another path: a copy.
            Self.key(2): NotificationKey.Origin(line: 11, isUnfinishedLoadOfPath: false, signedDate: 1_000),
            // Stored by the killed attempt from line 12: line 40 holds a copy of it.
            Self.key(3): NotificationKey.Origin(line: 12, isUnfinishedLoadOfPath: true, signedDate: 1_000),
        ]
        let plan = BatchPlan(rows: Self.rows([(1, 10), (2, 11), (3, 40), (4, 41)]), origins: origins)
        #expect(plan.resumed == 1)
        #expect(plan.copies == [1, 2])
        #expect(plan.stored == [3])
        #expect(plan.added == 1)
    }

    /// A line of a history page holds several notifications; one repeated within the page is a copy once the
    /// first is resumed.
    @Test func eachStoredRowIsResumedOnce() {
        let origins = [Self.key(1): NotificationKey.Origin(line: 3, isUnfinishedLoadOfPath: true, signedDate: 1_000)]
        let plan = BatchPlan(rows: Self.rows([(1, 3), (1, 3)]), origins: origins)
        #expect(plan.resumed == 1)
        #expect(plan.copies == [1])
        #expect(BatchPlan(rows: Self.rows([(1, 3), (2, 3)]), origins: [:]).resumed == 0)
    }

    @Test func theEarliestSignedCopyIsStoredAndEqualTimesKeepTheFirst() {
        var rows = Self.rows([(1, 1), (1, 2), (1, 3), (2, 4), (2, 5)])
        rows[0].signedDate = 3_000
        rows[1].signedDate = 1_000
        rows[2].signedDate = 2_000
        let plan = BatchPlan(rows: rows, origins: [:])
        #expect(plan.stored == [1, 3])
        #expect(plan.copies == [0, 2, 4])
        #expect(plan.replaced.isEmpty)
        #expect(plan.added == 2)
    }

    @Test func aCopySignedEarlierThanTheStoredOneReplacesIt() {
        let origins = [
            Self.key(1): NotificationKey.Origin(line: 7, isUnfinishedLoadOfPath: false, signedDate: 5_000),
            Self.key(2): NotificationKey.Origin(line: 8, isUnfinishedLoadOfPath: false, signedDate: 1_000),
        ]
        var rows = Self.rows([(1, 1), (1, 2), (2, 3)])
        rows[0].signedDate = 4_000
        rows[1].signedDate = 3_000
        // Signed when the stored copy was: the same notification, which stays.
        rows[2].signedDate = 1_000
        let plan = BatchPlan(rows: rows, origins: origins)
        #expect(plan.replaced == [Self.key(1)])
        #expect(plan.stored == [1])
        #expect(plan.copies == [0, 2])
        #expect(plan.added == 0)
    }
}
