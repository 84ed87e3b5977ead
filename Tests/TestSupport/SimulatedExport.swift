import Foundation

/// A simulated signed export in a temporary directory of its own, made by the built `churn simulate`: the
/// directory also holds the export's trust root, and whatever a test writes beside them.
package struct SimulatedExport {
    /// The simulation failed: its standard error.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package let directory: URL
    /// `export.jsonl`.
    package let export: URL

    /// The root certificate the export is signed under (`churn load --trust-root`).
    package var trustRoot: URL { directory.appendingPathComponent("export.root.der") }

    /// - Parameter prefix: the directory's name before a UUID, naming the test that made it.
    package init(_ prefix: String, subscribers: Int, seed: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        export = directory.appendingPathComponent("export.jsonl")
        let simulate = try ChurnCommand.run(
            ["simulate", "--subscribers", String(subscribers), "--seed", String(seed), "--out", export.path])
        guard simulate.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw Failure(description: "churn simulate exited \(simulate.status): \(simulate.stderr)")
        }
    }

    /// Removes the directory and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
