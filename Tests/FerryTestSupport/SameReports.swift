@testable import FerryKit
import Testing

// MARK: - One pass and halves

/// Validates `path` in one pass and in halves (`Validator+Halves.swift`),
/// under each cap of `caps`, and expects the same reports: the counts, and
/// the diagnostics one for one, in order.
/// - Parameters:
///   - inHalves: whether the halves must have been used; nil when the input
///     may send them back to one pass.
///   - configure: the options both runs take, before the cap and the halves.
/// - Returns: the report without a cap.
@discardableResult
public func expectSameReports(
    _ path: String, inHalves: Bool?, schema: Schema? = nil, caps: [Int?] = [nil, 1, 7, 60],
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    options configure: (inout ValidationOptions) -> Void = { _ in }
) throws -> ValidationReport {
    var uncapped: ValidationReport?
    for cap in caps {
        var onePass = ValidationOptions()
        configure(&onePass)
        onePass.schema = schema
        onePass.maxErrors = cap
        onePass.halvesThreshold = .max
        var halves = onePass
        halves.halvesThreshold = 0
        let expected = Validator().validate([path], options: onePass)
        let got = Validator().validate([path], options: halves)
        let context: Comment = "cap \(String(describing: cap))"
        #expect(expected.files.first?.readInHalves == false, context, sourceLocation: sourceLocation)
        if let inHalves {
            #expect(got.files.first?.readInHalves == inHalves, context, sourceLocation: sourceLocation)
        }
        #expect(summary(got) == summary(expected), context, sourceLocation: sourceLocation)
        let pairs = zip(got.diagnostics, expected.diagnostics)
        if let (index, pair) = pairs.enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("\(context): diagnostic \(index) is \(pair.0), expected \(pair.1)", sourceLocation: sourceLocation)
        }
        #expect(got.diagnostics.count == expected.diagnostics.count, context, sourceLocation: sourceLocation)
        if cap == nil { uncapped = got }
    }
    return try #require(uncapped, sourceLocation: sourceLocation)
}

/// The counts of a report, one line a file.
private func summary(_ report: ValidationReport) -> String {
    let files = report.files.map {
        "\($0.path) \($0.format ?? "-") \($0.kind.map(\.rawValue) ?? "-") records \($0.records) invalid \($0.invalidRecords) unchecked \($0.uncheckedRecords) complete \($0.complete) errors \($0.errors) warnings \($0.warnings)"
    }
    return files.joined(separator: "\n") + " cap \(report.reachedCap) categories \(report.errorCategories.map { "\($0)" }.sorted())"
}
