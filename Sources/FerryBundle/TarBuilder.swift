import FerryCore

/// Writes a POSIX tar archive of regular files into an output, one entry
/// at a time (see `TarHeader` for the layout).
///
/// Headers are ustar; a name past 100 bytes or a size past 8 GiB gets a pax
/// extended header before it, as `tar --format=posix` writes. Files get mode
/// 0644, owner 0 and the given modification time, so the same records make
/// the same archive.
struct TarBuilder {
    let output: any ByteOutput
    /// Seconds since 1970.
    let modified: Int
    private var written = 0

    /// The largest size an octal `size` field holds (11 digits).
    static let maxOctalSize = 0o77777777777

    init(_ output: any ByteOutput, modified: Int) {
        self.output = output
        self.modified = modified
    }

    /// Writes a file whose content is in memory.
    /// - Throws: output errors.
    mutating func addFile(_ name: String, bytes: [UInt8]) throws(FerryError) {
        try beginFile(name, size: bytes.count)
        try output.write(bytes)
        try endFile(size: bytes.count)
    }

    /// Writes a file's header; its `size` bytes of content follow, then `endFile`.
    /// - Throws: output errors.
    mutating func beginFile(_ name: String, size: Int) throws(FerryError) {
        var records: [UInt8] = []
        if name.utf8.count > 100 { records += PaxRecords.record("path", name) }
        if size > TarBuilder.maxOctalSize { records += PaxRecords.record("size", String(size)) }
        if !records.isEmpty {
            let paxName = "PaxHeaders/" + String(decoding: name.utf8.suffix(80), as: UTF8.self)
            try write(TarHeader.encode(name: paxName, size: records.count, modified: modified, type: UInt8(ascii: "x")))
            try write(records)
            try write(padding: records.count)
        }
        try write(
            TarHeader.encode(
                name: name, size: size > TarBuilder.maxOctalSize ? 0 : size, modified: modified, type: UInt8(ascii: "0")))
        written += size
    }

    /// Pads the content of a file of `size` bytes to a whole block.
    mutating func endFile(size: Int) throws(FerryError) {
        try write(padding: size)
    }

    /// Ends the archive with two zero blocks, padded to a 10 KiB record as tar does.
    mutating func finish() throws(FerryError) {
        try write([UInt8](repeating: 0, count: 2 * TarHeader.blockSize))
        let record = 20 * TarHeader.blockSize
        let rest = (record - written % record) % record
        if rest > 0 { try write([UInt8](repeating: 0, count: rest)) }
    }

    private mutating func write(_ bytes: [UInt8]) throws(FerryError) {
        try output.write(bytes)
        written += bytes.count
    }

    private mutating func write(padding size: Int) throws(FerryError) {
        let count = TarScanner.padding(after: size)
        if count > 0 { try write([UInt8](repeating: 0, count: count)) }
    }
}
