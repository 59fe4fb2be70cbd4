import Foundation

/// A fresh folder under the system's temporary folder, removed on deinit.
public final class ScratchFolder {
    public let url: URL

    /// - Parameter withTemporaryFolder: also make a `tmp` folder inside, for
    ///   ferry's own temporary files (see `environment`).
    public init(withTemporaryFolder: Bool = false) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ferry-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: withTemporaryFolder ? url.appendingPathComponent("tmp") : url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The environment that sends ferry's temporary folders into `tmp`.
    public var environment: [String: String] { ["TMPDIR": path("tmp")] }

    /// Writes `bytes` to `name`, making the folders it needs.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = path(name)
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: target).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> String { try write(name, [UInt8](data)) }

    public func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    public func data(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// The names in the folder (or in `folder` inside it), hidden files included.
    public func contents(_ folder: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? url.path : path(folder)).sorted()
    }
}
