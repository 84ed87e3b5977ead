/// One-dimensional arrays in PostgreSQL's text form, for parameters such as `$1::text[]`.
package enum PGArray {
    /// `{"a","b"}`: each element quoted, with `"` and `\` escaped, so that any text (commas, braces, spaces, the
    /// word NULL, the empty string) comes back as itself. No element is SQL NULL.
    package static func literal(_ elements: some Sequence<String>) -> String {
        var text = "{"
        var first = true
        for element in elements {
            if !first { text += "," }
            first = false
            text += "\""
            for character in element.unicodeScalars {
                if character == "\"" || character == "\\" { text += "\\" }
                text.unicodeScalars.append(character)
            }
            text += "\""
        }
        return text + "}"
    }
}
