import Synchronization

/// The codecs a program knows, by id and by file extension.
///
/// `FerryKit` provides the standard registry with every built-in codec. A
/// codec from another package joins with `registering(_:)`; nothing in Ferry
/// changes.
public struct CodecRegistry: Sendable {
    public private(set) var codecs: [any Codec] = []
    /// Faster ways for pairs of codecs, asked in order (see
    /// `ConversionAccelerator`).
    package private(set) var accelerators: [any ConversionAccelerator] = []

    /// A registry of `codecs`; a later codec replaces an earlier one with
    /// the same id.
    public init(_ codecs: [any Codec] = []) {
        for codec in codecs { register(codec) }
    }

    /// A registry of `codecs` and the accelerators of some of their pairs.
    package init(_ codecs: [any Codec], accelerators: [any ConversionAccelerator]) {
        self.init(codecs)
        self.accelerators = accelerators
    }

    /// Adds `codec`, replacing a codec with the same id.
    public mutating func register(_ codec: any Codec) {
        CodecRegistry.everRegistered.remember(codec)
        codecs.removeAll { $0.id == codec.id }
        codecs.append(codec)
    }

    /// This registry with `codec` added.
    public func registering(_ codec: any Codec) -> CodecRegistry {
        var copy = self
        copy.register(codec)
        return copy
    }

    /// This registry with each codec configured by `options`
    /// (`Codec.configured(by:)`), its accelerators kept: the codecs the
    /// command line runs with, built from its flags.
    /// - Throws: the first codec's error for a value it cannot take.
    public func configured(by options: OptionValues) throws(FerryError) -> CodecRegistry {
        var copy = self
        copy.codecs = []
        for codec in codecs { copy.codecs.append(try codec.configured(by: options)) }
        return copy
    }

    /// Adds `accelerator`, asked before those already there.
    package mutating func register(accelerator: any ConversionAccelerator) {
        accelerators.insert(accelerator, at: 0)
    }

    /// An accelerated conversion of `reader`'s records from `input` to
    /// `output`, by the first accelerator that serves them; nil when none
    /// does. `jobs`: the cores it may use.
    package func accelerate(
        _ reader: any RecordReader, from input: any Codec, to output: any Codec, destination: any ByteOutput,
        jobs: Int
    ) -> (any AcceleratedConversion)? {
        for accelerator in accelerators {
            if let run = accelerator.start(
                reading: reader, from: input, to: output, destination: destination, jobs: jobs)
            {
                return run
            }
        }
        return nil
    }

    /// The codec called `id` or one of its aliases, whatever the case.
    public func codec(id: String) -> (any Codec)? {
        let wanted = id.lowercased()
        return codecs.first { $0.id == wanted } ?? codecs.first { $0.aliases.contains(wanted) }
    }

    /// Every name `--from` and `--to` take: ids, then aliases.
    public var formatNames: [String] { codecs.map(\.id) + codecs.flatMap(\.aliases) }

    /// The codec for a path's extension. The longest matching suffix wins, so
    /// `.ferry.tgz` beats `.tgz`.
    public func codec(forPath path: String) -> (any Codec)? {
        let name = path.split(separator: "/").last.map(String.init)?.lowercased() ?? ""
        var best: (codec: any Codec, length: Int)?
        for codec in codecs {
            for suffix in codec.extensions where name.hasSuffix("." + suffix) {
                if suffix.count > best?.length ?? -1 { best = (codec, suffix.count) }
            }
        }
        return best?.codec
    }

    /// The readable codec that recognizes `prefix` best, if any recognizes it at all.
    public func sniff(_ prefix: [UInt8]) -> (codec: any Codec, confidence: SniffResult)? {
        var best: (codec: any Codec, confidence: SniffResult)?
        for codec in codecs where codec.capabilities.contains(.read) {
            let result = codec.sniff(prefix)
            if result > .no && result > best?.confidence ?? .no { best = (codec, result) }
        }
        return best
    }

    /// The English templates codecs bring for their own codes.
    public var codecMessages: [String: String] {
        var merged: [String: String] = [:]
        for codec in codecs { merged.merge(codec.messages) { old, _ in old } }
        return merged
    }

    /// The templates codecs bring for their own codes in `language` (a
    /// tag of Ferry's catalogs), where they have them.
    public func codecMessages(language: String) -> [String: String] {
        var merged: [String: String] = [:]
        for codec in codecs { merged.merge(codec.catalogs[language] ?? [:]) { old, _ in old } }
        return merged
    }
}

// MARK: - Codecs known to messages

extension CodecRegistry {
    /// Every codec that joined any registry in this process, by id: what a
    /// `FerryError`'s `description` (which is given no registry) renders a
    /// plugin codec's own codes with.
    package static let everRegistered = KnownCodecs()
}

/// Codecs by id, shared by every thread.
package final class KnownCodecs: Sendable {
    private let codecs = Mutex<[String: any Codec]>([:])

    func remember(_ codec: any Codec) {
        guard !codec.messages.isEmpty || !codec.catalogs.isEmpty else { return }
        codecs.withLock { $0[codec.id] = codec }
    }

    /// A registry of the codecs that brought messages of their own.
    package var registry: CodecRegistry {
        CodecRegistry(codecs.withLock { Array($0.values) }.sorted { $0.id < $1.id })
    }
}
