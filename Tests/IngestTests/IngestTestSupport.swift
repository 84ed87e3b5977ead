import AppStoreNotifications
import Foundation
import Ingest
import Logging
import PGClient
import TestPKI
import TestSupport
import Testing
import X509

/// Files, trust roots and a loader for the ingest tests.
enum Fixtures {
    static func url(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: url(name), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The five billing-lifecycle notifications, in order.
    static let lifecycleNames = [
        "01_DID_FAIL_TO_RENEW_GRACE_PERIOD.jws", "02_GRACE_PERIOD_EXPIRED.jws", "03_DID_RENEW_BILLING_RECOVERY.jws",
        "04_DID_FAIL_TO_RENEW.jws", "05_EXPIRED_BILLING_RETRY.jws",
    ]

    static func lifecycleTokens() throws -> [String] {
        try lifecycleNames.map(text)
    }

    /// Apple's test CA, which signed the billing-lifecycle and mock samples.
    static func appleTestVerifier() throws -> JWSVerifier {
        let der = try Data(contentsOf: url("testCA.der"))
        return JWSVerifier(trustRoots: try JWSVerifier.trustRoots(parsing: Array(der), from: "testCA.der"))
    }
}

/// A temporary directory for export files written by a test.
struct ExportDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("churn-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes lines joined by newlines and returns the path.
    func write(_ name: String, lines: [String]) throws -> String {
        try write(name, bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let path = url.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return path
    }

    /// Compresses a file with the system's gzip and returns the new path.
    func gzip(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-k", "-f", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return path + ".gz"
    }
}

/// Loads files into a fresh schema and reads back what was stored.
struct LoadHarness {
    let schema: TestDatabase.Schema
    let connection: PGConnection

    init(_ label: String) throws {
        schema = try TestDatabase.makeSchema(label)
        connection = try schema.migrated()
    }

    func load(
        _ paths: [String], policy: AcceptancePolicy, configure: (inout LoadOptions) -> Void = { _ in }
    ) async throws -> LoadSummary {
        var options = LoadOptions(policy: policy, workers: 2, command: "test")
        configure(&options)
        return try await Loader(connection: connection, options: options, logger: Logger.test).load(paths)
    }

    func rows(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        try connection.execute(sql, parameters).rows
    }

    func scalar(_ sql: String, _ parameters: [String?] = []) throws -> String? {
        try connection.execute(sql, parameters).scalar
    }
}

/// Signs made-up payloads with a fresh test PKI.
struct TestSigner {
    let authority: TestCertificateAuthority
    let signer: JWSSigner

    init() throws {
        authority = try TestCertificateAuthority(name: "Ingest Test")
        signer = try authority.signer()
    }

    var verifier: JWSVerifier {
        JWSVerifier(trustRoots: [authority.root])
    }

    /// A signed notification with nested signed transaction and renewal info.
    func notification(
        uuid: String = UUID().uuidString.lowercased(),
        type: String = "DID_RENEW",
        subtype: String? = nil,
        signedDate: Int64 = 1_711_843_260_000,
        environment: String = "Production",
        transaction: [String: Any] = [:],
        renewal: [String: Any] = [:],
        extra: [String: Any] = [:]
    ) throws -> String {
        var transactionInfo: [String: Any] = [
            "transactionId": "2000000000000001", "originalTransactionId": "2000000000000001",
            "productId": "com.example.monthly", "purchaseDate": signedDate - 1000,
            "expiresDate": signedDate + 2_592_000_000,
            "price": 4990, "currency": "EUR", "storefront": "DEU", "inAppOwnershipType": "PURCHASED",
            "environment": environment, "signedDate": signedDate,
        ]
        transactionInfo.merge(transaction) { $1 }
        var renewalInfo: [String: Any] = [
            "originalTransactionId": "2000000000000001", "autoRenewStatus": 1, "environment": environment,
            "signedDate": signedDate,
        ]
        renewalInfo.merge(renewal) { $1 }
        var data: [String: Any] = [
            "bundleId": "com.example", "environment": environment, "appAppleId": 1234,
            "signedTransactionInfo": try sign(transactionInfo), "signedRenewalInfo": try sign(renewalInfo),
        ]
        data.merge(extra) { $1 }
        var payload: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "signedDate": signedDate, "version": "2.0",
            "data": data,
        ]
        if let subtype { payload["subtype"] = subtype }
        return try sign(payload)
    }

    func sign(_ object: [String: Any]) throws -> String {
        try signer.sign(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// Signs raw payload bytes (which need not be valid JSON).
    func sign(raw: [UInt8]) throws -> String {
        try signer.sign(Data(raw))
    }
}

extension String {
    /// The webhook body shape of an export line.
    var asExportLine: String { "{\"signedPayload\":\"\(self)\"}" }
}
