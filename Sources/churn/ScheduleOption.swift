import Analysis
import ArgumentParser
import Foundation
import Workflows

/// `--schedule FILE`: another billing-message schedule than Apple's; shared by `report` and `query message-bands`.
struct ScheduleOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Message schedule file: one band per line, '<first>-<last> <hours>h' (default: Apple's).",
            valueName: "file"
        )
    )
    var schedule: String?

    func validate() throws {
        if let schedule, let problem = FileAccess.problem(reading: schedule) {
            throw ValidationError("cannot read schedule file \(schedule): \(problem).")
        }
    }

    /// The schedule from the file, or Apple's.
    func load() throws -> MessageSchedule {
        guard let schedule else { return .standard }
        let data = try FileAccess.contents(ofFile: schedule, name: "schedule file \(schedule)")
        guard let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("--schedule \(schedule): not a text file (its bytes are not UTF-8).")
        }
        do {
            return try MessageSchedule.parse(text)
        } catch {
            throw ValidationError("--schedule \(schedule): \(error)")
        }
    }
}
