// swift-tools-version: 6.0
import PackageDescription

// An app's own code using Ferry as a library: it moves the GameStore's
// products out of the old keyed archive into its own `Product` type, then
// writes them as JSON Lines and CSV.
let package = Package(
    name: "LibraryUse",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Ferry", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "library-use",
            dependencies: [.product(name: "Ferry", package: "Ferry")]),
    ],
    swiftLanguageModes: [.v6]
)
