import Foundation

/// Report files read together: per report, granularity and period, the counts of the instance that stated it last.
///
/// Files are gathered into instances first: the segments of one instance (same report and granularity, same
/// processing date in the path, same directory, as Apple's downloads are laid out) are added up, since each holds a
/// portion of the instance's data. Apple restates earlier periods in later instances: a later instance's lines for a
/// period replace every line an earlier instance of the same report and granularity gave for it (not added to them).
/// Instances are later by the processing date their path carries, else by modification time; then by modification
/// time, then in the order given (a directory's files in name order). Daily, weekly and monthly instances are kept
/// apart: a weekly file's date is its week's first day, never a day of its own.
package struct AppleReportSet: Sendable {
    /// An instance read (one file, or the segments of one instance), and what it gave.
    package struct FileSummary: Hashable, Sendable {
        /// The first segment's path.
        package var path: String
        package var kind: AppleReportKind
        package var granularity: AppleReportGranularity = .daily
        /// The days (weeks, months) the instance states.
        package var days: Int
        /// Of those, the periods an earlier instance had stated: this one's counts replace that one's.
        package var restated: Int
        /// The segments added up.
        package var segments = 1
    }

    /// One granularity's figures, per period (its first day, days since 1970-01-01).
    package struct Figures: Sendable {
        /// Per period: the counts of each `Event Sub Type`, from the instance that stated it last.
        package var eventDays: [Int: [String: AppleReportFile.Amount]] = [:]
        /// Per period: `Paid Service Days Recovered` of the recoveries from grace, where the last instance has that
        /// column.
        package var paidServiceDays: [Int: AppleReportFile.Amount] = [:]
        /// The periods whose last Subscription Event instance has the `Paid Service Days Recovered` column and a
        /// whole number in each of its recoveries from grace.
        package var paidServiceDaysStated: Set<Int> = []
        /// Per period: the counts of each `State Metric`, from the instance that stated it last.
        package var stateDays: [Int: [String: AppleReportFile.Amount]] = [:]
        /// Per period and value: the combinations of Apple's other columns that carried it
        /// (``AppleReportFile/combinations``), from the instance that stated it last.
        package var eventCombinations: [Int: [String: Set<String>]] = [:]
        package var stateCombinations: [Int: [String: Set<String>]] = [:]
        /// The periods a later instance restated, per report.
        package var eventRestated: Set<Int> = []
        package var stateRestated: Set<Int> = []
    }

    /// Apple completes a day's data "within 3 days" (*App Store Subscription Event*, *App Store Subscription
    /// State*): a daily file's newest days may still grow.
    package static let completenessDays = 3

    package var daily = Figures()
    package var weekly = Figures()
    package var monthly = Figures()
    /// The `Event Grouping` of each `Event Sub Type` seen.
    package var groupings: [String: String] = [:]
    /// The instances in the order they were applied.
    package var files: [FileSummary] = []
    /// What was read but left out, each naming its file: another report skipped, a `Paid Service Days Recovered`
    /// that is not a whole number.
    package var notices: [String] = []

    /// The daily counts of each `Event Sub Type` (``Figures/eventDays`` of ``daily``).
    package var eventDays: [Int: [String: AppleReportFile.Amount]] { daily.eventDays }
    /// The daily counts of each `State Metric`.
    package var stateDays: [Int: [String: AppleReportFile.Amount]] { daily.stateDays }
    /// The daily `Paid Service Days Recovered` of the recoveries from grace.
    package var paidServiceDays: [Int: AppleReportFile.Amount] { daily.paidServiceDays }
    /// The days whose paid service days Apple states.
    package var paidServiceDaysStated: Set<Int> { daily.paidServiceDaysStated }

    package init() {}

    /// The files merged in the order given: segments of one instance added up, then a later instance's periods
    /// replace an earlier one's.
    package init(files: [AppleReportFile]) {
        var order: [InstanceKey] = []
        var instances: [InstanceKey: AppleReportFile] = [:]
        for (position, file) in files.enumerated() {
            let key = InstanceKey(file: file, position: position)
            if let instance = instances[key] {
                instances[key] = instance.adding(file)
            } else {
                instances[key] = file
                order.append(key)
            }
        }
        for key in order {
            if let instance = instances[key] { add(instance) }
        }
    }

    /// What makes files segments of one instance: the report, the granularity, the processing date and the
    /// directory. A file whose path carries no processing date is an instance of its own.
    private struct InstanceKey: Hashable {
        var kind: AppleReportKind
        var granularity: AppleReportGranularity
        var processingDay: Int?
        var directory: String
        var position: Int?

        init(file: AppleReportFile, position: Int) {
            kind = file.kind
            granularity = file.granularity
            processingDay = file.processingDay
            directory = URL(fileURLWithPath: file.path).deletingLastPathComponent().path
            self.position = file.processingDay == nil ? position : nil
        }
    }

    /// The figures of `granularity`.
    package func figures(_ granularity: AppleReportGranularity) -> Figures {
        switch granularity {
        case .daily: return daily
        case .weekly: return weekly
        case .monthly: return monthly
        }
    }

    /// Adds one instance (a file, or its segments added up), replacing the periods it states.
    package mutating func add(_ file: AppleReportFile) {
        var figures = figures(file.granularity)
        var restated = 0
        switch file.kind {
        case .subscriptionEvent:
            for (day, values) in file.days {
                if figures.eventDays[day] != nil {
                    restated += 1
                    figures.eventRestated.insert(day)
                }
                figures.eventDays[day] = values
                figures.eventCombinations[day] = file.combinations[day]
                if let paid = file.paidServiceDays, !file.paidServiceDaysUnreadable.contains(day) {
                    figures.paidServiceDays[day] = paid[day]
                    figures.paidServiceDaysStated.insert(day)
                } else {
                    figures.paidServiceDays[day] = nil
                    figures.paidServiceDaysStated.remove(day)
                }
            }
            groupings.merge(file.groupings) { _, later in later }
        case .subscriptionState:
            for (day, values) in file.days {
                if figures.stateDays[day] != nil {
                    restated += 1
                    figures.stateRestated.insert(day)
                }
                figures.stateDays[day] = values
                figures.stateCombinations[day] = file.combinations[day]
            }
        }
        switch file.granularity {
        case .daily: daily = figures
        case .weekly: weekly = figures
        case .monthly: monthly = figures
        }
        notices += file.notices
        files.append(
            FileSummary(
                path: file.path, kind: file.kind, granularity: file.granularity, days: file.days.count,
                restated: restated, segments: file.segments))
    }

    /// The days of `kind`'s daily files held back, oldest first: Apple's newest ``completenessDays`` days, which
    /// Apple may still complete, unless a later instance restated them. Weekly and monthly instances are complete
    /// by default and hold nothing back.
    package func heldBack(_ kind: AppleReportKind) -> [Int] {
        let days = kind == .subscriptionEvent ? daily.eventDays.keys : daily.stateDays.keys
        let restated = kind == .subscriptionEvent ? daily.eventRestated : daily.stateRestated
        return days.sorted().suffix(Self.completenessDays).filter { !restated.contains($0) }
    }

    /// Reads `paths` (files, or directories whose report files are read) and merges them, later instances last.
    /// A file that is another App Store Connect report is skipped, with a notice.
    /// - Throws: ``AppleReportError`` naming the file that could not be read or lacks the columns it needs; one when
    ///   every file given is another report.
    package static func read(paths: [String]) throws -> AppleReportSet {
        var ordered: [(file: AppleReportFile, modified: Date, position: Int)] = []
        var skipped: [String] = []
        for path in try expand(paths) {
            let attributes: [FileAttributeKey: Any]
            do {
                attributes = try FileManager.default.attributesOfItem(atPath: path)
            } catch {
                throw AppleReportError(path: path, reason: "cannot read the file (\(error.localizedDescription))")
            }
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            do {
                ordered.append((try AppleReportFile.read(path: path), modified, ordered.count + skipped.count))
            } catch let error as AppleReportError where error.isOtherReport {
                skipped.append(error.description)
            }
        }
        if ordered.isEmpty, let first = skipped.first {
            throw AppleReportError(
                path: paths.joined(separator: ", "),
                reason: "no Subscription Event or Subscription State report among the files: " + first
                    + (skipped.count > 1 ? " (and \(skipped.count - 1) more)" : ""))
        }
        // Later: the processing date the path carries (its day's start), else the modification time.
        func time(_ entry: (file: AppleReportFile, modified: Date, position: Int)) -> Double {
            entry.file.processingDay.map { Double($0) * 86_400 } ?? entry.modified.timeIntervalSince1970
        }
        ordered.sort {
            (time($0), $0.modified, $0.position) < (time($1), $1.modified, $1.position)
        }
        var set = AppleReportSet(files: ordered.map(\.file))
        set.notices = skipped + set.notices
        return set
    }

    /// The files `paths` names: a directory stands for its files that are not hidden, in its subdirectories too (as
    /// Apple's downloads nest an instance's segments under its report, granularity and processing date), in name
    /// order.
    private static func expand(_ paths: [String]) throws -> [String] {
        try paths.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw AppleReportError(path: path, reason: "no such file or directory")
            }
            guard isDirectory.boolValue else { return [path] }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw AppleReportError(path: path, reason: "cannot list the directory (\(error.localizedDescription))")
            }
            return try names.filter { !$0.hasPrefix(".") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                .flatMap { name in
                    try expand([URL(fileURLWithPath: path).appendingPathComponent(name).path])
                }
        }
    }
}
