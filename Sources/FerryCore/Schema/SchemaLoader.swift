// MARK: - Design
//
// Loading a schema is two passes over its documents. The first finds the
// schema resources (the document, and every schema with its own `$id`) and
// their anchors, walking only the keywords whose values are schemas, so an
// `$id` inside an `enum` is no resource. The second compiles nodes; a
// `$ref` becomes the index of its target in `targets`, compiled once, so a
// schema may refer to itself (a tree of categories) without a loop at load:
//
//     {"$defs": {"node": {"properties": {"children":
//         {"items": {"$ref": "#/$defs/node"}}}}},     targets[0] = /$defs/node
//      "$ref": "#/$defs/node"}                        root: ref 0; the items: ref 0
//
// A reference to another resource asks `retrieve` for it (FerryKit reads
// files beside the schema and registered folders); none is fetched from the
// network. What cannot be found is `schema.unresolvedReference` at load.

/// The dialects Ferry reads, chosen by `$schema`.
enum SchemaDialect: Sendable {
    case draft7
    case draft2019
    case draft2020

    init?(uri: String) {
        var uri = uri
        if uri.hasSuffix("#") { uri.removeLast() }
        if uri.hasPrefix("http://") { uri = "https://" + uri.dropFirst(7) }
        switch uri {
        case "https://json-schema.org/draft/2020-12/schema": self = .draft2020
        case "https://json-schema.org/draft/2019-09/schema": self = .draft2019
        case "https://json-schema.org/draft-07/schema": self = .draft7
        default: return nil
        }
    }
}

/// Where a schema sits while it is compiled.
struct SchemaContext {
    var resource: Int
    /// The base URI relative references resolve against.
    var base: String
    var dialect: SchemaDialect
}

/// One schema resource: a document, or a schema with its own `$id`.
struct SchemaResource {
    let uri: String
    let value: Value
    let dialect: SchemaDialect
    /// What its nodes' paths start with: `""` for the document checked,
    /// `/$defs/inner` for a resource inside it, `price.json#` for another file.
    let path: String
    /// Its `$dynamicAnchor`s (2019-09's `$recursiveAnchor` is the anchor ""),
    /// each with its JSON pointer in the resource.
    var dynamicAnchors: [String: String] = [:]
}

/// The state of one load: resources, anchors, and the targets of references.
final class SchemaLoader {
    let source: String
    let retrieve: (String) throws(FerryError) -> Value?
    let ignoresUnknownKeywords: Bool
    /// Whether `format` is read at all (Ferry's default) or skipped as an
    /// annotation, unknown names too, as the specification's default is.
    let assertsFormats: Bool
    /// When read, whether a known format is checked or only describes.
    let formats: SchemaFormatMode
    var resources: [SchemaResource] = []
    private var resourceIndex: [String: Int] = [:]
    /// `uri#name` to the resource and pointer of the schema with that `$anchor`.
    private var anchors: [String: (resource: Int, pointer: String)] = [:]
    private var slots: [String: Int] = [:]
    var targets: [SchemaNode?] = []
    private var pending: [(slot: Int, resource: Int, pointer: String)] = []
    /// Per resource, the targets of its dynamic anchors.
    var dynamicTargets: [Int: [String: Int]] = [:]
    var usesDynamicReferences = false

    init(
        source: String, ignoresUnknownKeywords: Bool, assertsFormats: Bool, formats: SchemaFormatMode = .assert,
        retrieve: @escaping (String) throws(FerryError) -> Value?
    ) {
        self.source = source
        self.ignoresUnknownKeywords = ignoresUnknownKeywords
        self.assertsFormats = assertsFormats
        self.formats = formats
        self.retrieve = retrieve
    }

    // MARK: - Resources

    /// Registers `document` as the resource `uri` (and the resources inside
    /// it); returns its index. A document with an `$id` is that resource,
    /// found by both.
    /// - Parameter embedded: whether `document` is a schema inside another,
    ///   where `uri` is the base its `$id` resolves against (then no name of
    ///   its own).
    @discardableResult
    func register(
        _ document: Value, uri: String, dialect: SchemaDialect, path: String, embedded: Bool = false
    ) throws(FerryError) -> Int {
        var dialect = dialect
        if case .object(let object) = document, let declared = object["$schema"] {
            guard case .string(let text) = declared, let known = SchemaDialect(uri: text) else {
                throw .schemaInvalidKeyword("$schema", path: path + "/$schema", expected: .schemaExpectedDialect, source: source)
            }
            dialect = known
        }
        var uri = SchemaURI.withoutFragment(uri)
        let alias = uri
        if case .object(let object) = document, case .string(let id)? = object["$id"], !isAnchorID(id, object, dialect) {
            uri = SchemaURI.withoutFragment(SchemaURI.resolve(id, against: uri))
        }
        let index = resources.count
        resources.append(SchemaResource(uri: uri, value: document, dialect: dialect, path: path))
        resourceIndex[uri] = index
        if !embedded && resourceIndex[alias] == nil { resourceIndex[alias] = index }
        try scan(document, context: SchemaContext(resource: index, base: uri, dialect: dialect), pointer: "", path: path, root: true)
        return index
    }

