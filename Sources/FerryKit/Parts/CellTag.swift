/// The byte before each cell in a merge's two serialisations of records,
/// and before each value nested in a spilled one. They share these tags,
/// not their layout: a tape (`RecordTape`, in memory, read back by the
/// process that wrote it) keeps lengths as Int64 in the machine's order
/// and values beside it by index; a spill (`SpilledRecord`, on disk) is
/// self-contained, little-endian, with UInt32 lengths and values in place.
///
/// A tape holds only the cell cases (through `value`, the index of a value
/// kept beside the tape); a spill writes values in place, with `date`,
/// `array` and `object` for what a value may hold.
enum CellTag: UInt8 {
    case null, no, yes, integer, double, number, text, bytes, value, date, array, object
}
