import FerryJSON
import FerryKit
import Testing

/// The nesting limit: arrays and objects deeper than `maxDepth` end in a
/// located `limit.nestingTooDeep`, whatever the layout, and never a crash.
@Suite struct NestingLimitTests {
    static let limits = JSONTest.limits(maxDepth: 3)

    func lint(_ text: String, layout: JSONReader.Layout = .document, limits: ReadLimits = NestingLimitTests.limits) -> FerryError? {
        do throws(FerryError) {
            try JSONReader(MemoryInput(text), layout: layout, limits: limits, acceptsAnyValue: true).skipToEnd()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: ["[[[1]]]", "{\"a\":{\"b\":[1]}}", "[{\"a\":[1]}]", "[[], [[]], {\"a\":{}}]"])
    func atTheLimit(_ text: String) {
        #expect(lint(text) == nil)
    }

    @Test(arguments: [
        ("[[[[1]]]]", 4),
        ("{\"a\":{\"b\":{\"c\":[1]}}}", 16),
        ("[1, [2, [3, [4]]]]", 13),
        ("{\"a\":[[[]]]}", 8),
    ])
    func overTheLimit(_ text: String, column: Int) throws {
        let error = try #require(lint(text))
        #expect(error.code == .nestingTooDeep)
        #expect(error.arguments == [.integer(3)])
        #expect(error.place == [1, column])
    }

    @Test func overTheLimitInARecord() throws {
        let text = "{\"a\":1}\n{\"a\":[[[1]]]}\n"
        let error = try #require(JSONTest.readError(Array(text.utf8), layout: .lines, limits: Self.limits))
        #expect(error.code == .nestingTooDeep)
        #expect(error.place == [2, 8])
        #expect(error.location.record == 1)
    }

    /// A record inside the top-level array is one level deeper than a
    /// top-level record, so the same record must hit the limit one level sooner.
    @Test
    func recordsInAnArrayCountTheArray() throws {
        let error = try #require(lint("[{\"a\":[[1]]}]"))
        #expect(error.code == .nestingTooDeep)
        #expect(error.place == [1, 8])
        let converted = try #require(JSONTest.readError(Array("[{\"a\":[[1]]}]".utf8), limits: Self.limits))
        #expect(converted.code == .nestingTooDeep)
    }

    @Test(arguments: ["[", "{\"a\":", "[{\"a\":"])
    func hostileDepthIsALimitNotACrash(_ opener: String) throws {
        let text = String(repeating: opener, count: 100_000)
        let error = try #require(lint(text, limits: ReadLimits()))
        #expect(error.code == .nestingTooDeep)
        #expect(error.arguments == [.integer(512)])
        #expect(error.location.line == 1)
    }

    @Test func hostileDepthInChunks() throws {
        let bytes = Array((String(repeating: "{\"k\":[", count: 50_000)).utf8)
        let whole = try #require(JSONTest.readError(bytes))
        #expect(whole.code == .nestingTooDeep)
        #expect(JSONTest.readError(bytes, chunkSeed: 3) == whole)
    }
}
