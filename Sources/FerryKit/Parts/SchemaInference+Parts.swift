// MARK: - Design
//
// `schema infer` reads a large file in the parts `validate` cuts it into
// (`PartPlan`), on up to `--jobs` threads, each part with a reader of its
// own that leaves the free CSV columns untyped (the header line comes
// first in each part after the first, as for validation):
//
//     part 0: name,price,sku\n Wii,269,A\n …     ─▶ FieldProfiles ─┐
//     part 1: name,price,sku\n Xbox,299,B\n …    ─▶ FieldProfiles ─┴▶ merged in order, then typed
//
// Each part's profiles hold what merging needs: the distinct strings up to
// the enum cap, the bounds with their first spelling, the formats, the
// counts, the inference of each deferred column, and the log of the unique
// keys (`KeyLog`), matched with the other parts' logs once, at the end, as
// `validate` matches its parts' (`FieldProfiles`).
//
// A part that does not read cleanly to its end (a quoted field ran across
// a cut, a bad row), or whose reader warns, drops all the parts: the file
// is then read in one pass, which reports what it finds in its place.

extension SchemaInference {
    /// The profiles of the file in `plan`, its parts read on up to `jobs`
    /// threads and merged, their deferred columns not yet typed; nil when
    /// the parts were dropped (see the design note).
    func profiles(of plan: PartPlan, codec: any Codec, limits: ReadLimits) -> FieldProfiles? {
        let jobs = plan.ranges.enumerated().map { index, range in
            ProfileJob(plan, codec: codec, limits: limits, range: range, prefix: index == 0 ? [] : plan.prefix)
        }
        LargeStackThread.each(jobs.count, threads: min(self.jobs, Cores.usable)) { jobs[$0].read() }
        var merged = FieldProfiles()
        for job in jobs {
            guard let profiles = job.profiles else { return nil }
            merged.merge(profiles)
        }
        return merged
    }
}

/// One part of a file, read on the thread that calls `read`. Only that
/// thread touches it until it is done.
private final class ProfileJob: @unchecked Sendable {
    /// The part's profiles; nil until it is read, and when it did not read cleanly.
    private(set) var profiles: FieldProfiles?
    private let plan: PartPlan
    private let codec: any Codec
    private let limits: ReadLimits
    private let range: Range<Int>
    private let prefix: [UInt8]

    init(_ plan: PartPlan, codec: any Codec, limits: ReadLimits, range: Range<Int>, prefix: [UInt8]) {
        self.plan = plan
        self.codec = codec
        self.limits = limits
        self.range = range
        self.prefix = prefix
    }

    func read() {
        let context = ReadContext(kind: .generic, options: plan.codecOptions, limits: limits)
        context.defersTypeInference = true
        var read = FieldProfiles()
        do throws(FerryError) {
            let reader = try codec.makeReader(FileRangeInput(plan.file, range: range, prefix: prefix), context: context)
            try SchemaInference.observe(reader, context: context, into: &read)
        } catch {
            return
        }
        guard context.takeWarnings().isEmpty else { return }
        profiles = read
    }
}
