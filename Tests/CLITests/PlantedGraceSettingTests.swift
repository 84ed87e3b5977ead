import Foundation
import TestSupport
import Testing

/// The grace setting the simulator plants for the app (`--grace`, `--grace-renewals`, as App Store Connect sets it) is
/// the one `grace_whatif.csv` marks `current`, on every row of the app, and no other: the what-if names only settings
/// App Store Connect offers, and the one in force among them.
@Suite(.serialized) struct PlantedGraceSettingTests {
    @Test(arguments: [
        (["--grace", "3", "--grace-renewals", "all"], "3", "all_renewals"),
        (["--grace", "28", "--grace-renewals", "paid-to-paid"], "28", "paid_to_paid_only"),
        (["--grace", "none"], "off", ""),
    ])
    func thePlantedSettingIsTheCurrentOne(options: [String], setting: String, renewalType: String) throws {
        let (reports, _, _) = try PlantedReturnsTests.run(
            "grace\(setting)", ["--subscribers", "1200", "--seed", "44", "--months", "12"] + options)
        var rows = try PlantedReturnsTests.rows(reports.appendingPathComponent("grace_whatif.csv"))
        let header = rows.removeFirst()
        #expect(header.prefix(6) == ["bundle_id", "setting", "renewal_type", "product_id", "grace_days", "current"])
        let current = rows.filter { $0[5] == "true" }
        #expect(!current.isEmpty)
        #expect(current.allSatisfy { $0[1] == setting && $0[2] == renewalType }, "\(current.map { $0.prefix(4) })")
        // Every product of the app, and the app's (all) row, under that setting.
        let products = Set(rows.map { $0[3] })
        #expect(Set(current.map { $0[3] }) == products)
        // The settings are App Store Connect's: off, 3, 16 and 28 days; a weekly product gets 3 or 6 days.
        #expect(Set(rows.map { $0[1] }).isSubset(of: ["off", "3", "16", "28"]))
        for row in rows where row[3] == "pro.weekly" {
            #expect(["0", "3", "6"].contains(row[4]), "\(row)")
        }
        // The setting never changed: no grace_change.csv.
        #expect(!FileManager.default.fileExists(atPath: reports.appendingPathComponent("grace_change.csv").path))
    }
}
