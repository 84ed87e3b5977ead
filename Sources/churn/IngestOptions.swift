import AppStoreNotifications
import ArgumentParser
import Foundation
import Ingest
import Workflows
import X509

/// How exports are read and verified; shared by `load` and `nightly`.
struct IngestOptions: ParsableArguments {
    @Option(
        name: .customLong("trust-root"),
        help: ArgumentHelp(
            "A trusted root certificate (DER or PEM); repeatable. Replaces the default Apple Root CA - G3.",
            valueName: "file"
        )
    )
    var trustRoots: [String] = []

    @Flag(help: "Store without verifying signatures (for exports verified upstream). Recorded on the load run.")
    var noVerify = false

    @Flag(help: "Also verify the nested transaction and renewal tokens (the outer signature already covers them).")
    var verifyNested = false

    @Option(help: ArgumentHelp("Accept only notifications for this bundle id.", valueName: "id"))
    var bundleID: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Exit with status 2 when more inputs than this are rejected.", valueName: "n")
    )
    var maxRejects: Int = 0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Largest record (line or document) read, in bytes.", valueName: "bytes")
    )
    var maxRecordBytes: Int = 16 << 20

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Bytes of each rejected input kept in the quarantine.", valueName: "bytes")
    )
    var quarantineRawBytes: Int = 64 << 10

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Threads that decode and verify (default: one per core).", valueName: "n")
    )
    var workers: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Records decoded together and written in one transaction.", valueName: "n")
    )
    var batchSize: Int = 512

    /// --workers, else one per core.
    var workerCount: Int { workers ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        if noVerify && !trustRoots.isEmpty {
            throw ValidationError("--no-verify and --trust-root contradict each other: choose one.")
        }
        if maxRejects < 0 { throw ValidationError("--max-rejects must be 0 or more, not \(maxRejects).") }
        if maxRecordBytes < 1024 {
            throw ValidationError("--max-record-bytes must be at least 1024, not \(maxRecordBytes).")
        }
        if quarantineRawBytes < 0 {
            throw ValidationError("--quarantine-raw-bytes must be 0 or more, not \(quarantineRawBytes).")
        }
        if let workers, workers < 1 { throw ValidationError("--workers must be at least 1, not \(workers).") }
        if batchSize < 1 { throw ValidationError("--batch-size must be at least 1, not \(batchSize).") }
        for path in trustRoots {
            if let problem = FileAccess.problem(reading: path) {
                throw ValidationError("cannot read trust root \(path): \(problem).")
            }
        }
    }

    /// The load options for a run, warning loudly when signatures are not verified.
    func loadOptions(environment: String?) throws -> LoadOptions {
        let verifier = try makeVerifier()
        if verifier == nil {
            Console.warn("signatures are NOT verified (--no-verify): the stored data is marked unverified.")
        }
        var options = LoadOptions(
            policy: AcceptancePolicy(
                verifier: verifier, verifiesNestedTokens: verifyNested, bundleID: bundleID, environment: environment
            ),
            workers: workerCount,
            command: CommandLine.arguments.joined(separator: " ")
        )
        options.maxRecordBytes = maxRecordBytes
        options.quarantineRawBytes = quarantineRawBytes
        options.batchSize = batchSize
        return options
    }

    /// The verifier of `--trust-root` (Apple Root CA - G3 without it); nil with `--no-verify`.
    func makeVerifier() throws -> JWSVerifier? {
        if noVerify { return nil }
        return try Self.verifier(trustRoots: trustRoots)
    }

    /// A verifier trusting the roots in `trustRoots` (files, DER or PEM), or Apple Root CA - G3 when there are none.
    /// - Throws: `ValidationError` naming a file that cannot be read or holds no certificate.
    static func verifier(trustRoots: [String]) throws -> JWSVerifier {
        if trustRoots.isEmpty { return try JWSVerifier() }
        var roots: [Certificate] = []
        for path in trustRoots {
            guard let data = FileManager.default.contents(atPath: path) else {
                let problem = FileAccess.problem(reading: path) ?? "it cannot be read as a file"
                throw ValidationError("cannot read trust root \(path): \(problem).")
            }
            do {
                roots += try JWSVerifier.trustRoots(parsing: Array(data), from: path)
            } catch {
                throw ValidationError("\(error.detail).")
            }
        }
        return JWSVerifier(trustRoots: roots)
    }
}
