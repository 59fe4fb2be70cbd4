#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole input in memory, for formats that must see all of it at once (a
/// binary plist's offset table is at its end).
///
/// A regular file of a megabyte or more is mapped (`FileMapping`, Linux):
/// nothing is copied. Anything else is read straight into memory the object
/// owns, sized from the input when the size is known, so a large input is
/// held once. That memory, for a large input of known size, is mapped with
/// its pages made up front (`MAP_POPULATE`) instead of allocated: faulting
/// each 4 KiB page in as the read reaches it cost twice as much.
package final class InputBytes: @unchecked Sendable {
    /// The bytes; valid only while the object lives, so a caller keeps the
    /// object (as the binary plist scanner does) or uses the methods below,
    /// never `bytes` of a temporary.
    package let bytes: UnsafeRawBufferPointer
    private let storage: Storage

    private init(storage: Storage, from start: Int = 0, count: Int) {
        self.storage = storage
        bytes = UnsafeRawBufferPointer(rebasing: storage.memory[start..<start + count])
    }

    /// A copy of `array`.
    package convenience init(_ array: [UInt8]) {
        let storage = Storage(allocating: array.count)
        array.withUnsafeBytes { storage.memory.copyMemory(from: $0) }
        self.init(storage: storage, count: array.count)
    }

    deinit { storage.release() }

    package var count: Int { bytes.count }

    /// A copy of the bytes as an array.
    package func array() -> [UInt8] { Array(bytes) }

    /// Whether the bytes start with `prefix`.
    package func starts(with prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }

    /// Every remaining byte of `input`.
    /// - Throws: `limit.inputTooLarge` as soon as the input passes `limit`;
    ///   `io.readFailed`.
    package static func read(_ input: any ByteInput, limit: Int) throws(FerryError) -> InputBytes {
        if let size = input.sizeHint, size > limit { throw .inputTooLarge(limit: limit, at: SourceLocation(file: input.name)) }
        if let (mapping, start) = input.mapRemainder(holding: 0) {
            let count = mapping.bytes.count - start
            guard count <= limit else { throw .inputTooLarge(limit: limit, at: SourceLocation(file: input.name)) }
            return InputBytes(storage: Storage(file: mapping), from: start, count: count)
        }
        // One byte more than announced, to notice a file that grew.
        var storage =
            if let size = input.sizeHint { Storage(mapping: min(size + 1, limit + 1)) } else { Storage(allocating: 1 << 16) }
        var count = 0
        var readRest = false
        do throws(FerryError) {
            while true {
                if count == storage.memory.count {
                    guard count <= limit else { throw FerryError.inputTooLarge(limit: limit, at: SourceLocation(file: input.name)) }
                    let grown = Storage(allocating: min(count * 2, limit + 1))
                    grown.memory.copyMemory(from: UnsafeRawBufferPointer(storage.memory))
                    storage.release()
                    storage = grown
                }
                let room = UnsafeMutableRawBufferPointer(rebasing: storage.memory[count...])
                // After the first read (which takes any peeked bytes), the
                // rest in one go if the input can.
                if count > 0, !readRest, let got = try input.readRemainder(into: room) {
                    readRest = true
                    count += got
                    continue
                }
                let got = try input.read(into: room)
                if got == 0 { break }
                count += got
            }
            guard count <= limit else { throw FerryError.inputTooLarge(limit: limit, at: SourceLocation(file: input.name)) }
        } catch {
            storage.release()
            throw error
        }
        return InputBytes(storage: storage, count: count)
    }

    /// The file mapped, memory from the allocator, or anonymous memory
    /// mapped.
    private struct Storage {
        let memory: UnsafeMutableRawBufferPointer
        /// Whether `memory` is an anonymous mapping, to unmap.
        let mapped: Bool
        /// The file mapped, which unmaps itself.
        private let file: FileMapping?

        private init(memory: UnsafeMutableRawBufferPointer, mapped: Bool) {
            self.memory = memory
            self.mapped = mapped
            file = nil
        }

        /// The file's bytes, read only (the type is shared with the memory
        /// that reads fill).
        init(file: FileMapping) {
            memory = UnsafeMutableRawBufferPointer(mutating: file.bytes)
            mapped = false
            self.file = file
        }

        init(allocating count: Int) {
            self.init(memory: .allocate(byteCount: max(count, 1), alignment: 8), mapped: false)
        }

        /// Mapped and populated when large (on Linux); else allocated.
        init(mapping count: Int) {
            #if os(Linux)
            if count >= 1 << 20,
                let start = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0),
                start != MAP_FAILED
            {
                self.init(memory: UnsafeMutableRawBufferPointer(start: start, count: count), mapped: true)
                return
            }
            #endif
            self.init(allocating: count)
        }

        func release() {
            if file != nil { return }
            if mapped { munmap(memory.baseAddress, memory.count) } else { memory.deallocate() }
        }
    }
}
