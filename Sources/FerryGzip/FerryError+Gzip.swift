import FerryCore

// MARK: - gzip codes

extension FerryError.Code {
    public static let gzipNotGzip = Self("gzip.notGzip", .data)
    public static let gzipUnsupported = Self("gzip.unsupported", .data)
    public static let gzipTruncated = Self("gzip.truncated", .data)
    public static let gzipCorrupt = Self("gzip.corrupt", .data)
    public static let gzipCRCMismatch = Self("gzip.crcMismatch", .data)
    public static let gzipSizeMismatch = Self("gzip.sizeMismatch", .data)
    public static let gzipTrailingData = Self("gzip.trailingData", .data)
    public static let gzipTooLarge = Self("limit.expandedTooLarge", .data)
    public static let gzipRatioTooHigh = Self("limit.ratioTooHigh", .data)
    public static let zlibFailed = Self("gzip.zlibFailed", .io)
}
