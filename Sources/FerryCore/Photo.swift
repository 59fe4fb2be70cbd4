/// Photos as Ferry carries them: inline bytes, or a relative reference.
public enum Photo {
    /// The image type of `bytes`, from their magic number.
    public static func imageType(of bytes: [UInt8]) -> ImageType {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("ftypheic".utf8), at: 4) || starts(Array("ftypheix".utf8), at: 4)
            || starts(Array("ftypmif1".utf8), at: 4)
        {
            return .heic
        }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) && bytes.count > 14 { return .bmp }
        return .unknown
    }

    /// `bytes` as a `data:` URI whose media type comes from their magic.
    public static func dataURI(_ bytes: [UInt8]) -> String {
        var output = Array("data:\(imageType(of: bytes).mediaType);base64,".utf8)
        Base64.encode(bytes, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// A file name stem from a record's name: lowercase ASCII letters and
    /// digits joined by dashes, at most 64 characters; `photo` when nothing is left.
    public static func fileStem(_ name: String) -> String {
        var stem = ""
        var pendingDash = false
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII && (("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)) {
                if pendingDash && !stem.isEmpty { stem += "-" }
                stem.unicodeScalars.append(scalar)
                pendingDash = false
            } else {
                pendingDash = true
            }
            if stem.count >= 64 { break }
        }
        return stem.isEmpty ? "photo" : stem
    }

    /// Whether `text` is a `data:` URI rather than a reference.
    public static func isDataURI(_ text: String) -> Bool {
        text.utf8.starts(with: "data:".utf8)
    }

    /// The bytes of a base64 `data:` URI.
    /// - Returns: nil when `text` is not a base64 `data:` URI or its data is not base64.
    public static func bytes(fromDataURI text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.starts(with: "data:".utf8), let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else {
            return nil
        }
        let header = utf8[5..<comma]
        guard header.count >= 7, header.suffix(7).elementsEqual(";base64".utf8) else { return nil }
        return Base64.decode(utf8[(comma + 1)...])
    }
}

/// The image formats Ferry recognizes by magic number.
public enum ImageType: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp, heic, tiff, bmp, unknown

    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .tiff: "image/tiff"
        case .bmp: "image/bmp"
        case .unknown: "application/octet-stream"
        }
    }

    /// The file extension photos of this type get.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .unknown: "bin"
        default: rawValue
        }
    }
}