    /// Whether `$id` in `object` is draft-07's anchor (`#name`), or ignored beside `$ref`.
    private func isAnchorID(_ id: String, _ object: OrderedObject, _ dialect: SchemaDialect) -> Bool {
        dialect == .draft7 && (id.hasPrefix("#") || object["$ref"] != nil)
    }

    /// The first pass: resources and anchors inside `value`.
    private func scan(_ value: Value, context: SchemaContext, pointer: String, path: String, root: Bool) throws(FerryError) {
        guard case .object(let object) = value else { return }
        var context = context
        if !root, case .string(let id)? = object["$id"] {
            if isAnchorID(id, object, context.dialect) {
                if id.hasPrefix("#") { addAnchor(String(id.dropFirst()), context, pointer) }
            } else {
                try register(value, uri: context.base, dialect: context.dialect, path: path, embedded: true)
                return
            }
        }
        if context.dialect == .draft7, object["$ref"] != nil { return }
        if case .string(let name)? = object["$anchor"], context.dialect != .draft7 { addAnchor(name, context, pointer) }
        if case .string(let name)? = object["$dynamicAnchor"], context.dialect == .draft2020 {
            addAnchor(name, context, pointer)
            resources[context.resource].dynamicAnchors[name] = pointer
        }
        if case .bool(true)? = object["$recursiveAnchor"], context.dialect == .draft2019, pointer.isEmpty {
            resources[context.resource].dynamicAnchors[""] = pointer
        }
        context.base = resources[context.resource].uri
        for (keyword, child) in zip(object.keys, object.values) {
            let here = "/" + SchemaCompiler.escape(keyword)
            switch SchemaCompiler.shape(of: keyword, context.dialect, child) {
            case .schema:
                try scan(child, context: context, pointer: pointer + here, path: path + here, root: false)
            case .schemas:
                guard case .array(let elements) = child else { continue }
                for (index, element) in elements.enumerated() {
                    try scan(element, context: context, pointer: pointer + here + "/\(index)", path: path + here + "/\(index)", root: false)
                }
            case .namedSchemas:
                guard case .object(let named) = child else { continue }
                for (name, element) in zip(named.keys, named.values) {
                    let more = here + "/" + SchemaCompiler.escape(name)
                    try scan(element, context: context, pointer: pointer + more, path: path + more, root: false)
                }
            case .value:
                continue
            }
        }
    }

    private func addAnchor(_ name: String, _ context: SchemaContext, _ pointer: String) {
        let key = resources[context.resource].uri + "#" + name
        if anchors[key] == nil { anchors[key] = (context.resource, pointer) }
    }

    /// The index of the resource `uri`, retrieved when it is not known yet.
    private func resource(_ uri: String, dialect: SchemaDialect, reference: String, at path: String) throws(FerryError) -> Int {
        if let index = resourceIndex[uri] { return index }
        guard let document = try retrieve(uri) else {
            throw .schemaUnresolvedReference(reference, path: path, source: source)
        }
        let index = try register(document, uri: uri, dialect: dialect, path: uri + "#")
        resourceIndex[uri] = index
        return index
    }

    // MARK: - References

    /// The target of the reference `reference` found at `path`.
    func target(of reference: String, in context: SchemaContext, at path: String) throws(FerryError) -> Int {
        try locate(reference, in: context, at: path).slot
    }

    /// The target of a `$dynamicRef` (or `$recursiveRef`, whose anchor is "").
    func dynamicTarget(of reference: String, recursive: Bool, in context: SchemaContext, at path: String) throws(FerryError) -> DynamicReference {
        let found = try locate(reference, in: context, at: path)
        usesDynamicReferences = true
        let name = recursive ? "" : SchemaURI.fragment(of: reference)
        let bookended = (recursive || !name.hasPrefix("/")) && resources[found.resource].dynamicAnchors[name] == found.pointer
        return DynamicReference(target: found.slot, anchor: bookended ? name : nil)
    }

