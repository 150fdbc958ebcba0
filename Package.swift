// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "geoserve",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "geoserve", targets: ["geoserve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // System-library shims: headers and link flags come from pkg-config.
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // glibc's malloc_trim: the server hands freed memory back after loading a large layer.
        .systemLibrary(name: "CMalloc"),
        // The processor's prefetch hint, for the assignment of points sorted by grid cell.
        .systemLibrary(name: "CPrefetch"),

        // General utilities with no domain in them: the JSON parser and writer, a byte-bounded LRU,
        // encodings, digests, mapped files.
        .target(name: "Support", swiftSettings: strict),
        // The domain's shared values (days, report kinds and statuses, area references, positions):
        // strings exist only at the SQL and JSON edges.
        .target(name: "DomainKernel", swiftSettings: strict),
        // Geometry: GeoJSON, validation with GEOS, the area index. Every GEOS handle stays inside.
        .target(name: "GeoCore", dependencies: ["DomainKernel", "Support", "CGEOS", "CPrefetch"], swiftSettings: strict),
        .target(name: "ReportVerification", dependencies: ["DomainKernel", "Support"], swiftSettings: strict),
        .target(name: "Aggregation", dependencies: ["DomainKernel"], swiftSettings: strict),
        .target(name: "MapTiles", dependencies: ["GeoCore", "DomainKernel", "Support", "CCairo", "CZlib"], swiftSettings: strict),
        // The store's protocols and the backend-neutral logic; each backend only runs its SQL.
        .target(
            name: "Storage",
            dependencies: ["DomainKernel", "Support", "GeoCore", "ReportVerification", "Aggregation", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .target(name: "StorageSQLite", dependencies: ["Storage", "DomainKernel", "Support", "GeoCore", "ReportVerification", "Aggregation", "CSQLite"], swiftSettings: strict),
        // Several processes on one PostgreSQL, through libpq on threads of the store's own.
        .target(name: "StoragePostgres", dependencies: ["Storage", "DomainKernel", "Support", "GeoCore", "ReportVerification", "Aggregation", "CLibPQ"], swiftSettings: strict),
        // The HTTP application: controllers, services, pages, and the helpers they share with the
        // commands. A library, so the commands above it see only what it declares `package`.
        .target(
            name: "GeoserveApp",
            dependencies: [
                "DomainKernel", "Support", "GeoCore", "Storage", "StorageSQLite", "StoragePostgres", "ReportVerification", "Aggregation", "MapTiles", "CMalloc",
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The pages' HTML, CSS and JavaScript, compiled in as `PackageResources` byte arrays:
            // the binary deploys alone, without a resource bundle beside it.
            resources: [.embedInCode("Pages/Assets")],
            swiftSettings: strict
        ),
        // The commands: each parses its options and calls the app library or the store.
        .executableTarget(
            name: "geoserve",
            dependencies: [
                "GeoserveApp", "DomainKernel", "Support", "GeoCore", "Storage", "StorageSQLite", "StoragePostgres", "ReportVerification", "Aggregation", "MapTiles",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        .testTarget(name: "DomainKernelTests", dependencies: ["DomainKernel"], swiftSettings: strict),
        .testTarget(name: "SupportTests", dependencies: ["Support"], swiftSettings: strict),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore", "DomainKernel", "Support", "CGEOS"], swiftSettings: strict),
        .testTarget(name: "ReportVerificationTests", dependencies: ["ReportVerification", "DomainKernel", "Support"], swiftSettings: strict),
        .testTarget(name: "AggregationTests", dependencies: ["Aggregation", "DomainKernel"], swiftSettings: strict),
        .testTarget(name: "MapTilesTests", dependencies: ["MapTiles", "GeoCore", "DomainKernel", "Support", "CZlib", "CCairo"], swiftSettings: strict),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "StorageSQLite", "StoragePostgres", "DomainKernel", "Support", "GeoCore", "ReportVerification", "Aggregation", "CSQLite"], swiftSettings: strict),
        .testTarget(
            name: "GeoserveTests",
            dependencies: [
                "GeoserveApp", "geoserve", "DomainKernel", "Support", "GeoCore", "Storage", "StorageSQLite", "StoragePostgres", "Aggregation", "MapTiles", "ReportVerification",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
