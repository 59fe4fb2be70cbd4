// MARK: - Design
//
// The URIs a schema names itself and others by (`$id`, `$ref`), resolved as
// RFC 3986 section 5 says, on text: Ferry never fetches one.
//
//     base  https://example.com/schemas/product.json
//     ref   price.json#/$defs/money
//       ->  https://example.com/schemas/price.json   #/$defs/money
//           (the resource)                           (a JSON pointer or an anchor)
//
// A schema read from disk has the base `file://` + its absolute path, so a
// relative reference finds the file beside it.

/// RFC 3986 reference resolution, and the parts of a schema reference.
package enum SchemaURI {
    /// `reference` resolved against `base` (an absolute URI).
    static func resolve(_ reference: String, against base: String) -> String {
        if reference.isEmpty { return withoutFragment(base) }
        if reference.hasPrefix("#") { return withoutFragment(base) + reference }
        if scheme(of: reference) != nil { return removingDotSegments(in: reference) }
        let (baseScheme, rest) = split(base)
        guard let baseScheme else { return reference }
        let baseRest = withoutFragment(rest)
        if reference.hasPrefix("//") { return baseScheme + ":" + removingDotSegments(in: reference) }
        // The base's authority (`//host`) and path, without its query.
        var authority = ""
        var path = baseRest
        if path.hasPrefix("//") {
            let afterSlashes = path.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = "//" + afterSlashes[..<end]
            path = String(afterSlashes[end...])
        }
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        if reference.hasPrefix("?") { return baseScheme + ":" + authority + path + reference }
        let merged: String
        if reference.hasPrefix("/") {
            merged = reference
        } else if let slash = path.lastIndex(of: "/") {
            merged = path[...slash] + reference
        } else {
            // A base with no slash in its path (`urn:…`, `//host`): the
            // reference replaces it.
            merged = (authority.isEmpty ? "" : "/") + reference
        }
        return baseScheme + ":" + authority + removingDotSegments(in: merged)
    }

    /// `uri` without its `#fragment`.
    package static func withoutFragment(_ uri: String) -> String {
        guard let hash = uri.firstIndex(of: "#") else { return uri }
        return String(uri[..<hash])
    }

    /// The fragment of `uri` (after `#`), percent-decoded; "" when none.
    static func fragment(of uri: String) -> String {
        guard let hash = uri.firstIndex(of: "#") else { return "" }
        return percentDecoded(String(uri[uri.index(after: hash)...]))
    }

    /// The scheme of `uri` (`https`, `urn`, `file`), nil for a relative reference.
    static func scheme(of uri: String) -> String? { split(uri).scheme }

    private static func split(_ uri: String) -> (scheme: String?, rest: String) {
        guard let colon = uri.firstIndex(of: ":") else { return (nil, uri) }
        let scheme = uri[..<colon]
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            scheme.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
            })
        else { return (nil, uri) }
        return (String(scheme), String(uri[uri.index(after: colon)...]))
    }

    /// RFC 3986 5.2.4 on the path of `uri` (its query and fragment kept).
    private static func removingDotSegments(in uri: String) -> String {
        guard uri.contains("/.") || uri.hasPrefix(".") else { return uri }
        var head = ""
        var path = uri
        let parts = split(uri)
        if let scheme = parts.scheme {
            head = scheme + ":"
            path = parts.rest
        }
        if path.hasPrefix("//") {
            let after = path.dropFirst(2)
            let end = after.firstIndex(of: "/") ?? after.endIndex
            head += "//" + after[..<end]
            path = String(after[end...])
        }
        var tail = ""
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            tail = String(path[end...])
            path = String(path[..<end])
        }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > 1 { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        return head + output.joined(separator: "/") + tail
    }

    /// `text` with `%XX` escapes decoded (left as is when they are not UTF-8).
    package static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    /// The reference tokens of the JSON pointer `pointer` (`/a~1b/0`), nil
    /// when it is not one.
    static func pointerTokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }
}
