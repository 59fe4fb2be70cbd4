// MARK: - Design
//
// The patterns people write in product schemas are a row of single
// scalars, each repeated a few times, often anchored at both ends:
//
//     ^GS-[0-9]{7}$        ^name_[a-z]{2}$        ^[A-Z]{3}$        \.png$
//
// Such a pattern is compiled once into a row of steps, each a set of
// scalars that must (or may, or may repeatedly) come next, and matched by
// walking the text's UTF-8 once with the set of steps reached so far as the
// bits of a word (a Thompson simulation, linear in the text; no
// backtracking):
//
//     ^GS-[0-9]{2,3}$  ->  G  S  -  [0-9]  [0-9]  [0-9]?      (6 steps)
//     reached after "GS-12":  bits 5 and 6 (the optional step may be skipped)
//
// Anything else (groups, `|`, back references, `\b`, `\p{…}`, escapes of
// code points, lazy quantifiers, more than 63 steps) is not one of these,
// and `SchemaPattern` keeps `Regex` for it. Only patterns that the
// ECMA-262 translator has accepted get here, so the syntax is known valid.
// Matching `^GS-[0-9]{7}$` took about 0.8 µs a value with `Regex`.

/// A pattern made of single-scalar steps: see the design note.
struct ScalarPattern: Sendable {
    /// One step: a set of scalars, and how often it comes.
    struct Step: Sendable {
        /// Which ASCII scalars the set has, a bit each.
        var ascii: (low: UInt64, high: UInt64) = (0, 0)
        /// Whether scalars past ASCII are in the set (all of them, or none:
        /// sets with some are not compiled here).
        var beyondASCII = false
        /// The step may be skipped.
        var optional = false
        /// The step may come again and again (`*`, `+`, `{n,}`).
        var repeats = false

        func contains(_ scalar: UInt32) -> Bool {
            if scalar >= 0x80 { return beyondASCII }
            return scalar < 64 ? ascii.low >> scalar & 1 == 1 : ascii.high >> (scalar - 64) & 1 == 1
        }
    }

    let steps: [Step]
    let anchoredStart: Bool
    let anchoredEnd: Bool
    /// The optional steps, a bit each.
    private let optionalSteps: UInt64

    // MARK: - Matching

