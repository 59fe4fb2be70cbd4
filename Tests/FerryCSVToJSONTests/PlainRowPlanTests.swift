import FerryCSV
import FerryCore
import FerryJSON
import Testing

@testable import FerryCSVToJSON

/// The plain rows of a window's second half are laid out by a twin plan on
/// another thread, each as a later record; adopting them must give what
/// laying them out in turn gives, including the opening of the output.
@Suite struct PlainRowPlanTests {
    /// Lays out `text` with `plan`, as the reader does, taking one, two,
    /// three rows at a time in turn.
    func layOut(_ text: String, with plan: PlainRowPlan) -> Int {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var scanner = CSVScanner(
                bytes: buffer, baseOffset: 0, position: 0, isFinal: false, delimiter: UInt8(ascii: ","),
                quote: UInt8(ascii: "\""), maxFieldBytes: 1 << 20)
            var rows = 0
            var most = 1
            while case let taken = plan.layOut(&scanner, most: most), taken > 0 {
                #expect(taken <= most)
                rows += taken
                most = most % 3 + 1
            }
            return rows
        }
    }

    func plans(for writer: JSONWriter) throws -> (PlainRowPlan, PlainRowPlan) {
        let fields = FieldList(["name", "price"])
        let plan = try #require(
            PlainRowPlan(
                layout: writer.jsonLayout(for: fields), cells: [.requiredText, .number], signed: 0,
                delimiter: UInt8(ascii: ","), quote: UInt8(ascii: "\""), maxFieldBytes: 1 << 20))
        return (plan, try #require(plan.twin()))
    }

    @Test(arguments: [JSONWriter.Style.pretty, .compact, .lines], [false, true])
    func adoptedRecordsReadAsIfLaidOutInTurn(_ style: JSONWriter.Style, firstHalfHasARecord: Bool) throws {
        let first = firstHalfHasARecord ? "Wii,269.00\n" : ""
        let second = "Xbox 360,299.00\n\"Pad, \"\"Pro\"\"\",19.99\n"

        // In turn, on one plan.
        let expected = MemoryOutput()
        let inTurn = JSONWriter(expected, style: style)
        let (plan, _) = try plans(for: inTurn)
        #expect(layOut(first + second, with: plan) == (firstHalfHasARecord ? 3 : 2))
        try plan.hand(to: inTurn)
        try inTurn.finish()

        // The second half on a twin, adopted after the first.
        let output = MemoryOutput()
        let writer = JSONWriter(output, style: style)
        let (main, twin) = try plans(for: writer)
        _ = layOut(first, with: main)
        twin.anyWritten = true
        #expect(layOut(second, with: twin) == 2)
        try main.hand(to: writer)
        try main.adopt(twin, to: writer)
        try writer.finish()

        #expect(output.text == expected.text)
        #expect(writer.recordsWritten == (firstHalfHasARecord ? 3 : 2))
    }
}
