import AppleReports
import CivilTime
import Foundation
import Testing

@Suite struct AppleReportReaderTests {
    private typealias Event = AppleReportFiles.Event

    private static func day(_ text: String) throws -> Int {
        try #require(CivilDate(parsing: text)).daysSinceEpoch
    }

    private static let events = [
        Event(
            date: "2026-03-02", grouping: "Entered Billing Issue", subType: "Entered Grace Period from Full Price",
            counts: 12),
        Event(
            date: "2026-03-02", grouping: "Entered Billing Issue", subType: "Entered Grace Period from Full Price",
            territory: "GB", counts: 7),
        Event(
            date: "2026-03-02", grouping: "Entered Billing Issue", subType: "Entered Billing Retry from Free Trial",
            counts: 5),
        Event(
            date: "2026-03-03", grouping: "Recoveries from Billing Issue",
            subType: "Full Price Recoveries from Grace Period", counts: 9, paidServiceDays: 31),
        Event(
            date: "2026-03-03", grouping: "Involuntary Churn", subType: "Involuntary Churn from Full Price", counts: 6),
        Event(date: "2026-03-03", grouping: "Paid Renewals", subType: "Paid Renewal", counts: 140),
        Event(
            date: "2026-03-03", grouping: "Entered Billing Issue", subType: "Entered Billing Retry from Layaway",
            counts: 8),
    ]