    /// Whether the pattern matches anywhere in `text`, valid UTF-8.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        // Anchored at both ends with every step once (`^GS-[0-9]{7}$`): an
        // ASCII text matches byte by byte, a step each.
        if anchoredStart && anchoredEnd && optionalSteps == 0 && text.count == steps.count {
            var ascii = true
            for index in 0..<text.count {
                let byte = text[index]
                if byte >= 0x80 {
                    ascii = false
                    break
                }
                if !steps[index].contains(UInt32(byte)) { return false }
            }
            if ascii { return true }
        }
        let accept: UInt64 = 1 << UInt64(steps.count)
        var reached = closure(1)
        if reached & accept != 0 && !anchoredEnd { return true }
        var index = 0
        while index < text.count {
            var scalar = UInt32(text[index])
            index += 1
            if scalar >= 0x80 {
                // Valid UTF-8: the lead byte says how many follow.
                let extra = scalar >= 0xF0 ? 3 : scalar >= 0xE0 ? 2 : 1
                scalar &= extra == 3 ? 0x07 : extra == 2 ? 0x0F : 0x1F
                for _ in 0..<extra where index < text.count {
                    scalar = scalar << 6 | UInt32(text[index] & 0x3F)
                    index += 1
                }
            }
            var next: UInt64 = 0
            var pending = reached & (accept - 1)
            while pending != 0 {
                let step = pending.trailingZeroBitCount
                pending &= pending - 1
                let rule = steps[step]
                if rule.contains(scalar) { next |= rule.repeats ? (1 << UInt64(step)) | (1 << UInt64(step + 1)) : 1 << UInt64(step + 1) }
            }
            if !anchoredStart { next |= 1 }
            reached = closure(next)
            if reached & accept != 0 && !anchoredEnd { return true }
            if reached == 0 { return false }
        }
        return reached & accept != 0
    }

    /// `reached` with every step after an optional one it reaches.
    private func closure(_ reached: UInt64) -> UInt64 {
        if reached & optionalSteps == 0 { return reached }
        var reached = reached
        for step in steps.indices where steps[step].optional && reached >> UInt64(step) & 1 == 1 {
            reached |= 1 << UInt64(step + 1)
        }
        return reached
    }

    // MARK: - Compiling

    /// The steps of `source`; nil when it is not a row of single scalars.
    init?(_ source: String) {
        var scalars = Array(source.unicodeScalars)[...]
        anchoredStart = scalars.first == "^"
        if anchoredStart { scalars = scalars.dropFirst() }
        anchoredEnd = scalars.last == "$" && (scalars.count < 2 || scalars[scalars.index(before: scalars.endIndex)] != "\\")
        if anchoredEnd { scalars = scalars.dropLast() }
        var steps: [Step] = []
        while let first = scalars.first {
            scalars = scalars.dropFirst()
            var step = Step()
            switch first {
            case "\\":
                guard let escaped = scalars.first, Self.escape(escaped, into: &step) else { return nil }
                scalars = scalars.dropFirst()
            case "[":
                guard let end = Self.set(&scalars, into: &step) else { return nil }
                scalars = end
            case ".":
                // Any scalar but a line terminator (U+2028 and U+2029 are past ASCII: refused).
                return nil
            case "(", ")", "|", "^", "$", "*", "+", "?", "{", "}", "]":
                return nil
            default:
                guard first.isASCII else { return nil }
                step.add(first.value)
            }
            guard let (least, most) = Self.quantifier(&scalars) else { return nil }
            for _ in 0..<least { steps.append(step) }
            if let most {
                step.optional = true
                for _ in least..<most { steps.append(step) }
            } else {
                step.optional = true
                step.repeats = true
                steps.append(step)
            }
            if steps.count > 63 { return nil }
        }
        self.steps = steps
        optionalSteps = steps.indices.reduce(0) { steps[$1].optional ? $0 | 1 << UInt64($1) : $0 }
    }

    /// Reads a quantifier (or none: once) at the start of `scalars`; nil for
    /// one not compiled here (lazy, or past 63).
    private static func quantifier(_ scalars: inout ArraySlice<Unicode.Scalar>) -> (Int, Int?)? {
        var bounds: (Int, Int?)
        switch scalars.first {
        case "?": bounds = (0, 1)
        case "*": bounds = (0, nil)
        case "+": bounds = (1, nil)
        case "{":
            guard let close = scalars.firstIndex(of: "}") else { return nil }
            let inside = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close]))
            let parts = inside.split(separator: ",", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let least = Int(parts[0]), least <= 63 else { return nil }
            if parts.count == 1 {
                bounds = (least, least)
            } else if parts[1].isEmpty {
                bounds = (least, nil)
            } else {
                guard let most = Int(parts[1]), most >= least, most <= 63 else { return nil }
                bounds = (least, most)
            }
            scalars = scalars[close...]
        default: return (1, 1)
        }
        scalars = scalars.dropFirst()
        if scalars.first == "?" { return nil }
        return bounds
    }

    /// Adds the meaning of `\x` (the scalar after a backslash) to `step`;
    /// false for one not compiled here.
    private static func escape(_ escaped: Unicode.Scalar, into step: inout Step) -> Bool {
        if "^$\\.*+?()[]{}|/-".unicodeScalars.contains(escaped) {
            step.add(escaped.value)
            return true
        }
        guard let set = ECMAScalarSet(letter: escaped) else { return false }
        var added = Step()
        for range in set.ranges where range.lowerBound < 0x80 {
            for value in range.lowerBound...min(range.upperBound, 0x7F) { added.add(value) }
        }
        // `\s` has members past ASCII, so it (and `\S`) is not a step here.
        guard set.ranges.allSatisfy({ $0.upperBound < 0x80 }) else { return false }
        if set.negated {
            added.ascii = (~added.ascii.low, ~added.ascii.high)
            added.beyondASCII = true
        }
        step.ascii = (step.ascii.low | added.ascii.low, step.ascii.high | added.ascii.high)
        step.beyondASCII = step.beyondASCII || added.beyondASCII
        return true
    }

    /// Reads a set `[…]` after its `[`: ASCII members, ranges and `\d \w`;
    /// returns what follows its `]`, nil for a set not compiled here.
    private static func set(_ scalars: inout ArraySlice<Unicode.Scalar>, into step: inout Step) -> ArraySlice<Unicode.Scalar>? {
        var rest = scalars
        let negated = rest.first == "^"
        if negated { rest = rest.dropFirst() }
        var members = Step()
        while let scalar = rest.first, scalar != "]" {
            rest = rest.dropFirst()
            var low: UInt32
            if scalar == "\\" {
                guard let escaped = rest.first else { return nil }
                rest = rest.dropFirst()
                if ECMAScalarSet(letter: escaped) != nil {
                    guard escape(escaped, into: &members) else { return nil }
                    continue
                }
                guard "^$\\.*+?()[]{}|/-".unicodeScalars.contains(escaped) else { return nil }
                low = escaped.value
            } else {
                guard scalar.isASCII, scalar != "[" else { return nil }
                low = scalar.value
            }
            // A range `a-z`; a `-` before `]` is itself.
            if rest.first == "-", let high = rest.dropFirst().first, high != "]" {
                guard high.isASCII, high != "\\", high != "[", high.value >= low else { return nil }
                rest = rest.dropFirst(2)
                for value in low...high.value { members.add(value) }
            } else {
                members.add(low)
            }
        }
        guard rest.first == "]", !members.isEmpty else { return nil }
        if negated {
            members.ascii = (~members.ascii.low, ~members.ascii.high)
            members.beyondASCII = !members.beyondASCII
        }
        step = members
        return rest.dropFirst()
    }
}

extension ScalarPattern.Step {
    mutating func add(_ scalar: UInt32) {
        if scalar < 64 {
            ascii.low |= 1 << UInt64(scalar)
        } else if scalar < 128 {
            ascii.high |= 1 << UInt64(scalar - 64)
        }
    }

    var isEmpty: Bool { ascii.low == 0 && ascii.high == 0 && !beyondASCII }
}
