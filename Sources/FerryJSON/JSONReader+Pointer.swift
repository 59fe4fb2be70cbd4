import FerryCore

// MARK: - Records at a pointer (`--records-at`)
//
// With a pointer, the records are the elements of the array it names, and
// the reader walks there and back one step at a time, each step a scan that
// restarts from its start on a refill (as a record's does):
//
//     {"meta": {"v": 2}, "products": [ {…}, {…} ], "next": null}
//      └ seek: skip "meta" ┘ └ enter ─┘ └ records ┘ └ leave: skip "next" ┘
//
// `enter(level)` is at the value of token `level`: an object or array it
// opens, or at the last token the array itself. `seek(level, index)` reads
// the container's member (or element) `index`: the one the token names
// enters the next level, another is skipped by the scanner, built into
// nothing. After the array's `]`, `leave(level)` skips what follows in each
// container around it, innermost first, then the trailer. Memory stays one
// chunk plus the largest value skipped or record read, each under
// `--max-record-bytes`.

extension JSONReader {
    /// The nesting of the records' array: 1 at the top level.
    var arrayDepth: Int { (pointer?.tokens.count ?? 0) + 1 }

    /// What follows the records' array's `]` (stored as `afterArray`).
    static func afterArray(_ pointer: JSONPointer?) -> State {
        pointer.map { .leave(level: $0.tokens.count - 1) } ?? .trailer
    }

    /// At the value of token `level`, or at the array when it is the last.
    func enter(level: Int) throws(FerryError) -> Step {
        guard let pointer else { return .end }
        let (byte, start) = try scan(inRecord: false) { (scanner) throws(JSONScanError) -> (UInt8, Int) in
            (try scanner.peekSignificant(), scanner.position)
        }
        if level == pointer.tokens.count {
            guard byte == UInt8(ascii: "[") else {
                let found = byte == UInt8(ascii: "{") ? "object" : typeName(at: start)
                throw .jsonPointerNotArray(pointer.text, found: found, at: window.location(of: start))
            }
            position = start + 1
            state = .inArray(first: true)
            return .other
        }
        guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else {
            throw .jsonPointerNotFound(pointer.text, at: window.location(of: start))
        }
        guard level + 1 <= maxDepth else { throw .nestingTooDeep(limit: maxDepth, at: window.location(of: start)) }
        position = start + 1
        containers.append(byte == UInt8(ascii: "{"))
        state = .seek(level: level, index: 0)
        return .other
    }

    /// Reads member or element `index` of the container at `level`.
    func seek(level: Int, index: Int) throws(FerryError) -> Step {
        guard let pointer else { return .end }
        let isObject = containers[level]
        let wanted = isObject ? nil : pointer.index(at: level)
        let token = pointer.tokens[level]
        let found = try scan(inRecord: false) { (scanner) throws(JSONScanError) -> Bool? in
            let byte = try scanner.peekSignificant()
            if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { return nil }
            if index > 0 { try scanner.expect(UInt8(ascii: ",")) }
            if isObject {
                guard try scanner.peekSignificant() == UInt8(ascii: "\"") else {
                    throw scanner.unexpected(at: scanner.position)
                }
                let name = try scanner.parseString()
                try scanner.expect(UInt8(ascii: ":"))
                if name == token { return true }
            } else if index == wanted {
                return true
            }
            try scanner.skipValue(depth: level + 1)
            return false
        }
        switch found {
        case nil: throw .jsonPointerNotFound(pointer.text, at: window.location(of: position))
        case true?: state = .enter(level: level + 1)
        case false?: state = .seek(level: level, index: index + 1)
        }
        return .other
    }

    /// Skips the next member or element after the path in the container at
    /// `level`, or closes it.
    func leave(level: Int) throws(FerryError) -> Step {
        guard level >= 0 else {
            state = .trailer
            return .other
        }
        let isObject = containers[level]
        let closed = try scan(inRecord: false) { (scanner) throws(JSONScanError) -> Bool in
            if try scanner.peekSignificant() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                scanner.position += 1
                return true
            }
            try scanner.expect(UInt8(ascii: ","))
            if isObject {
                guard try scanner.peekSignificant() == UInt8(ascii: "\"") else {
                    throw scanner.unexpected(at: scanner.position)
                }
                _ = try scanner.parseString()
                try scanner.expect(UInt8(ascii: ":"))
            }
            try scanner.skipValue(depth: level + 1)
            return false
        }
        if closed { state = .leave(level: level - 1) }
        return .other
    }

    /// The type name of the value at window index `index`, for messages.
    private func typeName(at index: Int) -> String {
        window.bytes.withUnsafeBufferPointer { buffer in
            JSONScanner(
                UnsafeBufferPointer(rebasing: buffer[0..<window.count]), position: index, isFinal: true,
                maxDepth: maxDepth
            ).typeNameAtPosition()
        }
    }
}

extension JSONScanner {
    /// Checks the value at the position and moves past it, building nothing
    /// but the strings it checks (those with escapes or bytes beyond ASCII:
    /// a plain string's bytes are its text); `depth` counts the containers
    /// around it.
    mutating func skipValue(depth: Int) throws(JSONScanError) {
        let byte = try peekSignificant()
        let closing: UInt8
        switch byte {
        case UInt8(ascii: "{"): closing = UInt8(ascii: "}")
        case UInt8(ascii: "["): closing = UInt8(ascii: "]")
        case UInt8(ascii: "\""):
            let text = try scanString()
            if text.hasEscapes || text.hasNonASCII { _ = try makeString(text) }
            return
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try scanNumber()
            return
        default:
            _ = try parseValue(depth: depth)
            return
        }
        try checkDepth(depth + 1)
        position += 1
        if try peekSignificant() == closing {
            position += 1
            return
        }
        while true {
            if closing == UInt8(ascii: "}") {
                guard try peekSignificant() == UInt8(ascii: "\"") else { throw unexpected(at: position) }
                let name = try scanString()
                if name.hasEscapes || name.hasNonASCII { _ = try makeString(name) }
                try expect(UInt8(ascii: ":"))
            }
            try skipValue(depth: depth + 1)
            let next = try peekSignificant()
            if next == closing {
                position += 1
                return
            }
            guard next == UInt8(ascii: ",") else { throw unexpected(at: position) }
            position += 1
        }
    }
}
