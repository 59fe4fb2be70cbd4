#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - The commands' entry points for file URLs
//
// Each takes what the path form takes; a URL that is not a file's is
// opened by its text and fails as a missing file does (Ferry never
// fetches).

extension URL {
    /// The path Ferry opens for this URL.
    var ferryPath: String { isFileURL ? path : absoluteString }
}

extension Converter {
    /// Converts the file at `input` into the file at `output`, atomically.
    /// - Throws: the first error; the output is then left as it was.
    public func convert(
        _ input: URL, to output: URL, options: ConversionOptions = ConversionOptions()
    ) throws(FerryError) -> ConversionSummary {
        try convert(input.ferryPath, to: output.ferryPath, options: options)
    }
}

extension Validator {
    /// Validates the files at `urls`, as `ferry validate` does.
    public func validate(_ urls: [URL], options: ValidationOptions = ValidationOptions()) -> ValidationReport {
        validate(urls.map(\.ferryPath), options: options)
    }
}

extension Merger {
    /// Merges the files at `urls` into the file at `output`, atomically.
    public func merge(
        _ urls: [URL], into output: URL, options: MergeOptions = MergeOptions()
    ) throws(FerryError) -> MergeReport {
        try merge(urls.map(\.ferryPath), into: output.ferryPath, options: options)
    }
}
