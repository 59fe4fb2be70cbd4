#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Photos as Ferry carries them: inline bytes, or a relative reference.
public enum Photo {
    /// The image type of `bytes`, from their magic number.
    public static func imageType(of bytes: [UInt8]) -> ImageType {
        bytes.withUnsafeBytes { imageType(of: $0) }
    }

    /// The image type of `bytes`, from their magic number; it allocates
    /// nothing, as writers call it for every inline photo.
    public static func imageType(of bytes: UnsafeRawBufferPointer) -> ImageType {
        func starts(_ magic: StaticString, at offset: Int = 0) -> Bool {
            let count = magic.utf8CodeUnitCount
            guard bytes.count >= offset + count, let base = bytes.baseAddress else { return false }
            return memcmp(base + offset, magic.utf8Start, count) == 0
        }
        /// Whether the first `count` bytes, read as a little-endian number, are `magic`.
        func starts(_ magic: UInt64, count: Int) -> Bool {
            guard bytes.count >= count else { return false }
            var word: UInt64 = 0
            for index in 0..<count { word |= UInt64(bytes[index]) << (8 * index) }
            return word == magic
        }
        if starts(0x0A1A_0A0D_474E_5089, count: 8) { return .png }  // 89 'PNG' CR LF 1A LF
        if starts(0xFF_D8FF, count: 3) { return .jpeg }
        if starts("GIF87a") || starts("GIF89a") { return .gif }
        if starts("RIFF") && starts("WEBP", at: 8) { return .webp }
        if starts("ftypheic", at: 4) || starts("ftypheix", at: 4) || starts("ftypmif1", at: 4) { return .heic }
        if starts(0x002A_4949, count: 4) || starts(0x2A00_4D4D, count: 4) { return .tiff }  // II*\0, MM\0*
        if starts("BM") && bytes.count > 14 { return .bmp }
        return .unknown
    }

    /// `bytes` as a `data:` URI whose media type comes from their magic.
    public static func dataURI(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { dataURI($0) }
    }

    /// The `data:` URI of borrowed bytes.
    public static func dataURI(_ bytes: UnsafeRawBufferPointer) -> String {
        var buffer = WriteBuffer(capacity: Base64.encodedCount(bytes.count) + 64)
        defer { buffer.release() }
        appendDataURI(bytes, to: &buffer)
        return String(decoding: UnsafeBufferPointer(start: buffer.base, count: buffer.count), as: UTF8.self)
    }

    /// Appends the `data:` URI of `bytes` to `out`, base64-encoding them in
    /// place: writers call it for every inline photo.
    package static func appendDataURI(_ bytes: UnsafeRawBufferPointer, to out: inout WriteBuffer) {
        out.append("data:")
        var mediaType = imageType(of: bytes).mediaType
        mediaType.withUTF8 { out.append($0) }
        out.append(";base64,")
        out.append(upTo: Base64.encodedCount(bytes.count)) { Base64.encode(bytes, to: $0) }
    }

    /// The image types every photo viewer shows; other bytes are kept, with
    /// a warning.
    public static let commonTypes: Set<ImageType> = [.png, .jpeg, .gif, .heic, .webp]

    /// A file name stem from a record's name: its letters and digits,
    /// lowercased, joined by dashes, at most 64 characters; `photo` when
    /// nothing is left.
    ///
    /// Letters keep their letters: Latin and Greek letters lose their
    /// diacritics (`Crème brûlée / 2` → `creme-brulee-2`, `Καφές` → `καφες`),
    /// by the canonical decompositions of Latin-1, Latin Extended-A and the
    /// Greek tonos and dialytika (`foldedLetters`), with `ß` → `ss`, `æ` →
    /// `ae`, `œ` → `oe`, `ø` → `o`, `ł` → `l`, `þ` → `th`; combining marks
    /// (text already decomposed) are dropped. Letters of other scripts are
    /// kept as they are (`日本` → `日本`), not dropped or guessed at.
    public static func fileStem(_ name: String) -> String {
        var stem = ""
        var length = 0
        var pendingDash = false
        for scalar in name.lowercased().unicodeScalars {
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark {
                continue
            }
            let kept: String
            if let folded = foldedLetters[scalar] {
                kept = folded
            } else if properties.isAlphabetic || properties.numericType == .decimal {
                kept = String(scalar)
            } else {
                pendingDash = true
                continue
            }
            if length + kept.unicodeScalars.count + (pendingDash ? 1 : 0) > 64 { break }
            if pendingDash && !stem.isEmpty {
                stem += "-"
                length += 1
            }
            stem += kept
            length += kept.unicodeScalars.count
            pendingDash = false
        }
        return stem.isEmpty ? "photo" : stem
    }

    /// Lowercase letters with diacritics and the letters they fold to.
    static let foldedLetters: [Unicode.Scalar: String] = {
        let groups: [(String, String)] = [
            ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđð", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"),
            ("ĥħ", "h"), ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"),
            ("òóôõöøōŏő", "o"), ("ŕŗř", "r"), ("śŝşšſ", "s"), ("ţťŧ", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"),
            ("ýÿŷ", "y"), ("źżž", "z"), ("ß", "ss"), ("æ", "ae"), ("œ", "oe"), ("þ", "th"), ("ĳ", "ij"),
            ("ά", "α"), ("έ", "ε"), ("ή", "η"), ("ίϊΐ", "ι"), ("ό", "ο"), ("ύϋΰ", "υ"), ("ώ", "ω"),
        ]
        var table: [Unicode.Scalar: String] = [:]
        for (letters, base) in groups {
            for scalar in letters.unicodeScalars { table[scalar] = base }
        }
        return table
    }()

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
