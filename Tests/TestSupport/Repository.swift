import Foundation

/// The repository the tests were built from: its README, docs, scripts and sources, read by the tests that hold
/// them to the code.
package enum Repository {
    /// The repository's root (this file is `Tests/TestSupport/Repository.swift`).
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
