// Record keys per second: `KeyFields.digest(of:)` on a million generated raw
// records of each kind of key text, and `RecordEquality.equal` on a million
// pairs of equal records read from two formats (269 against 269.0).
//
//     Scripts/bench-keys.sh [count]
@testable import FerryCore
@testable import FerryJSON
@testable import FerryCSV
@testable import FerryPlist
@testable import FerryKit

#if canImport(Glibc)
import Glibc
#endif

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000_000

func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The best of three runs of `body`, in seconds.
@MainActor func best(_ body: () -> Int) -> (seconds: Double, check: Int) {
    var fastest = Double.infinity
    var check = 0
    for _ in 0..<3 {
        let start = seconds()
        check = body()
        fastest = min(fastest, seconds() - start)
    }
    return (fastest, check)
}

@MainActor func report(_ name: String, _ run: (seconds: Double, check: Int)) {
    let perSecond = Double(count) / run.seconds
    let nanoseconds = run.seconds * 1e9 / Double(count)
    print(
        name + String(repeating: " ", count: max(34 - name.count, 0)),
        String(Int(perSecond / 1e6 * 10) / 10) + "." + String(Int(perSecond / 1e5) % 10) + " M keys/s",
        "  " + String(Int(nanoseconds * 10) / 10) + "." + String(Int(nanoseconds * 10) % 10) + " ns/key",
        "  (check \(run.check))")
}

/// The keys `make` gives for 0..<count, laid end to end, with their ranges.
@MainActor func keys(_ make: (Int) -> String) -> (bytes: [UInt8], ranges: [Range<Int>]) {
    var bytes: [UInt8] = []
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(count)
    for index in 0..<count {
        let start = bytes.count
        bytes.append(contentsOf: make(index).utf8)
        ranges.append(start..<bytes.count)
    }
    return (bytes, ranges)
}

let fields = FieldList(["name", "sku"])
let keyFields = KeyFields(["sku"], kind: .product)

@MainActor func digests(_ name: String, _ make: (Int) -> String) {
    let (bytes, ranges) = keys(make)
    let run = bytes.withUnsafeBufferPointer { all in
        best {
            var check = 0
            var cells = [RawValue.null, RawValue.null]
            cells.withUnsafeMutableBufferPointer { cells in
                for range in ranges {
                    cells[1] = .text(UnsafeBufferPointer(rebasing: all[range]))
                    let record = RawRecord(
                        fields: fields, values: UnsafeBufferPointer(cells), others: UnsafeBufferPointer(start: nil, count: 0),
                        origin: RecordOrigin())
                    if let digest = keyFields.digest(of: record) { check &+= Int(truncatingIfNeeded: digest.low) }
                }
            }
            return check
        }
    }
    report(name, run)
}

print("RecordKey digests, \(count) keys each (best of 3):")
digests("ASCII SKU (SKU-0001234)") { "SKU-\(String(repeating: "0", count: 7 - String($0).count))\($0)" }
digests("ASCII SKU, spaces around") { "  SKU-\($0)\t" }
digests("Latin, already NFC (Crème 12)") { "Crème brûlée \($0)" }
digests("decomposed (Cre\\u{300}me 12)") { "Cre\u{0300}me bru\u{0302}le\u{0301}e \($0)" }
digests("Greek, NFC (Καφές 12)") { "Καφές \($0)" }

// Equality of a CSV-like record (269, text) against an archive-like one (269.0).
let equality = RecordEquality(kind: .product, keyFields: ["sku"])
let csvFields = FieldList(["name", "price", "sku"])
let archiveFields = FieldList(["sku", "name", "price"])
let (names, nameRanges) = keys { "Product \($0)" }
let run = names.withUnsafeBufferPointer { all in
    best {
        var equal = 0
        var first = [RawValue.null, .null, .null]
        var second = [RawValue.null, .null, .null]
        first.withUnsafeMutableBufferPointer { first in
            second.withUnsafeMutableBufferPointer { second in
                for (index, range) in nameRanges.enumerated() {
                    let name = RawValue.text(UnsafeBufferPointer(rebasing: all[range]))
                    first[0] = name
                    first[1] = .integer(Int64(index % 500))
                    first[2] = name
                    second[0] = name
                    second[1] = name
                    second[2] = .double(Double(index % 500))
                    let a = RawRecord(
                        fields: csvFields, values: UnsafeBufferPointer(first), others: UnsafeBufferPointer(start: nil, count: 0),
                        origin: RecordOrigin())
                    let b = RawRecord(
                        fields: archiveFields, values: UnsafeBufferPointer(second),
                        others: UnsafeBufferPointer(start: nil, count: 0), origin: RecordOrigin())
                    if equality.equal(a, b) { equal += 1 }
                }
            }
        }
        return equal
    }
}
print("RecordEquality, \(count) pairs of equal records from two formats (best of 3):")
report("3 fields, fields in other orders", run)
