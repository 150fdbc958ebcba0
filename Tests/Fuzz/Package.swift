// swift-tools-version:6.1
// libFuzzer harnesses for the readers of untrusted input: the JSON parser, the GeoJSON layer
// reader (with GEOS validation), the report decoder and the CSV reader of report imports. A
// package of its own, like Tests/Sanitized, so the fuzzer build (`--sanitize=fuzzer` and
// `--sanitize=address`) compiles these modules and nothing of the server's dependencies.
// Tests/Fuzz/run.sh builds and runs them; each harness is an executable whose `main` is
// libFuzzer's, so the sources are parsed as a library.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
let harness: [SwiftSetting] = strict + [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "geoserve-fuzz",
    targets: [
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CPrefetch"),
        .target(name: "Support", swiftSettings: strict),
        .target(name: "DomainKernel", swiftSettings: strict),
        .target(name: "GeoCore", dependencies: ["DomainKernel", "Support", "CGEOS", "CPrefetch"], swiftSettings: strict),
        .target(name: "ReportVerification", dependencies: ["DomainKernel", "Support"], swiftSettings: strict),
        .executableTarget(name: "FuzzJSON", dependencies: ["Support"], swiftSettings: harness),
        .executableTarget(name: "FuzzGeoJSON", dependencies: ["GeoCore", "Support"], swiftSettings: harness),
        .executableTarget(name: "FuzzReport", dependencies: ["ReportVerification", "DomainKernel", "Support"], swiftSettings: harness),
        // The CSV reader lives in the server's Input folder, which names nothing outside Support:
        // its file is compiled here as is, beside Support (it can read a mapped file).
        .executableTarget(name: "FuzzCSV", dependencies: ["Support"], swiftSettings: harness),
    ],
    swiftLanguageModes: [.v6]
)
