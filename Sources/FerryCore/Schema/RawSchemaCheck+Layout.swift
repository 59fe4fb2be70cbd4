// Where a field list puts the fields each record rule of
// `RawSchemaCheck` looks at: worked out once per list, not per record.

extension RawSchemaCheck {
    /// Where each record rule's fields sit in one field list, and which
    /// rule each other field falls to: for each rule a `Part`, ranges of
    /// `steps`. A class, read per record without copying its arrays.
    final class Layout {
        /// One field a part looks at: its position, and a rule (a cell rule
        /// for a property, a record rule for `dependentSchemas`, a range of
        /// `positions` for `dependentRequired`).
        struct Step {
            var position: Int
            var rule = -1
            var required = 0..<0
            /// `dependentRequired` names a field the list lacks.
            var lacking = false
        }

        /// The steps of one record rule: runs that follow one another in
        /// `steps`, kept as where each starts (a copy per record rule and
        /// record, so the fewer bytes the better).
        struct Part {
            var starts = (dependentSchemas: 0, required: 0, cells: 0, dependentRequired: 0, additional: 0, end: 0)
            /// The list lacks a required name.
            var missingRequired = false

            var dependentSchemas: Range<Int> { starts.dependentSchemas..<starts.required }
            var required: Range<Int> { starts.required..<starts.cells }
            /// The properties the list has, then the fields a
            /// `patternProperties` pattern matches: a position and a cell rule.
            var cells: Range<Int> { starts.cells..<starts.dependentRequired }
            var dependentRequired: Range<Int> { starts.dependentRequired..<starts.additional }
            /// The fields `additionalProperties` checks.
            var additional: Range<Int> { starts.additional..<starts.end }
        }

        let fieldsAddress: UnsafeRawPointer
        /// False when the list repeats a name: the full check judges those records.
        let judged: Bool
        let parts: ContiguousArray<Part>
        let steps: ContiguousArray<Step>
        let positions: ContiguousArray<Int>

        init(
            fieldsAddress: UnsafeRawPointer, judged: Bool, parts: ContiguousArray<Part> = [],
            steps: ContiguousArray<Step> = [], positions: ContiguousArray<Int> = []
        ) {
            self.fieldsAddress = fieldsAddress
            self.judged = judged
            self.parts = parts
            self.steps = steps
            self.positions = positions
        }
    }

    /// The layout of `fields` for this schema.
    func layout(of fields: FieldList) -> Layout {
        let address = RawRecord.address(of: fields)
        let names = fields.utf8Names
        // Names past ASCII go to the full check: it finds a dependency by
        // `String ==`, canonical equivalence, where properties go by bytes.
        guard Set(names).count == names.count, names.allSatisfy({ $0.allSatisfy { $0 < 0x80 } }) else {
            return Layout(fieldsAddress: address, judged: false)
        }

        func position(_ name: String) -> Int? {
            let bytes = Array(name.utf8)
            return names.firstIndex(of: bytes)
        }
        var steps: ContiguousArray<Layout.Step> = []
        var positions: ContiguousArray<Int> = []
        /// Where the steps `body` adds start.
        func run(_ body: () -> Void) -> Int {
            let start = steps.count
            body()
            return start
        }
        func cell(_ node: SchemaNode) -> Int { cellIndices[ObjectIdentifier(node)] ?? -1 }
        var parts: ContiguousArray<Layout.Part> = []
        for (index, node) in recordNodes.enumerated() {
            var part = Layout.Part()
            let applicators = node.applicators
            part.starts.dependentSchemas = run {
                for (dependency, rule) in recordDependents[index] {
                    guard let found = Self.dependency(dependency, fields) else { continue }
                    steps.append(Layout.Step(position: found, rule: rule))
                }
            }
            part.starts.required = run {
                for name in node.required {
                    if let found = position(name) {
                        steps.append(Layout.Step(position: found))
                    } else {
                        part.missingRequired = true
                    }
                }
            }
            part.starts.cells = run {
                for property in node.properties {
                    if let found = position(property.name) {
                        steps.append(Layout.Step(position: found, rule: cell(property.node)))
                    }
                }
                for (index, name) in fields.names.enumerated() {
                    for (pattern, schema) in applicators?.patternProperties ?? [] where pattern.matches(name) {
                        steps.append(Layout.Step(position: index, rule: cell(schema)))
                    }
                }
            }
            part.starts.dependentRequired = run {
                for (dependency, required) in applicators?.dependentRequired ?? [] {
                    guard let found = Self.dependency(dependency, fields) else { continue }
                    let present = required.compactMap { Self.dependency($0, fields) }
                    let start = positions.count
                    positions.append(contentsOf: present)
                    let lacking = present.count < required.count
                    steps.append(Layout.Step(position: found, required: start..<positions.count, lacking: lacking))
                }
            }
            part.starts.additional = run {
                guard node.additionalProperties != nil else { return }
                for (index, name) in fields.names.enumerated() {
                    let matched = applicators?.patternProperties.contains { $0.pattern.matches(name) } ?? false
                    if !matched && node.property(named: name) == nil { steps.append(Layout.Step(position: index)) }
                }
            }
            part.starts.end = steps.count
            parts.append(part)
        }
        return Layout(fieldsAddress: address, judged: true, parts: parts, steps: steps, positions: positions)
    }

    /// A dependency's position as the full check finds it (`keys.contains`, `String ==`).
    private static func dependency(_ name: String, _ fields: FieldList) -> Int? {
        fields.names.firstIndex { $0 == name }
    }
}
