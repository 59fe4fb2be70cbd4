import FerryCore

// MARK: - Property-list codes shared by the binary and XML forms

extension FerryError.Code {
    public static let plistIntegerOutOfRange = Self("plist.integerOutOfRange", .data)
    public static let plistNullInArray = Self("plist.nullInArray", .data)
}

extension FerryError {
    public static func plistIntegerOutOfRange(_ digits: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.plistIntegerOutOfRange, [.string(digits)], at: location)
    }

    public static func plistNullInArray(at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.plistNullInArray, [], at: location)
    }
}
