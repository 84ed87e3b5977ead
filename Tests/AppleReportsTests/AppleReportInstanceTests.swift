import Analysis
import AppleReports
import CivilTime
import Foundation
import Reports
import Testing

/// Apple's report files as Apple writes them: other reports beside the two compared, weekly and monthly instances,
/// segments of one instance, the newest days still incomplete, and `Paid Service Days Recovered` as a string.
@Suite struct AppleReportInstanceTests {
    private typealias Event = AppleReportFiles.Event

    private static func day(_ text: String) throws -> Int {
        try #require(CivilDate(parsing: text)).daysSinceEpoch
    }

    private static func time(_ date: String, hour: Int64 = 12) throws -> Int64 {
        try #require(CivilDate(parsing: date)).unixMilliseconds + hour * Milliseconds.hour
    }

    /// Writes `text` at `relative` (directories made) under `root`.
    @discardableResult
    private static func write(_ text: String, at relative: String, under root: URL, modified: Date? = nil) throws
        -> String
    {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if let modified {
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
        }
        return url.path
    }

    private static func entries(_ date: String, _ counts: Int, territory: String = "US") -> Event {
        Event(
            date: date, grouping: "Entered Billing Issue", subType: "Entered Billing Retry from Full Price",
            territory: territory, counts: counts)
    }

    @Test func anotherReportBesideTheEventReportIsSkippedWithANotice() throws {
        let directory = try AppleReportFiles.directory()
        let events = try AppleReportFiles.write(
            AppleReportFiles.eventText([Self.entries("2026-03-03", 12)]), named: "subscription-event.txt",
            in: directory)
        let messaging = try AppleReportFiles.write(
            "Date\tApp Name\tEvent\tCounts\n2026-03-03\tExample\tMessage Shown\t400\n2026-03-04\tExample\tMessage Shown"
                + "\t300\n", named: "app-store-retention-messaging-daily.txt", in: directory)
        let set = try AppleReportSet.read(paths: [directory.path])
        #expect(set.files.map(\.path) == [events])
        #expect(set.eventDays.keys.sorted() == [try Self.day("2026-03-03")])
        #expect(set.eventDays[try Self.day("2026-03-03")]?["Message Shown"] == nil)
        let notice = try #require(set.notices.first)
        #expect(
            notice.hasPrefix(messaging + ", line 1: looks like an App Store Retention Messaging report"), "\(notice)")
        #expect(notice.hasSuffix("the header has 'Date', 'App Name', 'Event', 'Counts'; skipped"), "\(notice)")

