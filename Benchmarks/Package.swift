// swift-tools-version:6.1
import PackageDescription

// Library-level benchmarks of the load's hot paths (and report CSV writing), with ordo-one/package-benchmark:
//   BENCHMARK_DISABLE_JEMALLOC=true swift package --package-path Benchmarks benchmark
//
// The modules under test use `package` access and the root package vends no library, so another package cannot
// import them. Sources/ here holds links to the root package's module folders (and HotPathBenchmarks/Ingest/ to the
// files of the row encoder), compiled as this package's own targets: the benchmarks run the same code as
// `churn`, with no copy to keep in step. Target names match the root package's, which is why this package does not
// also depend on `.package(path: "../")` (target names must be unique in a package graph).

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "InvoluntaryChurnBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // No traits: the default ones pull in malloc and runtime interposers this toolchain cannot build with.
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.29.0", traits: []),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.1.0"),
    ],
    targets: [
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq"),
        .target(name: "CivilTime", path: "Sources/CivilTime", swiftSettings: upcomingFeatures),
        .target(
            name: "PGClient", dependencies: ["CLibPQ", "CivilTime"], path: "Sources/PGClient",
            swiftSettings: upcomingFeatures
        ),
        .target(name: "NotificationTypes", path: "Sources/NotificationTypes", swiftSettings: upcomingFeatures),
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
            name: "Analysis", dependencies: ["CivilTime", "NotificationTypes"], path: "Sources/Analysis",
            swiftSettings: upcomingFeatures),
        .target(
            name: "Reports", dependencies: ["Analysis", "AppStoreNotifications", "CivilTime"], path: "Sources/Reports",
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "HotPathBenchmarks",
            dependencies: [
                "AppStoreNotifications", "PGClient", "Analysis", "Reports",
                .product(name: "Benchmark", package: "package-benchmark"),
                // NotificationRow imports Crypto for the signed payload's SHA-256.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "HotPathBenchmarks",
            resources: [.embedInCode("Resources/notification.jws"), .embedInCode("Resources/export-root.der")],
            swiftSettings: upcomingFeatures,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
