import Foundation
import Ingest
import TestSupport
import Testing

/// However the workers share a batch out, rows keep the file's order: each notification is stored once, from the
/// first line that carries it, and its line is that line's.
@Suite struct BatchOrderTests {
    @Test(arguments: [1, 2, 3])
    func eachNotificationIsStoredFromItsFirstLine(workers: Int) async throws {
        let harness = try LoadHarness("order")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        let uuids = (0..<200).map { _ in UUID().uuidString.lowercased() }
        var lines: [String] = []
        for (index, uuid) in uuids.enumerated() {
            lines.append(try signer.notification(uuid: uuid, signedDate: 1_711_843_260_000 + Int64(index)).asExportLine)
        }
        // Later lines carry the same notifications again, with another signedDate: they must not replace the first,
        // whether it is in the same batch (lines 193 to 256 make one) or in one before.
        let repeated = Array(uuids[190..<200]) + uuids.prefix(100).reversed()
        for (index, uuid) in repeated.enumerated() {
            lines.append(try signer.notification(uuid: uuid, signedDate: 1_800_000_000_000 + Int64(index)).asExportLine)
        }
        let path = try directory.write("order.jsonl", lines: lines)
        let summary = try await harness.load([path], policy: AcceptancePolicy(verifier: signer.verifier)) {
            $0.batchSize = 64
            $0.workers = workers
        }
        #expect(summary.loaded == 200)
        #expect(summary.duplicates == 110)
        let stored = try harness.rows(
            "SELECT notification_uuid::text, source_line::text, (extract(epoch FROM signed_date) * 1000)::bigint::text FROM notifications"
        )
        let expected = Dictionary(
            uniqueKeysWithValues: uuids.enumerated().map { ($1, ["\($0 + 1)", "\(1_711_843_260_000 + Int64($0))"]) }
        )
        #expect(stored.count == 200)
        for row in stored {
            #expect(expected[row[0] ?? ""] == [row[1] ?? "", row[2] ?? ""], "\(row)")
        }
    }
}
