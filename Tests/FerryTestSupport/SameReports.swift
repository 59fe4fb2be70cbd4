import Testing

@testable import FerryKit

// MARK: - One pass and halves

/// Validates `path` in one pass and in parts (`Validator+Parts.swift`),
/// under each cap of `caps` and with each number of `jobs` (`--jobs`), and
/// expects the same reports: the counts, and the diagnostics one for one,
/// in order.
/// - Parameters:
///   - inHalves: whether the halves must have been used; nil when the input
///     may send them back to one pass.
///   - jobs: the `--jobs` of the runs in parts; 1 reads in one pass.
///   - registry: the codecs both runs know.
///   - configure: the options both runs take, before the cap and the halves.
/// - Returns: the report without a cap.
@discardableResult
public func expectSameReports(
    _ path: String, inHalves: Bool?, schema: Schema? = nil, caps: [Int?] = [nil, 1, 7, 60],
    jobs: [Int] = [2],
    registry: CodecRegistry = .standard, sourceLocation: Testing.SourceLocation = #_sourceLocation,
    options configure: (inout ValidationOptions) -> Void = { _ in }
) throws -> ValidationReport {
    var uncapped: ValidationReport?
    for cap in caps {
        var onePass = ValidationOptions()
        configure(&onePass)
        onePass.schema = schema
        onePass.maxErrors = cap
        onePass.partsThreshold = .max
        let expected = Validator(registry: registry).validate([path], options: onePass)
        #expect(
            expected.files.first?.partCount == 1, "cap \(String(describing: cap))",
            sourceLocation: sourceLocation)
        for count in jobs {
            var halves = onePass
            halves.partsThreshold = 0
            halves.jobs = count
            let got = Validator(registry: registry).validate([path], options: halves)
            let context: Comment = "cap \(String(describing: cap)), --jobs \(count)"
            if let inHalves {
                #expect(
                    (got.files.first.map { $0.partCount > 1 }) == (inHalves && count > 1), context,
                    sourceLocation: sourceLocation)
            }
            #expect(summary(got) == summary(expected), context, sourceLocation: sourceLocation)
            let pairs = zip(got.diagnostics, expected.diagnostics)
            if let (index, pair) = pairs.enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                Issue.record(
                    "\(context): diagnostic \(index) is \(pair.0), expected \(pair.1)",
                    sourceLocation: sourceLocation)
            }
            #expect(
                got.diagnostics.count == expected.diagnostics.count, context, sourceLocation: sourceLocation
            )
            if cap == nil { uncapped = got }
        }
    }
    return try #require(uncapped, sourceLocation: sourceLocation)
}

/// The counts of a report, one line a file.
private func summary(_ report: ValidationReport) -> String {
    let files = report.files.map {
        "\($0.path) \($0.format ?? "-") \($0.kind.map(\.rawValue) ?? "-") records \($0.records) invalid \($0.invalidRecords) unchecked \($0.uncheckedRecords) complete \($0.complete) errors \($0.errors) warnings \($0.warnings)"
    }
    return files.joined(separator: "\n")
        + " cap \(report.reachedCap) categories \(report.errorCategories.map { "\($0)" }.sorted())"
}
