/// The byte before each cell in the one serialisation of records that a
/// merge's tapes (`RecordTape`, in memory) and spills (`SpilledRecord`,
/// on disk) share, and before each value nested in a spilled one.
///
/// A tape holds only the cell cases (through `value`, the index of a value
/// kept beside the tape); a spill writes values in place, with `date`,
/// `array` and `object` for what a value may hold.
enum CellTag: UInt8 {
    case null, no, yes, integer, double, number, text, bytes, value, date, array, object
}