    private func locate(
        _ reference: String, in context: SchemaContext, at path: String
    ) throws(FerryError) -> (slot: Int, resource: Int, pointer: String) {
        let absolute = SchemaURI.resolve(reference, against: context.base)
        let uri = SchemaURI.withoutFragment(absolute)
        let fragment = SchemaURI.fragment(of: absolute)
        var index = try resource(uri, dialect: context.dialect, reference: reference, at: path)
        var pointer = fragment
        if !fragment.isEmpty && !fragment.hasPrefix("/") {
            guard let anchor = anchors[resources[index].uri + "#" + fragment] else {
                throw .schemaUnresolvedReference(reference, path: path, source: source)
            }
            (index, pointer) = anchor
        }
        guard value(in: index, at: pointer) != nil else { throw .schemaUnresolvedReference(reference, path: path, source: source) }
        return (slot(index, pointer), index, pointer)
    }

    /// The index in `targets` of the schema at `pointer` in resource `index`.
    private func slot(_ index: Int, _ pointer: String) -> Int {
        let key = "\(index)#" + pointer
        if let slot = slots[key] { return slot }
        let slot = targets.count
        targets.append(nil)
        slots[key] = slot
        pending.append((slot, index, pointer))
        return slot
    }

    /// The value at `pointer` in resource `index`, and the context it is
    /// compiled in (a schema on the way with its own `$id` moves the base).
    func value(in index: Int, at pointer: String) -> (value: Value, context: SchemaContext)? {
        guard let tokens = SchemaURI.pointerTokens(pointer) else { return nil }
        let resource = resources[index]
        var value = resource.value
        var context = SchemaContext(resource: index, base: resource.uri, dialect: resource.dialect)
        var path = "\(index)"
        for (step, token) in tokens.enumerated() {
            defer { path += "/" + token }
            if step > 0, case .object(let object) = value, case .string(let id)? = member("$id", of: object, at: path),
                !isAnchorID(id, object, context.dialect),
                let inner = resourceIndex[SchemaURI.withoutFragment(SchemaURI.resolve(id, against: context.base))]
            {
                context = SchemaContext(resource: inner, base: resources[inner].uri, dialect: resources[inner].dialect)
            }
            switch value {
            case .object(let object):
                guard let next = member(token, of: object, at: path) else { return nil }
                value = next
            case .array(let elements):
                guard let position = Int(token), elements.indices.contains(position) else { return nil }
                value = elements[position]
            default:
                return nil
            }
        }
        return (value, context)
    }

    /// The positions of the keys of the large objects references have
    /// looked into, by their place (`resource/token/…`): `$defs` of
    /// 20,000 schemas made each reference a linear search, and loading a
    /// chain of them quadratic (3.4 s for 20,000, 10.7 s for 40,000).
    private var keyPositions: [String: [String: Int]] = [:]

    /// Objects of at most this many keys are searched in place.
    private static let indexedFrom = 32

    /// The value of `key` in `object`, which sits at `path`.
    private func member(_ key: String, of object: OrderedObject, at path: String) -> Value? {
        guard object.count > Self.indexedFrom else { return object[key] }
        if let positions = keyPositions[path] { return positions[key].map { object.values[$0] } }
        var positions: [String: Int] = [:]
        for (position, name) in object.keys.enumerated() where positions[name] == nil { positions[name] = position }
        keyPositions[path] = positions
        return positions[key].map { object.values[$0] }
    }

    /// Compiles every target asked for, and those their references ask for.
    func compilePending(with compiler: SchemaCompiler) throws(FerryError) {
        for (index, resource) in resources.enumerated() {
            for (name, pointer) in resource.dynamicAnchors { dynamicTargets[index, default: [:]][name] = slot(index, pointer) }
        }
        while let (slot, index, pointer) = pending.popLast() {
            guard let (value, context) = value(in: index, at: pointer) else { continue }
            targets[slot] = try compiler.compile(value, in: context, at: resources[index].path + pointer)
            // Resources a reference retrieved bring their own dynamic anchors.
            for (other, resource) in resources.enumerated() where dynamicTargets[other] == nil {
                for (name, pointer) in resource.dynamicAnchors {
                    dynamicTargets[other, default: [:]][name] = self.slot(other, pointer)
                }
            }
        }
    }
}
