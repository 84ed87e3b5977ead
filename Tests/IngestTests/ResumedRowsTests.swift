@testable import Ingest
import Testing

/// Which of a batch's rows a killed load of the same file stored already: the file's own rows, which the next load
/// neither stores again nor counts as resent.
@Suite struct ResumedRowsTests {
    static func key(_ number: Int) -> NotificationKey {
        NotificationKey(subscription: "sub-\(number)", uuid: "00000000-0000-4000-8000-00000000000\(number)")
    }

    static func spans(_ rows: [(key: Int, line: Int64)]) -> [(range: Range<Int>, key: NotificationKey, line: Int64?)] {
        rows.map { (0..<0, key($0.key), $0.line) }
    }

    @Test func aRowStoredFromTheSameLineByAnUnfinishedLoadOfThePathIsResumed() {
        let origins = [
            Self.key(1): NotificationKey.Origin(line: 10, isUnfinishedLoadOfPath: true),
            // Stored by a file stored whole, or another path: a resend.
            Self.key(2): NotificationKey.Origin(line: 11, isUnfinishedLoadOfPath: false),
            // Stored by the killed attempt from line 12: line 40 holds a resend of it.
            Self.key(3): NotificationKey.Origin(line: 12, isUnfinishedLoadOfPath: true),
        ]
        let batch = Self.spans([(1, 10), (2, 11), (3, 40), (4, 41)])
        #expect(Loader.resumedCount(batch, origins) == 1)
    }

    /// A line of a history page holds several notifications; one resent within the page is a duplicate once the
    /// first copy is resumed.
    @Test func eachStoredRowIsResumedOnce() {
        let origins = [Self.key(1): NotificationKey.Origin(line: 3, isUnfinishedLoadOfPath: true)]
        #expect(Loader.resumedCount(Self.spans([(1, 3), (1, 3)]), origins) == 1)
        #expect(Loader.resumedCount(Self.spans([(1, 3), (2, 3)]), [:]) == 0)
    }
}
