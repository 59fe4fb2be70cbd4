import CZlib
import FerryCore

/// zlib's reasons for refusing deflate data, as catalog entries, so that
/// `gzip.corrupt` reads in the reader's language too.
///
/// zlib explains a failure in English through `z_stream.msg`, a string
/// from a fixed set (inflate.c, inffast.c, inftrees.c of zlib 1.2.x and
/// 1.3.x). Each has its own key; a text a later zlib adds is shown as
/// zlib wrote it.
enum ZlibReason {
    private static let keys: [String: MessageKey] = [
        "incorrect header check": .zlibIncorrectHeaderCheck,
        "unknown compression method": .zlibUnknownCompressionMethod,
        "invalid window size": .zlibInvalidWindowSize,
        "unknown header flags set": .zlibUnknownHeaderFlags,
        "header crc mismatch": .zlibHeaderCRCMismatch,
        "invalid block type": .zlibInvalidBlockType,
        "invalid stored block lengths": .zlibInvalidStoredBlockLengths,
        "too many length or distance symbols": .zlibTooManySymbols,
        "invalid code lengths set": .zlibInvalidCodeLengths,
        "invalid bit length repeat": .zlibInvalidBitLengthRepeat,
        "invalid code -- missing end-of-block": .zlibMissingEndOfBlock,
        "invalid literal/lengths set": .zlibInvalidLiteralLengths,
        "invalid distances set": .zlibInvalidDistances,
        "invalid literal/length code": .zlibInvalidLiteralLengthCode,
        "invalid distance code": .zlibInvalidDistanceCode,
        "invalid distance too far back": .zlibInvalidDistanceTooFarBack,
        "incorrect data check": .zlibIncorrectDataCheck,
        "incorrect length check": .zlibIncorrectLengthCheck,
    ]

    /// The reason for a failed `inflate` call.
    /// - Parameters:
    ///   - status: what `inflate` returned.
    ///   - message: the stream's `msg`, when zlib set one.
    static func argument(status: Int32, message: UnsafePointer<CChar>?) -> MessageArgument {
        if let message {
            let text = String(cString: message)
            return keys[text].map(MessageArgument.message) ?? .string(text)
        }
        switch status {
        case Z_NEED_DICT: return .message(.zlibNeedDictionary)
        case Z_MEM_ERROR: return .message(.zlibOutOfMemory)
        default: return .message(.zlibUnknown)
        }
    }
}
