// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Ferry",
    products: [
        // The library: the model, the coders, the commands and every built-in
        // codec, as an app or a plugin codec imports it (`import Ferry`).
        .library(name: "Ferry", targets: ["Ferry"]),
        // The core alone, for someone writing a codec in their own package
        // who wants nothing of the built-in codecs.
        .library(name: "FerryCore", targets: ["FerryCore"]),
        // The command line as a library, so a plugin package can ship a `ferry`
        // with its own codecs registered.
        .library(name: "FerryCommandLine", targets: ["FerryCommandLine"]),
        .executable(name: "ferry", targets: ["ferry"]),
    ],
    targets: [
        // The one system call Swift cannot make itself (getdents64, for the signal handler).
        .target(name: "CFerrySystem"),
        .target(name: "CFerryScan"),
        .target(name: "FerryCore", dependencies: ["CFerrySystem", "CFerryScan"]),
        .target(name: "FerryJSON", dependencies: ["FerryCore"]),
        .target(name: "FerryCSV", dependencies: ["FerryCore"]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "FerryGzip", dependencies: ["FerryCore", "CZlib"]),
        // CSV to JSON(L) faster, for that pair only: registered as an accelerator.
        .target(name: "FerryCSVToJSON", dependencies: ["FerryCore", "FerryCSV", "FerryJSON", "CFerryScan"]),
        .target(name: "FerryPlist", dependencies: ["FerryCore"]),
        .target(name: "FerryBundle", dependencies: ["FerryCore", "FerryGzip", "CZlib"]),
        // Excel workbooks: zip (raw deflate through FerryGzip's zlib streams) of SpreadsheetML parts.
        .target(name: "FerryXLSX", dependencies: ["FerryCore", "FerryGzip", "CZlib"]),
        .target(name: "FerryKit", dependencies: ["FerryCore", "CFerrySystem", "CFerryScan", "FerryJSON", "FerryCSV", "FerryCSVToJSON", "FerryGzip", "FerryPlist", "FerryBundle", "FerryXLSX"]),
        // The module behind the `Ferry` product: re-exports, and the DocC catalog.
        .target(name: "Ferry", dependencies: ["FerryCore", "FerryKit"]),
        .target(name: "FerryCommandLine", dependencies: ["FerryKit"]),
        .executableTarget(name: "ferry", dependencies: ["FerryCommandLine"]),
        // The API an app sees through `import Ferry`, and nothing else.
        .testTarget(name: "FerryLibraryTests", dependencies: ["Ferry"]),
        .testTarget(name: "FerryCoreTests", dependencies: ["FerryCore", "FerryTestSupport"]),
        .testTarget(name: "FerryJSONTests", dependencies: ["FerryJSON", "FerryKit"]),
        .testTarget(name: "FerryKitTests", dependencies: ["FerryKit", "FerryTestSupport"]),
        .testTarget(name: "FerryCSVTests", dependencies: ["FerryCSV", "FerryKit"]),
        .testTarget(name: "FerryCSVToJSONTests", dependencies: ["FerryCSVToJSON", "FerryCSV", "FerryJSON"]),
        .testTarget(name: "FerryGzipTests", dependencies: ["FerryGzip", "FerryKit", "FerryTestSupport"]),
        .testTarget(name: "FerryPlistTests", dependencies: ["FerryPlist", "FerryKit", "FerryTestSupport"]),
        .testTarget(name: "FerryXLSXTests", dependencies: ["ferry", "FerryXLSX", "FerryKit", "FerryTestSupport"]),
        .testTarget(name: "FerryBundleTests", dependencies: ["ferry", "FerryBundle", "FerryKit", "FerryTestSupport"]),
        // What the tests that run `ferry` share: paths, processes, scratch folders.
        .target(name: "FerryTestSupport", dependencies: ["FerryKit"], path: "Tests/FerryTestSupport"),
        .testTarget(
            name: "FerryCLITests", dependencies: ["ferry", "FerryCommandLine", "FerryKit", "FerryTestSupport"]),
        .testTarget(name: "FerryInteropTests", dependencies: ["ferry", "FerryKit", "FerryTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
