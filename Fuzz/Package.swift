// swift-tools-version:6.0
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer, with AddressSanitizer) of the readers of outside input, one executable
// per reader: `make fuzz` (scripts/fuzz.sh) builds them with `-sanitize=fuzzer,address` and runs each for
// FUZZ_SECONDS (default 60) from its seeds in Corpus/<target>/. Not part of the root package's build or `make test`.
// SwiftPM gives each executable a `main` of its own, so each target's top-level code hands its test function to
// libFuzzer's driver (CLibFuzzer).
//
// As in Benchmarks/, Sources/ holds links to the root package's module folders, compiled as this package's own
// targets (the root package vends no library): the targets run the same code as `churn`.

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// A fuzz target: `Targets/<name>/`, its top-level code handing its test function to libFuzzer (``FuzzSupport``),
/// with the modules it reads from.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name, dependencies: ["FuzzSupport"] + dependencies, path: "Targets/\(name)",
        swiftSettings: upcomingFeatures)
}

let package = Package(
    name: "InvoluntaryChurnFuzz",
    platforms: [.macOS(.v15)],
    // The root package's versions (its Package.resolved pins them), for AppStoreNotifications.
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib"),
        .target(name: "CivilTime", path: "Sources/CivilTime", swiftSettings: upcomingFeatures),
        .target(
            name: "PGClient", dependencies: ["CLibPQ", "CivilTime"], path: "Sources/PGClient",
            swiftSettings: upcomingFeatures
        ),
        .target(name: "Gzip", dependencies: ["CZlib"], path: "Sources/Gzip", swiftSettings: upcomingFeatures),
        .target(name: "NotificationTypes", path: "Sources/NotificationTypes", swiftSettings: upcomingFeatures),
        .target(
            name: "Analysis", dependencies: ["CivilTime", "NotificationTypes"], path: "Sources/Analysis",
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "AppleReports", dependencies: ["Analysis", "CivilTime", "Gzip"], path: "Sources/AppleReports",
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "AppStoreNotifications",
            dependencies: [
                "NotificationTypes",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Sources/AppStoreNotifications",
            resources: [.embedInCode("Resources/AppleRootCA-G3.der")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "AppStoreServerAPI",
            dependencies: [
                "AppStoreNotifications",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/AppStoreServerAPI",
            swiftSettings: upcomingFeatures
        ),
        .target(name: "CLibFuzzer", path: "Targets/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Targets/FuzzSupport"),
        fuzzTarget("FuzzBase64URL"),
        fuzzTarget("FuzzGzip", ["Gzip"]),
        // JSONScanner, ShallowDecoder and the models they decode are files of AppStoreNotifications, linked into
        // the target: the module itself needs swift-crypto and swift-certificates, which these readers do not use.
        fuzzTarget("FuzzJSON", ["NotificationTypes"]),
        fuzzTarget("FuzzAppleReport", ["AppleReports"]),
        fuzzTarget("FuzzCopyText", ["PGClient"]),
        fuzzTarget("FuzzMessageLog", ["Analysis", "CivilTime"]),
        fuzzTarget("FuzzJWS", ["AppStoreNotifications", .product(name: "Crypto", package: "swift-crypto")]),
        fuzzTarget(
            "FuzzChain",
            [
                "AppStoreNotifications", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        fuzzTarget("FuzzHistoryPage", ["AppStoreServerAPI", "AppStoreNotifications"]),
        // RecordShape is a file of Ingest, linked into the target: the module itself needs PostgreSQL's client and
        // the schema, which the shapes do not use.
        fuzzTarget("FuzzRecordLine", ["AppStoreNotifications"]),
    ]
)
