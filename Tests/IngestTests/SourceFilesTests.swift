import AppStoreNotifications
import Foundation
import Ingest
import TestSupport
import Testing

/// What `churn nightly` asks before loading a file: whether its content was stored before.
@Suite struct SourceFilesTests {
    @Test func knowsTheContentALoadStoredByTheHashALoadRecords() async throws {
        let harness = try LoadHarness("source-files")
        let directory = try ExportDirectory()
        let plain = try directory.write("lifecycle.jsonl", lines: try Fixtures.lifecycleTokens().map(\.asExportLine))
        let compressed = try directory.gzip(plain)
        let files = SourceFiles(connection: harness.connection)
        #expect(try !files.hasLoaded(sha256: ExportFiles.sha256(ofFile: compressed)))

        _ = try await harness.load([compressed], policy: AcceptancePolicy(verifier: try Fixtures.appleTestVerifier()))
        // The hash of the bytes as stored, not of the decompressed lines, is what the load recorded.
        let recorded = try harness.scalar("SELECT sha256 FROM source_files")
        #expect(recorded == (try ExportFiles.sha256(ofFile: compressed)))
        #expect(try files.hasLoaded(sha256: ExportFiles.sha256(ofFile: compressed)))
        // The same notifications in other bytes are other content.
        #expect(try !files.hasLoaded(sha256: ExportFiles.sha256(ofFile: plain)))
    }
}
