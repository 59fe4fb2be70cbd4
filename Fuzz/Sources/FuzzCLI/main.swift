#if canImport(Glibc)
import Glibc
#endif
import FerryCommandLine
@testable import FerryCore
@testable import FerryKit
import FuzzSupport

// The command-line parser: the input is the arguments, separated by NUL
// bytes. Parsing never runs a command, so no file is read or written; the
// error, if any, is rendered through the catalog as the CLI would show it.
let catalog = Messages.catalog(locale: "en", registry: .standard)
let test: FuzzTest = { data, size in
    let words = fuzzBytes(data, size).split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    do throws(FerryError) {
        _ = try FerryCLI.parse(Array(words.prefix(64)))
    } catch {
        _ = DiagnosticFormatter(catalog: catalog).render(error)
    }
    return 0
}
exit(runFuzzer(test))
