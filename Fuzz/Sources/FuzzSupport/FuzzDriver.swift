/// The libFuzzer entry point a target hands its test function to.
///
/// SwiftPM writes its own `main`, which hides libFuzzer's; so each target's
/// main.swift calls `LLVMFuzzerRunDriver` itself with the process arguments.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: FuzzTest
) -> Int32

/// Runs libFuzzer with the command-line arguments and `test`.
public func runFuzzer(_ test: FuzzTest) -> Int32 {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, test)
}

/// The fuzzer's bytes as an array.
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
