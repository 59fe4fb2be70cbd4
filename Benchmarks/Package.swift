// swift-tools-version: 6.0
import PackageDescription

// Micro-benchmarks of FerryKit's parts, apart from the tests (timings never
// belong in tests). Build and run them with Scripts/bench-keys.sh.
let package = Package(
    name: "FerryBenchmarks",
    dependencies: [.package(name: "Ferry", path: "..")],
    targets: [
        .executableTarget(name: "BenchKeys", dependencies: [.product(name: "Ferry", package: "Ferry")]),
        .executableTarget(name: "BenchArchiveEdit", dependencies: [.product(name: "Ferry", package: "Ferry")]),
    ],
    swiftLanguageModes: [.v6]
)
