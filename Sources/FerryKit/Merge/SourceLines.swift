/// The lines of records, found after the reading: a conflict names
/// `file:line`, but the readers have moved past their records by the time
/// a merge knows which ones conflict. So each file that has lines (a text
/// format, not standard input) is read once more, inflated if it is gzip,
/// and its lines counted up to each record's first byte (`LineCounter`:
/// LF, CRLF or a lone CR end a line).
enum SourceLines {
    /// Fills in the line of every place in a file `hasLines` says has lines.
    /// - Throws: `io.*` when a file can no longer be read.
    static func fill(
        _ places: inout [MergeReport.Place], hasLines: [String: Bool], limits: ReadLimits
    ) throws(FerryError) {
        // Each file's places by offset, gathered in one pass: hashing a
        // place's path cost 2,500 instructions a place. Places of one file
        // share its path's string, which compares at once: the file of the
        // place before is tried first.
        var files: [(file: String, wanted: [(offset: Int, place: Int)])] = []
        var numbers: [String: Int] = [:]
        var last = -1
        for (index, place) in places.enumerated() {
            if last < 0 || files[last].file != place.file {
                if let number = numbers[place.file] {
                    last = number
                } else {
                    last = files.count
                    numbers[place.file] = last
                    files.append((place.file, []))
                }
            }
            files[last].wanted.append((place.byteOffset, index))
        }
        for (file, found) in files.sorted(by: { $0.file < $1.file }) where hasLines[file] == true {
            // Places in reading order are mostly in order of offset already.
            let ascending = zip(found, found.dropFirst()).allSatisfy { $0.offset <= $1.offset }
            let wanted = ascending ? found : found.sorted { $0.offset < $1.offset }
            let lines = try self.lines(of: file, at: wanted.map(\.offset), limits: limits)
            for (entry, line) in zip(wanted, lines) { places[entry.place].line = line }
        }
    }

    /// The 1-based line of each of `offsets`, which are in ascending order.
    static func lines(of path: String, at offsets: [Int], limits: ReadLimits) throws(FerryError) -> [Int] {
        let opened = try OpenedInput(path: path, limits: limits)
        var counter = LineCounter()
        var lines: [Int] = []
        var position = 0
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
        defer { chunk.deallocate() }
        var pending = offsets[...]
        while !pending.isEmpty {
            let read = try opened.input.read(into: chunk)
            if read == 0 { break }
            var start = 0
            while let next = pending.first, next < position + read {
                counter.consume(UnsafeRawBufferPointer(rebasing: chunk[start..<(next - position)]))
                start = next - position
                lines.append(counter.line)
                pending.removeFirst()
            }
            counter.consume(UnsafeRawBufferPointer(rebasing: chunk[start..<read]))
            position += read
        }
        // Offsets past the end (none, unless the file changed) get the last line.
        lines += pending.map { _ in counter.line }
        return lines
    }
}
