#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@testable import FerryCore

/// `AnonymousFile`: what a merge spills and a workbook's rows wait in.
@Suite struct AnonymousFileTests {
    /// Bytes past the 1 MiB buffer come back whole, in order and at any
    /// offset, and the file has no name in its folder while it is open.
    @Test func bytesComeBackInOrderAndAnywhere() throws {
        let purpose = "test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = try AnonymousFile(purpose: purpose)
        let names = try FileManager.default.contentsOfDirectory(atPath: file.folder)
        #expect(!names.contains { $0.hasPrefix(".ferry-\(purpose)") }, "unlinked at once")

        let pattern = (0..<(3 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        try pattern.withUnsafeBytes { try file.append(UnsafeRawBufferPointer(rebasing: $0[0..<1000])) }
        try file.append(Array(pattern[1000...]))
        #expect(file.size == pattern.count)

        var back: [UInt8] = []
        var pieces = 0
        try file.readBack { (bytes) throws(FerryError) in
            back.append(contentsOf: bytes)
            pieces += 1
        }
        #expect(back == pattern)
        #expect(pieces == 2, "1 MiB at a time")

        let middle = UnsafeMutableRawBufferPointer.allocate(byteCount: 5000, alignment: 1)
        defer { middle.deallocate() }
        try file.read(at: 1 << 20 - 17, into: middle)
        #expect(Array(middle) == Array(pattern[(1 << 20 - 17)..<(1 << 20 - 17 + 5000)]))
    }
}
