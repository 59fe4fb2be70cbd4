// swift-tools-version: 6.0
import PackageDescription

// The decoder benchmark's Swift side (Scripts/bench-codable.py runs it):
// one way of decoding 1M products into `[Product]` per run.
let package = Package(
    name: "CodableBench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Ferry", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "codable-bench",
            dependencies: [.product(name: "Ferry", package: "Ferry")]),
    ],
    swiftLanguageModes: [.v6]
)
