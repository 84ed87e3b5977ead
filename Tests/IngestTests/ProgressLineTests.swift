import Ingest
import Testing

/// The progress bar's line: what it shows, and that it fits the terminal's width whatever the path.
@Suite struct ProgressLineTests {
    static let megabytes: Int64 = 1_000_000

    /// Half of a 20 MB file read in 5 s: 2 MB/s, 10 MB left, so 5 s to go.
    static let halfway = LoadProgress(
        file: "data/demo/export.jsonl", bytesRead: 10 * megabytes, fileSize: 20 * megabytes, records: 41_200,
        rejected: 3)

    @Test func aWideTerminalGetsEveryFigure() {
        let line = Self.halfway.line(elapsedSeconds: 5, width: 120)
        #expect(
            line == "data/demo/export.jsonl [###############...............] 50% 10.0 MB/20.0 MB 2.0 MB/s ETA 0:05 "
                + "41,200 records 3 rejected")
        #expect(line.count <= 120)
    }

    @Test func severalFilesShowTheirPlaceAndAnETAOverTheWholeRun() {
        let progress = LoadProgress(
            file: "day2.jsonl.gz", fileIndex: 1, fileCount: 4, bytesRead: 1 * Self.megabytes,
            fileSize: 10 * Self.megabytes, records: 10, totalBytesRead: 30 * Self.megabytes,
            totalSize: 120 * Self.megabytes)
        // 30 MB in 60 s: 0.5 MB/s, 90 MB left, 180 s.
        let line = progress.line(elapsedSeconds: 60, width: 200)
        #expect(line.hasPrefix("2/4 day2.jsonl.gz ["))
        #expect(line.hasSuffix("] 25% 30.0 MB/120.0 MB 500.0 kB/s ETA 3:00 10 records 0 rejected"))
    }

    @Test(arguments: [
        (0.4, "0:01"), (42.0, "0:42"), (725.0, "12:05"), (3723.0, "1:02:03"), (Double.infinity, "--:--"),
    ])
    func durations(seconds: Double, text: String) {
        #expect(LoadProgress.duration(seconds) == text)
    }

    @Test func beforeAnyByteTheETAIsUnknown() {
        let start = LoadProgress(file: "export.jsonl", bytesRead: 0, fileSize: 500, records: 0)
        #expect(start.line(elapsedSeconds: 0, width: 200).contains("0% 0 B/500 B 0 B/s ETA --:--"))
    }

    @Test func standardInputHasNoBarShareOrETA() {
        let stdin = LoadProgress(file: "-", bytesRead: 2_500_000, fileSize: nil, records: 7)
        #expect(stdin.line(elapsedSeconds: 1, width: 200) == "<stdin> 2.5 MB 2.5 MB/s 7 records 0 rejected")
    }

    @Test func aLongPathLosesItsMiddleAndKeepsTheFileName() {
        let directory = String(repeating: "nested-directory/", count: 12)
        let progress = LoadProgress(
            file: "/srv/exports/" + directory + "2026-11-20.jsonl.gz", bytesRead: 10 * Self.megabytes,
            fileSize: 20 * Self.megabytes, records: 41_200, rejected: 3)
        let line = progress.line(elapsedSeconds: 5, width: 79)
        #expect(line == "/sr…/2026-11-20.jsonl.gz 50% 10.0 MB/20.0 MB ETA 0:05 41,200 records 3 rejected")
        #expect(line.count == 79)
    }

    @Test(arguments: [200, 120, 100, 80, 79, 60, 40, 30, 20, 10, 5, 1])
    func neverWiderThanTheTerminal(width: Int) {
        let long = LoadProgress(
            file: "/srv/exports/" + String(repeating: "x", count: 150) + "/export.jsonl", fileIndex: 11,
            fileCount: 120, bytesRead: 123_456_789, fileSize: 987_654_321, records: 1_234_567, rejected: 89_012)
        for progress in [Self.halfway, long] {
            let line = progress.line(elapsedSeconds: 3, width: width)
            #expect(line.count <= width, "\(line)")
            #expect(!line.contains("\n"))
        }
    }

    @Test func narrowTerminalsDropTheBarThenTheRateThenTheCounts() {
        let full = Self.halfway.line(elapsedSeconds: 5, width: 120)
        let noBar = Self.halfway.line(elapsedSeconds: 5, width: 90)
        #expect(full.contains("[") && !noBar.contains("["))
        #expect(noBar == "data/demo/export.jsonl 50% 10.0 MB/20.0 MB 2.0 MB/s ETA 0:05 41,200 records 3 rejected")
        let noRate = Self.halfway.line(elapsedSeconds: 5, width: 80)
        #expect(noRate == "data/demo/export.jsonl 50% 10.0 MB/20.0 MB ETA 0:05 41,200 records 3 rejected")
        let bare = Self.halfway.line(elapsedSeconds: 5, width: 60)
        #expect(bare == "data/demo/export.jsonl 50% 10.0 MB/20.0 MB ETA 0:05")
    }

    @Test func elisionKeepsMoreOfTheEnd() {
        #expect(LoadProgress.elide("abcdefghij", toWidth: 10) == "abcdefghij")
        #expect(LoadProgress.elide("abcdefghijklmnop", toWidth: 10) == "abc…klmnop")
        #expect(LoadProgress.elide("/srv/exports/day/export.jsonl", toWidth: 16) == "/s…/export.jsonl")
        #expect(LoadProgress.elide("/srv/exports/day/export.jsonl", toWidth: 8) == "…t.jsonl")
        #expect(LoadProgress.elide("abcdef", toWidth: 1) == "…")
        #expect(LoadProgress.elide("abcdef", toWidth: 0) == "")
    }
}
