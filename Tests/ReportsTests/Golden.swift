import Foundation
import Testing

/// Golden files: the expected report files under `Fixtures/expected/<scenario>/`.
///
/// To regenerate them after an intended change, run the tests with `UPDATE_GOLDEN=1`:
/// ```
/// UPDATE_GOLDEN=1 swift test --filter ReportsTests
/// ```
/// Each file that differs from its golden copy is then written into the source tree (next to this file), and its
/// test still fails, saying so: review the diff, commit it, and run again without the variable, which compares
/// against the copies in the test bundle. So no check passes because it wrote.
enum Golden {
    static var isUpdating: Bool {
        ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1"
    }

    /// The scenario's directory in the source tree, written when updating.
    static func sourceDirectory(_ scenario: String, file: String = #filePath) -> URL {
        URL(fileURLWithPath: file).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/expected/\(scenario)", isDirectory: true)
    }

    /// The scenario's expected file in the test bundle.
    static func expected(_ scenario: String, _ name: String) throws -> String {
        let base = try #require(Bundle.module.resourceURL, "the test bundle has no resources")
        let url = base.appendingPathComponent("Fixtures/expected/\(scenario)/\(name)")
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    /// Compares `contents` with the golden file; a difference fails, and with `UPDATE_GOLDEN=1` also writes
    /// `contents` as the new golden file in the source tree. A golden file missing from the bundle fails too (and is
    /// written when updating).
    static func check(
        _ contents: String, scenario: String, name: String, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let expected = try? expected(scenario, name)
        guard contents != expected else { return }
        if isUpdating {
            let directory = sourceDirectory(scenario)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
            let message =
                "\(scenario)/\(name) differed from its golden file and was written anew: review the diff, then run "
                + "again without UPDATE_GOLDEN"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            return
        }
        guard let expected else {
            Issue.record("\(scenario)/\(name) has no golden file in the test bundle", sourceLocation: sourceLocation)
            return
        }
        Issue.record("\(scenario)/\(name) differs from its golden file", sourceLocation: sourceLocation)
        // Show the first differing line, which is easier to read than two whole files.
        let (actualLines, expectedLines) = (
            contents.split(separator: "\n", omittingEmptySubsequences: false),
            expected.split(separator: "\n", omittingEmptySubsequences: false)
        )
        if let index = zip(actualLines, expectedLines).enumerated().first(where: { $0.element.0 != $0.element.1 })?
            .offset
        {
            Issue.record(
                "line \(index + 1): got \(actualLines[index]) expected \(expectedLines[index])",
                sourceLocation: sourceLocation)
        }
    }
}
