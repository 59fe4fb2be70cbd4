import FerryCore

// MARK: - Design
//
// Where the elements of a top-level JSON array begin and end, read once,
// chunk by chunk, so that a plan can cut the array between two elements.
// It follows the structure the scanner reads: whitespace, then `[`; each
// element is a value; strings end at a quote that no backslash escapes (as
// `JSONScanner.scanString` ends them); brackets and braces nest. The commas
// at depth 1, between two elements, are the places to cut:
//
//     [\n  {"name": "Wii, [2006]"},\n  {"name": "Xbox"}\n]\n
//     ^ opens                     ^ comma at depth 1: a cut
//                  (the comma and bracket inside the string are text)
//
// It checks no more than that: the reader of each piece finds any other
// error, at the place a whole read would name.

/// Finds the commas between the elements of a top-level JSON array.
package struct JSONArrayCutter {
    package enum State: Equatable {
        /// Before the opening bracket.
        case before
        /// Inside the array.
        case inside
        /// After the closing bracket.
        case after
        /// The document is not an array.
        case notArray
    }

    package private(set) var state = State.before
    /// Elements begun so far.
    package private(set) var elements = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Whether an element has begun since the last comma at depth 1.
    private var elementOpen = false

    package init() {}

    /// Reads `chunk`, calling `cut` with the index of each comma between two
    /// elements (`elements` then counts those before it), until it returns false.
    /// - Returns: false when `cut` stopped it.
    package mutating func scan(_ chunk: UnsafeRawBufferPointer, _ cut: (Int, _ elementsBefore: Int) -> Bool) -> Bool {
        var index = 0
        let count = chunk.count
        while index < count {
            let byte = chunk[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                index += 1
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                break
            case 0x5B where state == .before:
                state = .inside
                depth = 1
            case _ where state == .before:
                state = .notArray
                return true
            case _ where state != .inside:
                return true
            case 0x2C where depth == 1:
                if !cut(index, elements) { return false }
                elementOpen = false
            case 0x5D where depth == 1:
                state = .after
            default:
                if depth == 1 && !elementOpen {
                    elementOpen = true
                    elements += 1
                }
                switch byte {
                case 0x22: inString = true
                case 0x5B, 0x7B: depth += 1
                case 0x5D, 0x7D: depth -= 1
                default: break
                }
            }
            index += 1
        }
        return true
    }
}
