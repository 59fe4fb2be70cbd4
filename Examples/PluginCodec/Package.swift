// swift-tools-version: 6.0
import PackageDescription

// A codec that lives outside Ferry: a Markdown table writer in a package of
// its own, plus a `ferry-md` command that is Ferry's CLI with it registered.
// Nothing in Ferry is edited to add it.
let package = Package(
    name: "PluginCodec",
    products: [
        .library(name: "FerryMarkdown", targets: ["FerryMarkdown"]),
        .executable(name: "ferry-md", targets: ["ferry-md"]),
    ],
    dependencies: [
        .package(name: "Ferry", path: "../.."),
    ],
    targets: [
        // A codec needs FerryCore only: the protocols, records and errors.
        .target(
            name: "FerryMarkdown",
            dependencies: [.product(name: "FerryCore", package: "Ferry")]),
        .executableTarget(
            name: "ferry-md",
            dependencies: [
                "FerryMarkdown",
                .product(name: "Ferry", package: "Ferry"),
                .product(name: "FerryCommandLine", package: "Ferry"),
            ]),
        .testTarget(
            name: "FerryMarkdownTests",
            dependencies: [
                "FerryMarkdown",
                "ferry-md",
                .product(name: "Ferry", package: "Ferry"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
