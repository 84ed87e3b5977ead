// swift-tools-version:6.0
import PackageDescription

/// The modules whose work `make test` waits on (simulating and signing, verifying, loading, rebuilding episodes, the
/// COPY streams) are optimized in debug builds too, with assertions kept: the tests' `churn` runs spend most of
/// their time there, several times slower unoptimized (docs/DEVELOPMENT.md).
let optimizedInDebug: [SwiftSetting] = [
    .unsafeFlags(["-O", "-assert-config", "Debug"], .when(configuration: .debug))
]

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "InvoluntaryChurn",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "churn", targets: ["churn"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.1.0"),
    ],
    targets: [
        // System libraries: libpq for PostgreSQL, zlib for .gz exports.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),

        // Civil dates and day numbers by integer arithmetic: what the libpq wrapper, the metrics and the simulator
        // share about the calendar.
        .target(
            name: "CivilTime",
            swiftSettings: upcomingFeatures
        ),

        // gzip members (RFC 1952) by zlib: the simulator's compressed exports and the fetched history files.
        .target(
            name: "Gzip",
            dependencies: ["CZlib"],
            swiftSettings: upcomingFeatures
        ),

        // libpq, wrapped: connections, parameterized statements, COPY, transactions, advisory locks, and the executor
        // that keeps libpq's blocking calls off Swift's cooperative pool.
        .target(
            name: "PGClient",
            dependencies: ["CLibPQ", "CivilTime"],
            swiftSettings: upcomingFeatures + optimizedInDebug
        ),

        // The notification types and subtypes of Apple's version 2 notifications, as enums: what the decoder reads
        // and what the analysis matches, with nothing else, so the analysis stays free of JWS and crypto.
        .target(
            name: "NotificationTypes",
            swiftSettings: upcomingFeatures
        ),

        // Apple's notification formats: JWS, Codable models, signature verification.
        .target(
            name: "AppStoreNotifications",
            dependencies: [
                "NotificationTypes",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.embedInCode("Resources/AppleRootCA-G3.der")],
            swiftSettings: upcomingFeatures + optimizedInDebug
        ),

        // The App Store Server API: ES256 tokens, Get Notification History, retries that honour Retry-After; requests
        // carried by Foundation's URLSession behind a transport seam (HTTPTransport).
        .target(
            name: "AppStoreServerAPI",
            dependencies: [
                "AppStoreNotifications",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),

        // A test PKI shaped like Apple's App Store signing chain, and a signer: for the simulator and the tests only.
        .target(
            name: "TestPKI",
            dependencies: [
                "AppStoreNotifications",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: upcomingFeatures
        ),

        // The database's schema: migrations, the declared tables, the layouts, locks.
        .target(
            name: "Store",
            dependencies: [
                "PGClient",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("sql")],
            // Fault points (FaultPoint) for the crash tests, in debug builds only: release builds have none.
            swiftSettings: upcomingFeatures + [.define("CHURN_FAULTS", .when(configuration: .debug))]
        ),

        // The server: the embedded local PostgreSQL cluster, and choosing between it and a given database.
        .target(
            name: "EmbeddedPostgres",
            dependencies: [
                "PGClient",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),

        // Export files to PostgreSQL: readers, decoding, verification, COPY, merge, quarantine, load runs; and which
        // notifications are stored, for comparing Apple's history with the database. The app's message log too, read
        // into Analysis's events.
        .target(
            name: "Ingest",
            dependencies: [
                "AppStoreNotifications", "Analysis", "PGClient", "Store", "CivilTime", "Gzip",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures + optimizedInDebug
        ),

        // The notification history fetched from the App Store Server API into export files (gzip history pages),
        // resumable through fetch_checkpoints and under the fetch lock; and the history's gaps against the database.
        .target(
            name: "HistoryFetch",
            dependencies: [
                "AppStoreNotifications", "AppStoreServerAPI", "PGClient", "Store", "CivilTime", "Gzip",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),

        // Episodes and metrics: pure functions from values to values, no I/O and no formatting.
        .target(
            name: "Analysis",
            dependencies: ["CivilTime", "NotificationTypes"],
            swiftSettings: upcomingFeatures + optimizedInDebug
        ),

        // App Store Connect's Analytics Reports (Subscription Event, Subscription State) read by column name, gzip or
        // not, later files restating earlier days; and our billing-issue days set beside them within Apple's noise.
        .target(
            name: "AppleReports",
            dependencies: ["Analysis", "CivilTime", "Gzip"],
            swiftSettings: upcomingFeatures
        ),

        // Feeds Analysis from PostgreSQL and stores its episodes (incremental rebuild).
        .target(
            name: "AnalysisStore",
            dependencies: [
                "Analysis", "PGClient", "Store",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures + optimizedInDebug
        ),

        // The repair: the episodes the notifications leave uncertain, chosen by the episode rules (Analysis) from the
        // stored episodes, checked against Apple's subscription status, and the history of those Apple sees otherwise
        // fetched (HistoryFetch), each step recorded in subscription_checks.
        .target(
            name: "Repair",
            dependencies: [
                "Analysis", "AnalysisStore", "HistoryFetch", "AppStoreServerAPI", "AppStoreNotifications", "PGClient",
                "Store",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),

        // Report output: the tables of METRICS.md's files and of `churn query` laid out from Analysis's figures, CSV,
        // summary.md for people, the charts.
        .target(
            name: "Reports",
            dependencies: ["Analysis", "AppleReports", "AppStoreNotifications", "CivilTime"],
            swiftSettings: upcomingFeatures
        ),

        // Synthetic signed exports with known ground truth: the demo, tests and benchmarks.
        .target(
            name: "Simulator",
            dependencies: [
                "AppStoreNotifications", "NotificationTypes", "TestPKI", "Analysis", "Reports", "CivilTime", "Gzip",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            // Optimized in debug builds too: `make test` simulates dozens of signed exports, and the signatures'
            // scalar arithmetic runs about 45 times slower unoptimized (docs/DEVELOPMENT.md).
            swiftSettings: upcomingFeatures + optimizedInDebug
        ),

        // What the commands run: one workflow per command (nightly, load, fetch, gaps, analyze, report, query), each
        // with its inputs as a plain value and its result as a value, failing with the domain's errors
        // (WorkflowError), never exit codes; and the report directory written with its `latest` link.
        .target(
            name: "Workflows",
            dependencies: [
                "Ingest", "HistoryFetch", "Repair", "Analysis", "AnalysisStore", "AppleReports", "Reports", "Store",
                "EmbeddedPostgres", "PGClient", "AppStoreServerAPI",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),

        // The command-line tool: parses each command's options, runs its workflow and prints the result; turns the
        // domain's errors into exit codes in one table (CommandFailure); reads every date option in one place.
        .executableTarget(
            name: "churn",
            dependencies: [
                "Workflows", "Ingest", "HistoryFetch", "Repair", "Store", "EmbeddedPostgres", "PGClient",
                "AppStoreNotifications",
                "AppStoreServerAPI", "Analysis", "AnalysisStore", "AppleReports", "Reports", "Simulator", "CivilTime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),

        .target(
            name: "TestSupport",
            dependencies: [
                "PGClient", "Store", "EmbeddedPostgres", "Analysis", "AnalysisStore", "AppStoreNotifications",
                "AppStoreServerAPI", "TestPKI", "Simulator", "Ingest",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "CivilTimeTests",
            dependencies: ["CivilTime"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "PGClientTests",
            dependencies: ["PGClient", "TestSupport"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "AppStoreNotificationsTests",
            dependencies: ["AppStoreNotifications", "NotificationTypes"],
            resources: [.copy("Fixtures")],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "JWSVerifierTests",
            dependencies: [
                "AppStoreNotifications", "TestPKI",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "AppStoreServerAPITests",
            dependencies: [
                "AppStoreServerAPI", "AppStoreNotifications", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "AppleReportsTests",
            dependencies: ["AppleReports", "Analysis", "Gzip", "Reports"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "AnalysisTests",
            dependencies: ["Analysis", "TestSupport"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "IngestTests",
            dependencies: [
                "Ingest", "HistoryFetch", "AppStoreNotifications", "AppStoreServerAPI", "Gzip", "TestPKI", "PGClient",
                "TestSupport",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ReportsTests",
            dependencies: ["Reports", "Analysis", "CivilTime", "TestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "AnalysisStoreTests",
            dependencies: [
                "AnalysisStore", "Analysis", "Ingest", "Reports", "AppStoreNotifications", "PGClient", "Simulator",
                "Store", "TestPKI", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "churn", "Workflows", "HistoryFetch", "Repair", "Ingest", "AppStoreServerAPI", "PGClient", "Store",
                "EmbeddedPostgres", "AppStoreNotifications", "TestPKI", "TestSupport", "AppleReports", "Analysis",
                "Gzip",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "SimulatorTests",
            dependencies: [
                "Simulator", "AppStoreNotifications", "NotificationTypes", "TestPKI", "Analysis", "CZlib", "Gzip",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The workflows called in process, as the commands call them, where no process is needed: the answers'
        // logic without argument parsing, exit codes or a `churn` to start.
        .testTarget(
            name: "WorkflowsTests",
            dependencies: [
                "Workflows", "Analysis", "AnalysisStore", "Reports", "EmbeddedPostgres", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "QueryTests",
            dependencies: [
                "churn", "AnalysisStore", "Analysis", "Ingest", "Reports", "AppStoreNotifications", "PGClient", "Store",
                "TestPKI", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "RepairTests",
            dependencies: ["Repair", "Analysis", "AppStoreNotifications"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: ["Store", "EmbeddedPostgres", "PGClient", "TestSupport"],
            swiftSettings: upcomingFeatures
        ),
    ]
)
