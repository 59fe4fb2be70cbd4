/// A faster way to convert between one pair of codecs, which gives exactly
/// the output the general way gives.
///
/// The registry holds accelerators beside the codecs
/// (`CodecRegistry.register(accelerator:)`), and a conversion asks each in
/// turn before it reads: one that serves the pair starts an
/// `AcceleratedConversion`, which lays out the records it is sure of itself
/// and hands every other record back to be checked and written the general
/// way. FerryKit registers the CSV to JSON accelerator (FerryCSVToJSON);
/// a codec in another package can bring its own.
package protocol ConversionAccelerator: Sendable {
    /// Starts converting the records of `reader`, made by `input`, for the
    /// writer that `output` will make; nil when this accelerator does not
    /// serve the pair, or that reader.
    /// - Parameters:
    ///   - destination: where the writer will write.
    ///   - jobs: the cores the conversion may use (`--jobs`): with 1, the
    ///     accelerator works on the converting thread alone.
    func start(
        reading reader: any RecordReader, from input: any Codec, to output: any Codec,
        destination: any ByteOutput, jobs: Int
    ) -> (any AcceleratedConversion)?
}

/// One conversion under way by an accelerator, on the converting thread.
package protocol AcceleratedConversion: AnyObject {
    /// Where the writer must write: the destination, or an output the
    /// accelerator puts in front of it (such as one writing on a thread of
    /// its own).
    var destination: any ByteOutput { get }

    /// Reads what comes before the records (a header) and returns the kind
    /// they will be read as; nil when that is not known before a record.
    func settleKind() throws(FerryError) -> RecordKind?

    /// Takes the writer made for the records; false when it is not one the
    /// accelerator can lay records out for, and the conversion then goes
    /// the general way.
    func begin(with writer: any RecordWriter) -> Bool

    /// Reads the records at hand: those the accelerator lays out go to the
    /// writer directly; every other one goes to `general`, in order, which
    /// checks and writes it.
    /// - Returns: false when the input has ended.
    func step(general: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Bool

    /// How many records the writer has taken, both ways.
    var recordsWritten: Int { get }

    /// Ends the work of any thread the accelerator started; called once the
    /// conversion has ended, whether it failed or not, before the
    /// destination is closed.
    func close()
}