        // Only other reports: nothing to compare is an error naming the file.
        let alone = try AppleReportFiles.directory()
        let path = try AppleReportFiles.write(
            "Date\tEvent\tCounts\n2026-03-03\tImpression\t40\n", named: "discovery-and-engagement.txt", in: alone)
        let error = try #require(throws: AppleReportError.self) { try AppleReportSet.read(paths: [alone.path]) }
        #expect(error.description.contains("no Subscription Event or Subscription State report among the files"))
        #expect(error.description.contains(path + ", line 1: looks like an App Store Discovery and Engagement report"))
    }

    @Test func theGranularityComesFromThePathOrTheDatesSpacing() throws {
        let text = AppleReportFiles.eventText([Self.entries("2026-03-02", 5), Self.entries("2026-03-09", 5)])
        #expect(try AppleReportFile.parse(text, path: "events.txt").granularity == .weekly)
        #expect(
            try AppleReportFile.parse(text, path: "r/SUBSCRIPTION_EVENT/DAILY/ONGOING/20260310/1/0.txt").granularity
                == .daily)
        let month = AppleReportFiles.eventText([Self.entries("2026-03-01", 5)])
        #expect(try AppleReportFile.parse(month, path: "events.txt").granularity == .daily)
        let monthly = try AppleReportFile.parse(month, path: "subscription_event_monthly_2026-04-05.txt")
        #expect(monthly.granularity == .monthly)
        #expect(monthly.processingDay == (try Self.day("2026-04-05")))
        let daily = AppleReportFiles.eventText([Self.entries("2026-03-02", 5), Self.entries("2026-03-03", 5)])
        #expect(try AppleReportFile.parse(daily, path: "events.txt").granularity == .daily)
    }

    /// 30 episodes enter on Tuesday 2026-03-03 (2026-W10), 5 on 2026-03-17 (2026-W12); 10 of the first recover on
    /// 03-05 in retry. As of 2026-04-06 every day of March is complete.
    private static func ours() throws -> BillingIssueDays.Tally {
        var tally = BillingIssueDays.Tally(asOf: try Self.time("2026-04-06", hour: 0))
        for index in 0..<35 {
            let recovered = index < 10
            tally.add(
                Episode(
                    subscription: "s\(index)", start: try Self.time(index < 30 ? "2026-03-03" : "2026-03-17"),
                    end: recovered ? try Self.time("2026-03-05") : nil, outcome: recovered ? .recovered : .open,
                    openingNotificationUUID: "o\(index)"))
        }
        return tally
    }

    @Test func weeklyAndMonthlyFilesAreComparedPerWeekAndPerMonth() throws {
        let recoveries = Event(
            date: "2026-03-02", grouping: "Recoveries from Billing Issue",
            subType: "Full Price Recoveries from Billing Retry", counts: 10)
        func comparison(monthlyEntries: Int) throws -> AppleComparison {
            let weekly = try AppleReportFile.parse(
                AppleReportFiles.eventText([
                    Self.entries("2026-03-02", 17), Self.entries("2026-03-02", 13, territory: "GB"), recoveries,
                ]),
                path: "apple/SUBSCRIPTION_EVENT/WEEKLY/ONGOING/20260313/7/0.txt")
            let monthly = try AppleReportFile.parse(
                AppleReportFiles.eventText([Self.entries("2026-03-01", monthlyEntries)]),
                path: "apple/SUBSCRIPTION_EVENT/MONTHLY/ONGOING/20260405/8/0.txt")
            // A daily file says nothing about 2026-03-02: the weekly file's date is not a day.
            let daily = try AppleReportFile.parse(
                AppleReportFiles.eventText(
                    [Self.entries("2026-03-03", 30)]
                        + ["2026-04-10", "2026-04-11", "2026-04-12"].map {
                            Event(date: $0, grouping: "Paid Renewals", subType: "Paid Renewal", counts: 100)
                        }),
                path: "apple/SUBSCRIPTION_EVENT/DAILY/ONGOING/20260413/9/0.txt")
            return AppleComparison(ours: try Self.ours(), apple: AppleReportSet(files: [daily, weekly, monthly]))
        }
        let agreeing = try comparison(monthlyEntries: 35)
        #expect(!agreeing.days.contains { $0.period == "2026-03-02" })
        #expect(
            agreeing.days.contains { $0.period == "2026-03-03" && $0.metric == .enteredBillingIssue && $0.apple == 30 })
        let week = try #require(agreeing.weeks.first { $0.period == "2026-W10" && $0.metric == .enteredBillingIssue })
        #expect(week.ours == 30)
        #expect(week.apple == 30)
        #expect(week.appleValues == 2)
        let weekRecoveries = try #require(
            agreeing.weeks.first { $0.period == "2026-W10" && $0.metric == .recoveredInRetry })
        #expect(weekRecoveries.ours == 10)
        #expect(weekRecoveries.apple == 10)
        #expect(agreeing.weeks.filter { $0.period == "2026-W10" && $0.metric == .enteredBillingIssue }.count == 1)
        let month = try #require(agreeing.months.first { $0.metric == .enteredBillingIssue })
        #expect(month.granularity == "month")
        #expect(month.period == "2026-03")
        #expect(month.ours == 35)
        #expect(month.apple == 35)
        #expect(agreeing.differingWeeks.isEmpty && agreeing.differingMonths.isEmpty)
        #expect(agreeing.table().rows.contains { $0.first == .text("month") })

        let differing = try comparison(monthlyEntries: 55)
        let differingMonth = try #require(differing.differingMonths.first)
        #expect(differingMonth.sentence.hasPrefix("2026-03: entered billing issue, ours 35 against Apple's 55"))
    }

    @Test func theSegmentsOfOneInstanceAddUpAndALaterProcessingDateRestates() throws {
        let root = try AppleReportFiles.directory()
        let instance = "SUBSCRIPTION_EVENT/DAILY/ONGOING/20260305/1700000000000/"
        let now = Date()
        try Self.write(
            AppleReportFiles.eventText([Self.entries("2026-03-03", 12)]), at: instance + "0.txt", under: root,
            modified: now)
        try Self.write(
            AppleReportFiles.eventText([Self.entries("2026-03-03", 9, territory: "GB")]), at: instance + "1.txt",
            under: root, modified: now.addingTimeInterval(-60))
        let march3 = try Self.day("2026-03-03")
        let set = try AppleReportSet.read(paths: [root.path])
        #expect(
            set.eventDays[march3]?["Entered Billing Retry from Full Price"]
                == AppleReportFile.Amount(total: 21, values: 2))
        #expect(set.files.count == 1)
        #expect(set.files.first?.segments == 2)
        #expect(set.files.first?.restated == 0)

        // A later processing date restates the day, though its file is older on disk.
        try Self.write(
            AppleReportFiles.eventText([Self.entries("2026-03-03", 25)]),
            at: "SUBSCRIPTION_EVENT/DAILY/ONGOING/20260306/1700000000001/0.txt", under: root,
            modified: now.addingTimeInterval(-3_600))
        let restated = try AppleReportSet.read(paths: [root.path])
        #expect(restated.eventDays[march3]?["Entered Billing Retry from Full Price"]?.total == 25)
        #expect(restated.files.map(\.restated) == [0, 1])
    }

    @Test func theNewestThreeDaysAreHeldBackUntilALaterFileRestatesThem() throws {
        let days = (1...9).map { "2026-03-0\($0)" }
        let first = try AppleReportFile.parse(
            AppleReportFiles.eventText(days.map { Self.entries($0, 10) }), path: "events-1.txt")
        let set = AppleReportSet(files: [first])
        #expect(set.heldBack(.subscriptionEvent) == (try ["2026-03-07", "2026-03-08", "2026-03-09"].map(Self.day)))
        var tally = BillingIssueDays.Tally(asOf: try Self.time("2026-03-20", hour: 0))
        tally.add(
            Episode(subscription: "s", start: try Self.time("2026-03-08"), outcome: .open, openingNotificationUUID: "o")
        )
        let held = AppleComparison(ours: tally, apple: set)
        #expect(!held.days.contains { $0.period == "2026-03-08" })
        #expect(held.days.contains { $0.period == "2026-03-06" })
        let notice = try #require(held.notices.first { $0.hasPrefix("held back") })
        #expect(notice.contains("2026-03-07–2026-03-09"), "\(notice)")

        let later = try AppleReportFile.parse(
            AppleReportFiles.eventText([Self.entries("2026-03-08", 1)]), path: "events-2.txt")
        let restated = AppleReportSet(files: [first, later])
        #expect(restated.heldBack(.subscriptionEvent) == (try ["2026-03-07", "2026-03-09"].map(Self.day)))
        let back = AppleComparison(ours: tally, apple: restated)
        let day = try #require(back.days.first { $0.period == "2026-03-08" && $0.metric == .enteredBillingIssue })
        #expect(day.ours == 1)
        #expect(day.apple == 1)
    }

    @Test func aStringPaidServiceDaysIsListedAndOnlyGraceRecoveriesCount() throws {
        let text = AppleReportFiles.eventText([
            Event(
                date: "2026-03-03", grouping: "Recoveries from Billing Issue",
                subType: "Full Price Recoveries from Grace Period", counts: 6, paidServiceDays: 40),
            Event(
                date: "2026-03-03", grouping: "Recoveries from Billing Issue",
                subType: "Full Price Recoveries from Billing Retry", counts: 9, paidServiceDays: 300),
            Event(
                date: "2026-03-04", grouping: "Recoveries from Billing Issue",
                subType: "Full Price Recoveries from Grace Period", counts: 6, paidServiceDays: 7),
        ]).replacingOccurrences(of: "\t7\t", with: "\tabout a week\t")
        let file = try AppleReportFile.parse(text, path: "events.txt")
        #expect(file.paidServiceDays?[try Self.day("2026-03-03")] == AppleReportFile.Amount(total: 40, values: 1))
        #expect(file.paidServiceDays?[try Self.day("2026-03-04")] == nil)
        #expect(file.paidServiceDaysUnreadable == [try Self.day("2026-03-04")])
        #expect(file.notices.count == 1)
        #expect(file.notices.first?.hasPrefix("events.txt, line 4: Paid Service Days Recovered 'about a week'") == true)
        let set = AppleReportSet(files: [file])
        #expect(set.notices == file.notices)
        #expect(set.paidServiceDaysStated == [try Self.day("2026-03-03")])
    }

    @Test func suspendedIsComparedWithOurCommitmentEpisodesKeptOutOfBillingRetry() throws {
        var tally = BillingIssueDays.Tally(asOf: try Self.time("2026-03-20", hour: 0))
        for index in 0..<12 {
            tally.add(
                Episode(
                    subscription: "c\(index)", start: try Self.time("2026-03-02"), outcome: .open,
                    openingNotificationUUID: "c\(index)", billingPlan: index < 8 ? .commitment : .standard))
        }
        var states: [(date: String, metric: String, territory: String, counts: Int)] = [
            ("2026-03-03", "Suspended", "US", 8), ("2026-03-03", "Billing retry", "US", 4),
        ]
        for day in ["2026-03-17", "2026-03-18", "2026-03-19"] { states.append((day, "Active", "US", 100)) }
        let file = try AppleReportFile.parse(AppleReportFiles.stateText(states), path: "state.txt")
        let comparison = AppleComparison(ours: tally, apple: AppleReportSet(files: [file]))
        let suspended = try #require(
            comparison.days.first { $0.period == "2026-03-03" && $0.metric == .inCommitmentRetry })
        #expect(suspended.ours == 8)
        #expect(suspended.apple == 8)
        let retry = try #require(comparison.days.first { $0.period == "2026-03-03" && $0.metric == .inBillingRetry })
        #expect(retry.ours == 4)
        #expect(retry.apple == 4)
    }
}
