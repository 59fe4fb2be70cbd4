#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Codes shared by every codec

extension FerryError.Code {
    // I/O
    public static let ioCannotOpen = Self("io.cannotOpen", .io)
    public static let ioReadFailed = Self("io.readFailed", .io)
    public static let ioWriteFailed = Self("io.writeFailed", .io)
    public static let ioTemporaryFile = Self("io.temporaryFile", .io)
    public static let ioOutputExists = Self("io.outputExists", .io)
    public static let ioIsDirectory = Self("io.isDirectory", .io)
    public static let ioInputChanged = Self("io.inputChanged", .io)

    // Records and kinds
    public static let recordMissingField = Self("record.missingField", .data)
    public static let recordEmptyField = Self("record.emptyField", .data)
    public static let recordWrongType = Self("record.wrongType", .data)
    public static let recordNegative = Self("record.negative", .data)
    public static let recordTooLarge = Self("limit.recordTooLarge", .data)
    public static let nestingTooDeep = Self("limit.nestingTooDeep", .data)
    public static let inputTooLarge = Self("limit.inputTooLarge", .data)
    public static let tooManyObjects = Self("limit.tooManyObjects", .data)
    public static let expansionTooLarge = Self("limit.expansionTooLarge", .data)

    // Photos
    public static let photoOutsideFolder = Self("photo.outsideFolder", .data)
    public static let photoUnreadable = Self("photo.unreadable", .io)
    public static let photoInvalidDataURI = Self("photo.invalidDataURI", .data)
    public static let photoTooLarge = Self("limit.photoTooLarge", .data)

    // JSON text, which other codecs write too (nested values in CSV cells)
    public static let jsonNonFiniteNumber = Self("json.nonFiniteNumber", .data)

    // Options: a value the option does not take, from the command line or a codec
    public static let usageInvalidValue = Self("usage.invalidValue", .usage)

    // Formats
    public static let formatUnknown = Self("format.unknown", .usage)
    public static let formatUndetected = Self("format.undetected", .usage)
    public static let formatCannotRead = Self("format.cannotRead", .usage)
    public static let formatCannotWrite = Self("format.cannotWrite", .usage)
    public static let formatNotRecords = Self("format.notRecords", .data)
    /// A warning: an input of no bytes at all holds no records, in every format.
    public static let formatEmptyInput = Self("format.emptyInput", .data)
}

// MARK: - Factories

extension FerryError {
    /// `errno` as a catalog reference (`.errnoENOENT`), so the reason is
    /// localized too; a number without an entry is shown as a number.
    public static func reason(errno number: Int32) -> MessageArgument {
        let keys: [Int32: MessageKey] = [
            ENOENT: .errnoENOENT, EACCES: .errnoEACCES, EISDIR: .errnoEISDIR, ENOTDIR: .errnoENOTDIR,
            ENOSPC: .errnoENOSPC, EFBIG: .errnoEFBIG, EROFS: .errnoEROFS, EEXIST: .errnoEEXIST, EIO: .errnoEIO,
            EPERM: .errnoEPERM, EMFILE: .errnoEMFILE, ENAMETOOLONG: .errnoENAMETOOLONG, ELOOP: .errnoELOOP,
            EDQUOT: .errnoEDQUOT, EPIPE: .errnoEPIPE, EXDEV: .errnoEXDEV, EINVAL: .errnoEINVAL,
        ]
        if let key = keys[number] { return .message(key) }
        return .ungrouped(Int(number))
    }

    public static func ioCannotOpen(_ path: String, errno number: Int32) -> FerryError {
        FerryError(.ioCannotOpen, [.path(path), reason(errno: number)], at: SourceLocation(file: path))
    }

    public static func ioReadFailed(_ path: String, errno number: Int32) -> FerryError {
        FerryError(.ioReadFailed, [.path(path), reason(errno: number)], at: SourceLocation(file: path))
    }

    public static func ioWriteFailed(_ path: String, errno number: Int32) -> FerryError {
        FerryError(.ioWriteFailed, [.path(path), reason(errno: number)], at: SourceLocation(file: path))
    }

    public static func ioTemporaryFile(_ directory: String, errno number: Int32) -> FerryError {
        FerryError(.ioTemporaryFile, [.path(directory), reason(errno: number)], at: SourceLocation(file: directory))
    }

    public static func ioOutputExists(_ path: String) -> FerryError {
        FerryError(.ioOutputExists, [.path(path)], at: SourceLocation(file: path))
    }

    public static func ioInputChanged(_ path: String) -> FerryError {
        FerryError(.ioInputChanged, [.path(path)], at: SourceLocation(file: path))
    }

    public static func ioIsDirectory(_ path: String) -> FerryError {
        FerryError(.ioIsDirectory, [.path(path)], at: SourceLocation(file: path))
    }

    public static func recordMissingField(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.recordMissingField, [.string(field)], at: location)
    }

    public static func recordEmptyField(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.recordEmptyField, [.string(field)], at: location)
    }

    /// A field holds a value of the wrong type; `expected` is a type name such as `integer`.
    public static func recordWrongType(
        _ field: String, expected: String, found: String, at location: SourceLocation
    ) -> FerryError {
        FerryError(
            .recordWrongType, [.string(field), .typeName(expected), .typeName(found)],
            at: location)
    }

    public static func recordNegative(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.recordNegative, [.string(field)], at: location)
    }

    public static func recordTooLarge(limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.recordTooLarge, [.count(limit)], at: location)
    }

    public static func inputTooLarge(limit: Int, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.inputTooLarge, [.count(limit)], at: location)
    }

    public static func tooManyObjects(limit: Int, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.tooManyObjects, [.count(limit)], at: location)
    }

    /// Shared references in an object graph expand past `limit` values.
    public static func expansionTooLarge(limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.expansionTooLarge, [.count(limit)], at: location)
    }

    public static func nestingTooDeep(limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.nestingTooDeep, [.integer(limit)], at: location)
    }

    /// `value` is not one of the values option `name` takes. `expected` lists
    /// them (`.string("lf, crlf")`) or names a catalog entry that describes them.
    public static func usageInvalidValue(option name: String, value: String, expected: MessageArgument) -> FerryError {
        FerryError(.usageInvalidValue, [.string("--" + name), .string(value), expected])
    }

    public static func formatUnknown(_ id: String) -> FerryError {
        FerryError(.formatUnknown, [.string(id)])
    }

    public static func formatUndetected(_ path: String) -> FerryError {
        FerryError(.formatUndetected, [.path(path)], at: SourceLocation(file: path))
    }

    public static func formatCannotRead(_ id: String) -> FerryError {
        FerryError(.formatCannotRead, [.string(id)])
    }

    public static func formatCannotWrite(_ id: String) -> FerryError {
        FerryError(.formatCannotWrite, [.string(id)])
    }

    /// The input holds a value that is not a record (an object), where records are needed.
    public static func formatNotRecords(found: String, at location: SourceLocation) -> FerryError {
        FerryError(.formatNotRecords, [.typeName(found)], at: location)
    }
}

extension FerryWarning {
    /// The input at `path` has no bytes at all: it is read as no records,
    /// whatever its format.
    public static func formatEmptyInput(_ path: String) -> FerryWarning {
        FerryWarning(.formatEmptyInput, [.path(path)], at: SourceLocation(file: path))
    }
}
