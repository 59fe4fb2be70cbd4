// MARK: - Raw memory for the raw check's tables
//
// `RawSchemaCheck` reads its compiled rules and a layout's steps for every
// record, a dozen loads a product. Kept in `ContiguousArray`s, each load
// counted a reference to the array's buffer (the arrays are fields of a
// class, which the optimizer cannot prove unchanged across a call) and
// checked its index: swift_retain and swift_release alone ran 300
// instructions a product. An `UnsafeTable` is written once, at compile
// time, and read without either.
//
// Measured: `ferry validate` of 100,000 products against
// Scripts/bench-schemas/shop.schema.json (Scripts/count-instructions.sh),
// the raw check (`RecordValidator.passesQuickly`, inclusive): 206M over
// `ContiguousArray`s and a layout of parts, 162M over flat steps in these
// tables, 150M once escaped strings were checked in place. The tables and
// the steps came in one change; the tables were not measured apart.

/// Plain values (no references) in memory of their own, written once and
/// read without reference counting or bounds checks: the compiled tables
/// of `RawSchemaCheck`, read per record. Indices come from the compiler
/// that filled the table, never from input; debug builds check them.
final class UnsafeTable<Element>: @unchecked Sendable {
    // Unchecked: the memory is written in `init` and only read after, so
    // threads may share it.
    private let base: UnsafeMutablePointer<Element>
    let count: Int

    init(_ elements: some Collection<Element>) {
        count = elements.count
        base = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
        var index = 0
        for element in elements {
            (base + index).initialize(to: element)
            index += 1
        }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        assert(index >= 0 && index < count, "UnsafeTable index out of range")
        return base[index]
    }

    /// Where element `index` is, for reading a field of a large element
    /// without copying the rest.
    @inline(__always)
    func address(_ index: Int) -> UnsafePointer<Element> {
        assert(index >= 0 && index < count, "UnsafeTable index out of range")
        return UnsafePointer(base + index)
    }
}
