// swift-tools-version:6.1
// GeoCore (with the two small modules it stands on) and its tests alone, for the AddressSanitizer run of `./dev.sh test`: GeoCore owns every
// GEOS handle, so its C interop is checked for memory errors and leaks. A package of its own, so
// the sanitizer build compiles GeoCore and nothing else (not the server's dependencies).
import PackageDescription

let package = Package(
    name: "geoserve-sanitized",
    targets: [
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CPrefetch"),
        .target(name: "Support", swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]),
        .target(name: "DomainKernel", swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]),
        .target(name: "GeoCore", dependencies: ["DomainKernel", "Support", "CGEOS", "CPrefetch"],
                swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore", "DomainKernel", "Support", "CGEOS"],
                    swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]),
    ],
    swiftLanguageModes: [.v6]
)
