/// One finding about the data, as every command reports it: an error or a
/// warning, with its code, typed arguments, location, the offending value and
/// the rule that failed.
///
/// `FerryError` is what stops a read; a `Diagnostic` is what a report lists.
/// Readers and validators hand diagnostics to a `DiagnosticSink`, so a command
/// can collect them all, cap them or stop at the first.
public struct Diagnostic: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case warning
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// The longest offending value a diagnostic keeps, in characters.
    public static let maxValueCharacters = 80

    public var severity: Severity
    public var code: FerryError.Code
    public var arguments: [MessageArgument]
    public var location: SourceLocation
    /// The offending value as text, at most `maxValueCharacters` characters
    /// (longer values end in `…`).
    public var value: String?
    /// The rule that failed: a schema path such as `/properties/price/minimum`,
    /// or the name of a built-in rule such as `photo.format`.
    public var rule: String?

    public init(
        _ severity: Severity, _ code: FerryError.Code, _ arguments: [MessageArgument] = [],
        at location: SourceLocation = .unknown, value: String? = nil, rule: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.arguments = arguments
        self.location = location
        self.value = value.map(Self.truncated)
        self.rule = rule
    }

    /// An error that stopped a read, as a diagnostic.
    public init(_ error: consuming FerryError, value: String? = nil, rule: String? = nil) {
        self.init(.error, error.code, error.arguments, at: error.location, value: value, rule: rule)
    }

    /// A warning raised while reading, as a diagnostic.
    public init(_ warning: FerryWarning) {
        self.init(.warning, warning.code, warning.arguments, at: warning.location)
    }

    /// This diagnostic with the gaps in its location filled from `location`.
    public func located(_ location: SourceLocation) -> Diagnostic {
        var copy = self
        copy.location.fill(from: location)
        return copy
    }

    /// `text` cut to `maxValueCharacters` characters, the cut marked with `…`.
    public static func truncated(_ text: String) -> String {
        // No more bytes than the limit: no more characters either, and no
        // walk over them (1,700 instructions a value).
        if text.utf8.count <= maxValueCharacters { return text }
        var count = 0
        var end = text.startIndex
        while end < text.endIndex {
            if count == maxValueCharacters { return String(text[..<text.index(before: end)]) + "…" }
            count += 1
            end = text.index(after: end)
        }
        return text
    }
}

/// Where readers and validators hand their diagnostics.
public protocol DiagnosticSink: AnyObject {
    /// Takes one diagnostic.
    /// - Returns: false when the caller should stop looking for more (the
    ///   sink is full, or it stops at the first error).
    @discardableResult
    func report(_ diagnostic: Diagnostic) -> Bool
}

/// A sink that keeps diagnostics in order, up to a cap on errors, and as
/// many warnings as the cap (the rest are counted, not kept).
public final class DiagnosticCollector: DiagnosticSink {
    /// The most errors kept; nil keeps every one.
    public let maxErrors: Int?
    /// Whether warnings of no record (about a header, or a count for the
    /// whole file) are kept past the cap: a part of a file keeps them for
    /// the run that adopts it, which reports them once.
    public let keepsWarningsOfNoRecord: Bool
    /// The categories of every error reported, kept or not: an I/O error
    /// past the cap still decides the exit status.
    public private(set) var errorCategories: Set<FerryError.Category> = []
    /// The categories of the errors reported once the cap was reached.
    public private(set) var categoriesPastCap: Set<FerryError.Category> = []
    public private(set) var diagnostics: [Diagnostic] = []
    public private(set) var errorCount = 0
    public private(set) var warningCount = 0
    /// Whether the cap on errors was reached: checking should stop, and the
    /// report says it is partial if anything was left unchecked.
    public private(set) var reachedCap = false

    public init(maxErrors: Int? = nil, keepsWarningsOfNoRecord: Bool = false) {
        self.maxErrors = maxErrors
        self.keepsWarningsOfNoRecord = keepsWarningsOfNoRecord
    }

    /// Takes the error categories `other` saw, as if its errors had come here.
    public func noteCategories(of other: DiagnosticCollector) {
        noteCategories(other.errorCategories)
    }

    /// Takes `categories` as those of errors past the cap.
    public func noteCategories(_ categories: Set<FerryError.Category>) {
        errorCategories.formUnion(categories)
    }

    /// How many warnings were counted and not kept.
    public var droppedWarnings: Int { warningCount - keptWarnings }
    /// How many of `diagnostics` are warnings.
    private var keptWarnings = 0
    /// The category inserted last into `errorCategories`: the next error's
    /// is most often the same, and is then not hashed again.
    private var lastCategory: FerryError.Category?

    /// Takes `diagnostic` as its own: it is moved into `diagnostics`, not
    /// copied (each copy counts its strings: 7 retains and releases).
    @discardableResult
    public func report(_ diagnostic: consuming Diagnostic) -> Bool {
        switch diagnostic.severity {
        case .warning:
            warningCount += 1
            if maxErrors.map({ warningCount <= $0 }) ?? true
                || (keepsWarningsOfNoRecord && diagnostic.location.record == nil)
            {
                keptWarnings += 1
                diagnostics.append(diagnostic)
            }
            return true
        case .error:
            let category = diagnostic.code.category
            if category != lastCategory {
                errorCategories.insert(category)
                lastCategory = category
            }
            if let maxErrors, errorCount >= maxErrors {
                reachedCap = true
                categoriesPastCap.insert(category)
                return false
            }
            errorCount += 1
            diagnostics.append(diagnostic)
            if let maxErrors, errorCount >= maxErrors { reachedCap = true }
            return !reachedCap
        }
    }
}

extension FerryError {
    /// Whether the error spoils the record it is found in and no more, so
    /// that a reader asked to go on (`ReadContext.resumesAfterBadRecords`)
    /// may read the next record of a format whose records stand apart (the
    /// elements of a property list's root array, say). Limits are not: they
    /// are budgets for the whole input.
    public var spoilsOneRecord: Bool {
        code.category == .data && !code.rawValue.hasPrefix("limit.")
    }
}
