// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets, one per decoder. Build and run them with Scripts/fuzz.sh;
// they only work when built with -sanitize=fuzzer (see that script).
let package = Package(
    name: "FerryFuzz",
    dependencies: [.package(name: "Ferry", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzSupport", .product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "FuzzJSONL", dependencies: ["FuzzSupport", .product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "FuzzCSV", dependencies: ["FuzzSupport", .product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "FuzzGzip", dependencies: ["FuzzSupport", .product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "FuzzPlist", dependencies: ["FuzzSupport", .product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "FuzzArchive", dependencies: ["FuzzSupport", .product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "FuzzXMLPlist", dependencies: ["FuzzSupport", .product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "FuzzBundle", dependencies: ["FuzzSupport", .product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "FuzzXLSX", dependencies: ["FuzzSupport", .product(name: "Ferry", package: "Ferry")]),
        .executableTarget(
            name: "FuzzCLI",
            dependencies: [
                "FuzzSupport", .product(name: "Ferry", package: "Ferry"),
                .product(name: "FerryCommandLine", package: "Ferry"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
