/// The field names of a header row, made usable as record fields: an
/// empty name becomes `column<N>` (1-based), and a name seen before gets
/// the first free suffix `_2`, `_3`, … (`name, name, name` → `name,
/// name_2, name_3`). CSV and workbooks read their header rows so.
package enum HeaderNames {
    /// - Parameter renamed: told of each repeated name and what it became,
    ///   with its 0-based place, for a reader that warns of it.
    package static func unique(
        _ names: [String], renamed: (_ name: String, _ newName: String, _ index: Int) -> Void = { _, _, _ in }
    ) -> [String] {
        var seen: Set<String> = []
        // Per repeated name, where the search for its next free suffix
        // resumes: the ones below were taken and stay taken, so a header of
        // one name 16,384 times is linear, not 134M probes (46 s, debug).
        var nextSuffix: [String: Int] = [:]
        var result: [String] = []
        result.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            var candidate = name.isEmpty ? "column\(index + 1)" : name
            if seen.contains(candidate) {
                var suffix = nextSuffix[candidate] ?? 2
                while seen.contains("\(candidate)_\(suffix)") { suffix += 1 }
                nextSuffix[candidate] = suffix + 1
                let newName = "\(candidate)_\(suffix)"
                renamed(candidate, newName, index)
                candidate = newName
            }
            seen.insert(candidate)
            result.append(candidate)
        }
        return result
    }
}
