/// One-dimensional arrays as parameters: PostgreSQL's text form of the array, sent with the array's type, so the SQL
/// needs no cast (`= ANY($1)`, `unnest($1, $2)`). No element is SQL NULL.
package struct PGArray: PGParameter, Sendable {
    /// `{…}`, as PostgreSQL's array input reads it.
    package let parameterText: String?
    package let parameterTypeOID: UInt32

    /// An array literal already written (`{"\\x…",…}`), of the array type `oid`.
    package init(literal: String, oid: UInt32) {
        parameterText = literal
        parameterTypeOID = oid
    }

    /// `text[]`: each element quoted, with `"` and `\` escaped, so that any text (commas, braces, spaces, the word
    /// NULL, the empty string) comes back as itself.
    package static func texts(_ elements: some Sequence<String>) -> PGArray {
        PGArray(literal: quoted(elements), oid: textArray)
    }

    /// `bigint[]`.
    package static func bigints(_ elements: some Sequence<Int64>) -> PGArray {
        PGArray(literal: "{" + elements.map(String.init).joined(separator: ",") + "}", oid: bigintArray)
    }

    /// `uuid[]`, from their canonical text (`0d4c8b6e-…`: hex digits and hyphens, which need no quoting); a text
    /// that is no uuid is refused by the server.
    package static func uuids(_ elements: some Sequence<String>) -> PGArray {
        PGArray(literal: "{" + elements.joined(separator: ",") + "}", oid: uuidArray)
    }

    /// `regclass[]`: tables or indexes by name, as the server resolves a name.
    package static func regclasses(_ elements: some Sequence<String>) -> PGArray {
        PGArray(literal: quoted(elements), oid: regclassArray)
    }

    /// The object ids of the array types (`pg_type.oid`).
    package static let textArray: UInt32 = 1009
    package static let bigintArray: UInt32 = 1016
    package static let uuidArray: UInt32 = 2951
    package static let byteaArray: UInt32 = 1001
    package static let regclassArray: UInt32 = 2210

    /// `{"a","b"}`: each element quoted, with `"` and `\` escaped.
    private static func quoted(_ elements: some Sequence<String>) -> String {
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
