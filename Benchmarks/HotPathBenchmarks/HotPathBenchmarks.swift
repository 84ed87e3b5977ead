import Analysis
import AppStoreNotifications
import Benchmark
import Foundation
import PGClient
import Reports

// The per-notification work of `churn load`, one step at a time, on one simulated notification
// (Resources/notification.jws: a DID_FAIL_TO_RENEW with its signed transaction and renewal info, 13.6 KB, from
// `churn simulate --subscribers 20 --seed 1`; Resources/export-root.der is that export's root certificate),
// and the CSV writing of reports.
//
// Each benchmark runs its step 1,000 times per measured iteration (`scalingFactor: .kilo`), so throughput reads as
// steps per second and wall clock as the time of one step.

/// The inputs every benchmark shares, decoded once outside the measurements.
private struct Inputs {
    let token: [UInt8]
    let tokenText: String
    let jws: JWS
    let decoded: DecodedNotification
    let signedDate: Date
    let verifier: JWSVerifier

    init() throws {
        token = PackageResources.notification_jws
        tokenText = String(decoding: token, as: UTF8.self)
        jws = try JWS.parse(bytes: token[...])
        decoded = try NotificationDecoder.decodeSignedPayload(tokenText)
        signedDate = Date(timeIntervalSince1970: Double(decoded.payload.signedDate ?? 0) / 1000)
        verifier = JWSVerifier(
            trustRoots: try JWSVerifier.trustRoots(parsing: PackageResources.export_root_der, from: "export-root.der")
        )
        // Validate the chain once: the load validates each distinct chain once per run, so the steady state is a
        // cache hit plus one P-256 signature check.
        try verifier.verify(jws, at: signedDate)
    }
}

/// A report-sized table: 60 days × 12 cohorts of integers, rates and text, as `recovery_curve.csv` holds.
private func reportTable() -> ReportTable {
    var table = ReportTable(
        name: "recovery_curve",
        columns: ["cohort", "product_id", "day", "at_risk", "recovered", "expired", "cif_recovery", "note"]
    )
    for cohort in 1...12 {
        for day in 1...60 {
            table.rows.append([
                .text("2025-\(cohort < 10 ? "0" : "")\(cohort)"), .text("com.example.premium.monthly"),
                .integer(day), .integer(5_000 - day * 40), .integer(day * 17), .integer(day * 5),
                .ratio(day * 17, 5_000), .text(day % 7 == 0 ? "weekly, \"message\" band" : ""),
            ])
        }
    }
    return table
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 100
    )

    // Splitting the compact JWS and base64url-decoding its three parts (and the small header JSON).
    Benchmark("jws.decode") { benchmark, inputs in
        for _ in benchmark.scaledIterations {
            blackHole(try JWS.parse(bytes: inputs.token[...]))
        }
    } setup: {
        try Inputs()
    }

    // What the loader's workers do before verification: the outer JWS, the notification JSON, both nested JWS and
    // their JSON, and the storage document with the nested tokens decoded in place.
    Benchmark("notification.decode") { benchmark, inputs in
        for _ in benchmark.scaledIterations {
            blackHole(try NotificationDecoder.decodeSignedPayload(inputs.tokenText))
        }
    } setup: {
        try Inputs()
    }

    // The same with Foundation's JSONDecoder for the JSON, as JSON of an unusual shape is decoded: the baseline of
    // the decoder that reads the strict scanner's members.
    Benchmark("notification.decode.foundation") { benchmark, inputs in
        for _ in benchmark.scaledIterations {
            blackHole(try NotificationDecoder.decodeSignedPayload(inputs.tokenText, decoding: .foundation))
        }
    } setup: {
        try Inputs()
    }

    // One row of binary `COPY … FROM STDIN` from a decoded notification: 41 columns and the JSON document, into a
    // new buffer per record as the loader's RecordDecoder does.
    Benchmark("copy.encode") { benchmark, inputs in
        for line in benchmark.scaledIterations {
            var rows = CopyBinary()
            try NotificationRow.encode(
                inputs.decoded, verified: true, fileID: 1, line: line, loadRunID: 1,
                signedPayloadSHA256: nil, into: &rows
            )
            blackHole(rows.count)
        }
    } setup: {
        try Inputs()
    }

    // 20,000 short rows (two text fields and five integers, 60-odd bytes) into one buffer that starts empty, as
    // `churn analyze` buffers its per-subscription rows: the cost of growing a CopyText.
    Benchmark(
        "copy.grow",
        configuration: .init(metrics: [.wallClock, .throughput], scalingFactor: .one, maxIterations: 200)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            var rows = CopyText()
            for subscription in 0..<20_000 {
                try rows.append("Production")
                try rows.append(String(2_000_000_000_000_000 + subscription * 1_000))
                for count in 0..<5 { rows.append(count) }
                rows.endRow()
            }
            blackHole(rows.count)
        }
    }

    // Signature verification with the chain already validated (cache hit): one ES256 check.
    Benchmark("jws.verify") { benchmark, inputs in
        for _ in benchmark.scaledIterations {
            try inputs.verifier.verify(inputs.jws, at: inputs.signedDate)
        }
    } setup: {
        try Inputs()
    }

    // A report CSV of 720 rows.
    Benchmark(
        "csv.write",
        configuration: .init(metrics: [.wallClock, .throughput], scalingFactor: .one, maxIterations: 1_000)
    ) { benchmark, table in
        for _ in benchmark.scaledIterations {
            blackHole(CSVWriter.render(table))
        }
    } setup: {
        reportTable()
    }
}
