import Foundation

/// Report files read together: per day, the counts of the file that stated the day last.
///
/// Apple restates earlier days in later files. A later file's rows for a day replace every row an earlier file of
/// the same report gave for that day (not added to them). Files are later by modification time; files with the
/// same modification time keep the order given (a directory's files in name order).
package struct AppleReportSet: Sendable {
    /// A file read, and what it gave.
    package struct FileSummary: Hashable, Sendable {
        package var path: String
        package var kind: AppleReportKind
        /// The days the file states.
        package var days: Int
        /// Of those, the days an earlier file had stated: this file's counts replace that file's.
        package var restated: Int
    }

    /// Per day: the counts of each `Event Sub Type`, from the file that stated the day last.
    package var eventDays: [Int: [String: AppleReportFile.Amount]] = [:]
    /// Per day: `Paid Service Days Recovered`, for days whose last file has that column.
    package var paidServiceDays: [Int: AppleReportFile.Amount] = [:]
    /// The days whose last Subscription Event file has the `Paid Service Days Recovered` column.
    package var paidServiceDaysStated: Set<Int> = []
    /// Per day: the counts of each `State Metric`, from the file that stated the day last.
    package var stateDays: [Int: [String: AppleReportFile.Amount]] = [:]
    /// The `Event Grouping` of each `Event Sub Type` seen.
    package var groupings: [String: String] = [:]
    /// Per day and value of either report: the combinations of Apple's other columns that carried it
    /// (``AppleReportFile/combinations``), from the file that stated the day last.
    package var eventCombinations: [Int: [String: Set<String>]] = [:]
    package var stateCombinations: [Int: [String: Set<String>]] = [:]
    /// The files in the order they were applied.
    package var files: [FileSummary] = []

    package init() {}

    /// The files merged in the order given: a later one's days replace an earlier one's.
    package init(files: [AppleReportFile]) {
        for file in files { add(file) }
    }

    /// Adds `file`, replacing the days it states.
    package mutating func add(_ file: AppleReportFile) {
        var restated = 0
        switch file.kind {
        case .subscriptionEvent:
            for (day, values) in file.days {
                if eventDays[day] != nil { restated += 1 }
                eventDays[day] = values
                eventCombinations[day] = file.combinations[day]
                if let paid = file.paidServiceDays {
                    paidServiceDays[day] = paid[day]
                    paidServiceDaysStated.insert(day)
                } else {
                    paidServiceDays[day] = nil
                    paidServiceDaysStated.remove(day)
                }
            }
            groupings.merge(file.groupings) { _, later in later }
        case .subscriptionState:
            for (day, values) in file.days {
                if stateDays[day] != nil { restated += 1 }
                stateDays[day] = values
                stateCombinations[day] = file.combinations[day]
            }
        }
        files.append(FileSummary(path: file.path, kind: file.kind, days: file.days.count, restated: restated))
    }

    /// Reads `paths` (files, or directories whose report files are read) and merges them, later files last.
    /// - Throws: ``AppleReportError`` naming the file that could not be read or lacks the columns it needs.
    package static func read(paths: [String]) throws -> AppleReportSet {
        var ordered: [(path: String, modified: Date, position: Int)] = []
        for path in try expand(paths) {
            let attributes: [FileAttributeKey: Any]
            do {
                attributes = try FileManager.default.attributesOfItem(atPath: path)
            } catch {
                throw AppleReportError(path: path, reason: "cannot read the file (\(error.localizedDescription))")
            }
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            ordered.append((path, modified, ordered.count))
        }
        ordered.sort { $0.modified != $1.modified ? $0.modified < $1.modified : $0.position < $1.position }
        return AppleReportSet(files: try ordered.map { try AppleReportFile.read(path: $0.path) })
    }

    /// The files `paths` names: a directory stands for its files that are not hidden, in name order.
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
            return names.filter { !$0.hasPrefix(".") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                .map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
                .filter { name in
                    var isSubdirectory: ObjCBool = false
                    return FileManager.default.fileExists(atPath: name, isDirectory: &isSubdirectory)
                        && !isSubdirectory.boolValue
                }
        }
    }
}
