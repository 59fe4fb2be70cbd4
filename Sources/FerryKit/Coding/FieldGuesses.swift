/// The position of each field a type asks for, in the order it asks, as
/// found in the last record: records of one file have their fields in one
/// order, so the n-th lookup is checked at its guess with one comparison
/// of names before the field list's table is asked.
///
/// One decoding asks it three times or more a record, on one thread:
/// its properties skip the run-time exclusivity checks, which cost about
/// a fifth of a lookup (75M of 1,811M instructions on the decoding thread,
/// for 200,000 products from JSON Lines).
final class FieldGuesses {
    @exclusivity(unchecked) private var positions: [Int] = []
    /// The field list the names below are of, by address (`RawRecord.fieldsAddress`).
    @exclusivity(unchecked) private var namesOf: UnsafeRawPointer?
    @exclusivity(unchecked) private var names: [String] = []

    /// The value of field `name` of `record`, as the `lookup`-th lookup.
    func value(_ name: String, in record: RawRecord, lookup: Int) -> Value? {
        if namesOf != record.fieldsAddress {
            namesOf = record.fieldsAddress
            names = record.fields.names
        }
        if lookup < positions.count {
            let guess = positions[lookup]
            if guess >= 0, guess < record.values.count, names[guess] == name {
                return record.value(at: guess)
            }
        }
        let found = record.fields.index(of: name)
        if lookup < positions.count {
            positions[lookup] = found ?? -1
        } else if lookup == positions.count, lookup < 1_024 {
            positions.append(found ?? -1)
        }
        guard let found, found < record.values.count else { return nil }
        return record.value(at: found)
    }
}