    private static func expectCounts(_ file: AppleReportFile) throws {
        let march2 = try day("2026-03-02")
        let march3 = try day("2026-03-03")
        #expect(file.kind == .subscriptionEvent)
        #expect(
            file.days[march2]?["Entered Grace Period from Full Price"] == AppleReportFile.Amount(total: 19, values: 2))
        #expect(
            file.days[march2]?["Entered Billing Retry from Free Trial"] == AppleReportFile.Amount(total: 5, values: 1))
        #expect(file.days[march3]?["Full Price Recoveries from Grace Period"]?.total == 9)
        #expect(file.days[march3]?["Involuntary Churn from Full Price"]?.total == 6)
        // Values the comparison does not know are kept as written.
        #expect(file.days[march3]?["Paid Renewal"]?.total == 140)
        #expect(file.days[march3]?["Entered Billing Retry from Layaway"]?.total == 8)
        #expect(file.paidServiceDays?[march3] == AppleReportFile.Amount(total: 31, values: 1))
        #expect(file.paidServiceDays?[march2] == nil)
        #expect(file.days.count == 2)
    }

    @Test func readsTheDocumentedColumnsPlain() throws {
        let directory = try AppleReportFiles.directory()
        let path = try AppleReportFiles.write(
            AppleReportFiles.eventText(Self.events), named: "events.txt", in: directory)
        let file = try AppleReportFile.read(path: path)
        try Self.expectCounts(file)
        #expect(file.groupings["Entered Billing Retry from Layaway"] == "Entered Billing Issue")
    }

    /// A file saved with Windows line ends (CR LF) reads as the same file with LF: Swift takes CR LF for one
    /// character, which a split on "\n" does not split.
    @Test func readsAFileWithWindowsLineEnds() throws {
        let directory = try AppleReportFiles.directory()
        let text = AppleReportFiles.eventText(Self.events).replacingOccurrences(of: "\n", with: "\r\n")
        #expect(text.contains("\r\n"))
        let path = try AppleReportFiles.write(text, named: "events-crlf.txt", in: directory)
        let file = try AppleReportFile.read(path: path)
        try Self.expectCounts(file)
        #expect(file.groupings["Entered Billing Retry from Layaway"] == "Entered Billing Issue")
        // Empty lines with Windows ends, and a last line of a lone carriage return, are blank.
        let blank = try AppleReportFile.parse(AppleReportFiles.eventText(Self.events) + "\r\n\r\n\r", path: "b.txt")
        try Self.expectCounts(blank)
    }

    /// Counts that add up past a 64-bit integer are refused with the line, not a crash; segments added are held
    /// at `Int.max`.
    @Test func refusesCountsThatAddUpPastAnInteger() throws {
        let big = Int.max
        let text = AppleReportFiles.eventText([
            Event(date: "2026-03-02", grouping: "Involuntary Churn", subType: "Involuntary Churn", counts: big),
            Event(date: "2026-03-02", grouping: "Involuntary Churn", subType: "Involuntary Churn", counts: 1),
        ])
        #expect(throws: AppleReportError.self) { try AppleReportFile.parse(text, path: "big.txt") }
        do {
            _ = try AppleReportFile.parse(text, path: "big.txt")
        } catch let error as AppleReportError {
            #expect(error.description.contains("line 3"))
        }
        let paid = AppleReportFiles.eventText([
            Event(
                date: "2026-03-03", grouping: "Recoveries from Billing Issue",
                subType: "Full Price Recoveries from Grace Period", counts: 1, paidServiceDays: big),
            Event(
                date: "2026-03-03", grouping: "Recoveries from Billing Issue",
                subType: "Full Price Recoveries from Grace Period", territory: "GB", counts: 1, paidServiceDays: 1),
        ])
        #expect(throws: AppleReportError.self) { try AppleReportFile.parse(paid, path: "paid.txt") }
        let one = try AppleReportFile.parse(AppleReportFiles.eventText([Self.events[0]]), path: "one.txt")
        var huge = one
        huge.days = huge.days.mapValues { $0.mapValues { _ in AppleReportFile.Amount(total: big, values: 1) } }
        let sum = huge.adding(one)
        #expect(sum.days.values.allSatisfy { $0.values.allSatisfy { $0.total == big && $0.values == 2 } })
    }

    @Test func readsTheVariantHeadersGzipped() throws {
        let directory = try AppleReportFiles.directory()
        let path = try AppleReportFiles.write(
            AppleReportFiles.eventText(Self.events, header: AppleReportFiles.variantEventHeader),
            named: "events.txt.gz", in: directory, gzip: true)
        try Self.expectCounts(try AppleReportFile.read(path: path))
    }

    @Test func readsTheStateReport() throws {
        let directory = try AppleReportFiles.directory()
        let path = try AppleReportFiles.write(
            AppleReportFiles.stateText([
                ("2026-03-02", "Grace period", "US", 40), ("2026-03-02", "Grace period", "GB", 11),
                ("2026-03-02", "Billing retry", "US", 230), ("2026-03-02", "Suspended", "US", 9),
            ]), named: "state.txt.gz", in: directory, gzip: true)
        let file = try AppleReportFile.read(path: path)
        let march2 = try Self.day("2026-03-02")
        #expect(file.kind == .subscriptionState)
        #expect(file.days[march2]?["Grace period"] == AppleReportFile.Amount(total: 51, values: 2))
        #expect(file.days[march2]?["Billing retry"]?.total == 230)
        #expect(file.days[march2]?["Suspended"]?.total == 9)
        #expect(file.paidServiceDays == nil)
    }

    @Test func laterFilesRestateDays() throws {
        let directory = try AppleReportFiles.directory()
        let early = Date(timeIntervalSince1970: 1_772_000_000)
        // Named so that name order and modification order disagree: modification time decides.
        let later = try AppleReportFiles.write(
            AppleReportFiles.eventText([
                Event(
                    date: "2026-03-03", grouping: "Involuntary Churn", subType: "Involuntary Churn from Full Price",
                    counts: 11)
            ]), named: "a-later.txt", in: directory, modified: early.addingTimeInterval(86_400))
        let first = try AppleReportFiles.write(
            AppleReportFiles.eventText(Self.events), named: "b-first.txt.gz", in: directory, gzip: true,
            modified: early)
        let set = try AppleReportSet.read(paths: [directory.path])
        let march2 = try Self.day("2026-03-02")
        let march3 = try Self.day("2026-03-03")
        #expect(set.files.map(\.path) == [first, later])
        #expect(set.files.map(\.restated) == [0, 1])
        // The later file's day replaces the earlier one's rows for that day, not adds to them.
        #expect(
            set.eventDays[march3] == ["Involuntary Churn from Full Price": AppleReportFile.Amount(total: 11, values: 1)]
        )
        #expect(set.paidServiceDays[march3] == nil)
        #expect(set.paidServiceDaysStated.contains(march3))
        // A day the later file does not state keeps the earlier file's counts.
        #expect(set.eventDays[march2]?["Entered Grace Period from Full Price"]?.total == 19)
    }

    @Test func sameModificationTimeKeepsTheOrderGiven() throws {
        let directory = try AppleReportFiles.directory()
        let time = Date(timeIntervalSince1970: 1_772_000_000)
        let one = try AppleReportFiles.write(
            AppleReportFiles.stateText([("2026-03-02", "Billing retry", "US", 10)]), named: "one.txt", in: directory,
            modified: time)
        let two = try AppleReportFiles.write(
            AppleReportFiles.stateText([("2026-03-02", "Billing retry", "US", 20)]), named: "two.txt", in: directory,
            modified: time)
        let march2 = try Self.day("2026-03-02")
        #expect(try AppleReportSet.read(paths: [one, two]).stateDays[march2]?["Billing retry"]?.total == 20)
        #expect(try AppleReportSet.read(paths: [two, one]).stateDays[march2]?["Billing retry"]?.total == 10)
    }

    @Test func refusesAFileWithoutTheColumnsItNeeds() throws {
        let directory = try AppleReportFiles.directory()
        let path = try AppleReportFiles.write(
            "Event Date\tApp Name\tTerritory\n2026-03-02\tExample\tUS\n", named: "other.txt", in: directory)
        let error = try #require(throws: AppleReportError.self) { try AppleReportFile.read(path: path) }
        #expect(error.path == path)
        #expect(error.description.contains(path))
        #expect(error.description.contains("'Event Date', 'App Name', 'Territory'"))
        #expect(error.description.contains("'Event Sub Type'"))
    }

    @Test func refusesAnEventReportWithoutCounts() throws {
        let directory = try AppleReportFiles.directory()
        let path = try AppleReportFiles.write(
            "Event Date\tEvent Sub Type\n2026-03-02\tEntered Grace Period from Full Price\n", named: "e.txt",
            in: directory, gzip: true)
        let error = try #require(throws: AppleReportError.self) { try AppleReportFile.read(path: path) }
        #expect(
            error.description == "\(path), line 1: the App Store Subscription Event report needs the column "
                + "'Counts'; the header has 'Event Date', 'Event Sub Type'")
    }

    @Test func namesTheLineOfABadCount() throws {
        let directory = try AppleReportFiles.directory()
        let path = try AppleReportFiles.write(
            "Date\tState Metric\tCounts\n2026-03-02\tGrace period\t12\n2026-03-03\tGrace period\tmany\n",
            named: "s.txt", in: directory)
        let error = try #require(throws: AppleReportError.self) { try AppleReportFile.read(path: path) }
        #expect(error.line == 3)
        #expect(error.reason == "Counts 'many' is not a whole number")
    }

    @Test func refusesATruncatedGzipFile() throws {
        let directory = try AppleReportFiles.directory()
        let path = try AppleReportFiles.write(
            AppleReportFiles.stateText([("2026-03-02", "Billing retry", "US", 10)]), named: "s.txt.gz", in: directory,
            gzip: true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count - 6).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: AppleReportError.self) { try AppleReportFile.read(path: path) }
        #expect(error.description.contains("truncated"))
    }
}
