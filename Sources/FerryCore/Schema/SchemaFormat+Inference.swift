/// The formats `ferry schema infer` gives a string field whose every value
/// has one, in the order they are tried: the checks are `SchemaFormat`'s,
/// so a value that passes here passes validation.
package enum InferableFormat: String, CaseIterable, Sendable {
    case date
    case dateTime = "date-time"
    case email
    case uri

    /// Whether `text` is of this format, as validation checks it.
    package func accepts(_ text: String) -> Bool {
        SchemaFormat(rawValue: rawValue)?.accepts(text) ?? false
    }
}
