import AppleReports
import Foundation
import FuzzSupport

exit(runFuzzer(fuzzAppleReport))

/// App Store Connect report files as `churn report --apple-reports` reads them (``AppleReportFile``), from arbitrary
/// bytes.
///
/// The first byte picks a header (Subscription Event as Apple documents it, as some downloaded files name it, or
/// Subscription State), the second where to cut the lines, and the rest are the file's lines under that header.
/// The properties, each a crash (and the input kept) when broken:
/// - the reader returns a file or throws its error, for the lines under a header and for the bytes as a whole file;
/// - a file read in two segments cut at a line, added (``AppleReportFile/adding(_:)``, as Apple splits an instance),
///   holds what the whole file holds: the counts, paid service days and combinations of each date and value, the
///   unreadable days and the notices;
/// - the same lines twice count twice: each date's and value's counts and paid service days double, and its
///   combinations stay.
func fuzzAppleReport(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    if let text = String(validating: bytes, as: UTF8.self) {
        _ = try? AppleReportFile.parse(text, path: "fuzz.txt")
    }
    guard bytes.count >= 2, let body = String(validating: bytes[2...], as: UTF8.self) else { return 0 }
    let headers = [
        "Event Date\tApp Name\tEvent Sub Type\tEvent Grouping\tPaid Service Days Recovered\tTerritory\tCounts",
        "Event Date\tApp Name\tEvent Name\tEvent Group\tTerritory\tPaid Service Days Recovered\tCount",
        "Date\tApp Name\tState Metric\tState Metric Grouping\tTerritory\tCounts",
    ]
    let header = headers[Int(bytes[0]) % headers.count]
    let path = "fuzz.txt"
    guard let whole = try? AppleReportFile.parse(header + "\n" + body, path: path) else { return 0 }

    let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
    let cut = Int(bytes[1]) % (lines.count + 1)
    let first = lines[..<cut].joined(separator: "\n")
    let second = lines[cut...].joined(separator: "\n")
    guard let head = try? AppleReportFile.parse(header + "\n" + first, path: path),
        let tail = try? AppleReportFile.parse(header + "\n" + second, path: path)
    else { preconditionFailure("the whole file reads, but one of its segments does not") }
    let sum = head.adding(tail)
    precondition(sum.days == whole.days, "the segments' counts differ from the whole file's")
    precondition(sum.paidServiceDays == whole.paidServiceDays, "the segments' paid service days differ")
    precondition(sum.paidServiceDaysUnreadable == whole.paidServiceDaysUnreadable, "the unreadable days differ")
    precondition(sum.combinations == whole.combinations, "the segments' combinations differ")
    precondition(sum.notices.count == whole.notices.count, "the segments' notices differ in number")

    // The lines twice: every count and paid service day doubles, and the dates, values and combinations stay.
    guard let twice = try? AppleReportFile.parse(header + "\n" + body + "\n" + body, path: path) else {
        preconditionFailure("the file reads, but not with its lines twice")
    }
    precondition(
        twice.days == whole.days.mapValues { $0.mapValues { $0 + $0 } }, "the lines twice do not count twice")
    precondition(
        twice.paidServiceDays == whole.paidServiceDays?.mapValues { $0 + $0 },
        "the lines twice do not count their paid service days twice")
    precondition(twice.combinations == whole.combinations, "the lines twice make other combinations")
    precondition(twice.notices.count == 2 * whole.notices.count, "the lines twice do not give their notices twice")
    return 0
}
