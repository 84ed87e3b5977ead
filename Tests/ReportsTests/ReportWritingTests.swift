import Analysis
import Foundation
import Reports
import Testing

@Suite struct ReportWritingTests {
    @Test func writesEveryFileAndNoTemporaryOnes() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        // Parents are created as needed.
        let directory = root.url.appendingPathComponent("reports/2024-07-01")
        try Sample.report().write(to: directory)
        #expect(try TemporaryDirectory.names(in: directory) == Report.fileNames.sorted())
    }

    /// Returns found while the report is written (the server finding them meanwhile) are asked for once every file
    /// that does not show them is written; then come `returns.csv`, the summary, and `headline.json` last. The files
    /// are those of the report with the returns in.
    @Test func theReturnsComeOnceTheOtherFilesAreWrittenAndTheHeadlineLast() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let directory = root.url.appendingPathComponent("2024-07-01")
        var report = Sample.report()
        var returns = Returns.Tally(asOf: report.asOf)
        let day: Int64 = 86_400_000
        returns.add(.init(subscription: "s1", end: report.asOf - 40 * day, returnedAt: report.asOf - 20 * day))
        returns.add(.init(subscription: "s2", end: report.asOf - 35 * day, returnedAt: nil))
        let rows = returns.rows
        #expect(!rows.isEmpty)
        var writtenBefore: [String] = []
        try report.write(to: directory) {
            writtenBefore = try TemporaryDirectory.names(in: directory)
            return rows
        }
        let showingReturns = ["returns.csv", "summary.md", "headline.json"]
        #expect(writtenBefore == Report.fileNames.filter { !showingReturns.contains($0) }.sorted())
        #expect(report.figures.returns == rows)
        for file in try report.files() {
            #expect(try TemporaryDirectory.read(directory.appendingPathComponent(file.name)) == file.contents)
        }
        #expect(try TemporaryDirectory.read(directory.appendingPathComponent("summary.md")).contains("came back"))
        func modified(_ name: String) throws -> Date {
            try #require(
                try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[
                    .modificationDate] as? Date)
        }
        let headline = try modified("headline.json")
        for name in Report.fileNames { #expect(try modified(name) <= headline, "\(name)") }
    }

    @Test func replacesAnExistingReportFileByFile() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let directory = root.url.appendingPathComponent("2024-07-01")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let summary = directory.appendingPathComponent("summary.md")
        try Data("old summary\n".utf8).write(to: summary)
        try Data("kept\n".utf8).write(to: directory.appendingPathComponent("notes.txt"))

        // A reader that opened the old file keeps seeing it whole: the new file is renamed over the name.
        let reader = try FileHandle(forReadingFrom: summary)
        defer { try? reader.close() }
        try Sample.report().write(to: directory)
        #expect(String(decoding: try reader.readToEnd() ?? Data(), as: UTF8.self) == "old summary\n")

        let files = try Sample.report().files()
        for file in files {
            #expect(try TemporaryDirectory.read(directory.appendingPathComponent(file.name)) == file.contents)
        }
        #expect(try TemporaryDirectory.read(directory.appendingPathComponent("notes.txt")) == "kept\n")
        #expect(try TemporaryDirectory.names(in: directory) == (Report.fileNames + ["notes.txt"]).sorted())

        // Writing again over the same files changes nothing.
        try Sample.report().write(to: directory)
        for file in files {
            #expect(try TemporaryDirectory.read(directory.appendingPathComponent(file.name)) == file.contents)
        }
    }

    @Test func aFileThatCannotBeReplacedFailsCleanly() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let directory = root.url.appendingPathComponent("2024-07-01")
        // A directory where summary.md belongs: rename(2) cannot put a file there.
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("summary.md/inside"), withIntermediateDirectories: true)
        #expect {
            try Sample.report().write(to: directory)
        } throws: { error in
            guard let error = error as? ReportsError else { return false }
            return error.path.hasSuffix("2024-07-01/summary.md") && error.operation == "writing the report"
        }
        let names = try TemporaryDirectory.names(in: directory)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
        // The files before it were written; headline.json, written last, was not.
        #expect(names.contains("recovery_curve.svg"))
        #expect(!names.contains("headline.json"))
    }

    @Test func aDirectoryThatCannotBeCreatedFails() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let file = root.url.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        #expect(throws: ReportsError.self) {
            try Sample.report().write(to: file.appendingPathComponent("2024-07-01"))
        }
    }

    @Test func writeAtomicallyReplacesContents() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let url = root.url.appendingPathComponent("file.csv")
        try ReportDirectory.writeAtomically(Data("one\n".utf8), to: url)
        try ReportDirectory.writeAtomically(Data("two\n".utf8), to: url)
        #expect(try TemporaryDirectory.read(url) == "two\n")
        #expect(try TemporaryDirectory.names(in: root.url) == ["file.csv"])
    }
}
