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

    /// Appends `text` to the export, as lines a load will refuse (or a last line cut short, without a newline).
    package func append(_ text: String) throws {
        let handle = try FileHandle(forWritingTo: export)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// A new schema of the test server with the export loaded into it, signatures not verified (`churn load
    /// --no-verify`): the start of a test that asks questions of a simulated history.
    /// - Parameter label: the schema's name before a random suffix, naming the test.
    /// - Throws: ``Failure`` with the load's standard error when it does not exit 0.
    package func loadedUnverified(into label: String) throws -> TestDatabase.Schema {
        let schema = try TestDatabase.makeSchema(label)
        let load = try ChurnCommand.run(["load", "--no-verify", "--database-url", schema.url, export.path])
        guard load.status == 0 else {
            throw Failure(description: "churn load exited \(load.status): \(load.stderr)")
        }
        return schema
    }

    /// Removes the directory and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
