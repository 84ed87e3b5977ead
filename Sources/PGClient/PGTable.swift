/// The declaration of one stored table: its name and its columns, each with its type, in the order rows are
/// written.
///
/// It is the one list of a table's columns in Swift: the COPY statement's column list, the binary COPY field types
/// and the select lists of readers (``PGSelection``) follow from it, and a test compares it with the table the
/// migrations made.
///
/// ```swift
/// static let table = PGTable("subscription_renewals", [
///     "environment": .text, "original_transaction_id": .text, "month": .text, "renewals": .integer,
/// ])
/// connection.copyIn(table.copyFromStdin()) { … }   // COPY subscription_renewals (environment, …) FROM STDIN
/// ```
package struct PGTable: Sendable {
    /// The table's name (an identifier from code, never from input).
    package let name: String
    /// The columns, in the order a COPY row writes them.
    package let columns: [PGColumn]

    /// Declares a table by its columns' names and types, in COPY order.
    package init(_ name: String, _ columns: KeyValuePairs<String, PGType>) {
        self.name = name
        self.columns = columns.map { PGColumn($0.key, $0.value) }
    }

    /// The column names, in order.
    package var columnNames: [String] { columns.map(\.name) }

    /// The column types, in order: what ``CopyText/append(binaryRows:types:)`` reads binary rows by.
    package var types: [PGType] { columns.map(\.type) }

    /// The column list of a COPY or INSERT: `a, b, c`.
    package var columnList: String { columnNames.joined(separator: ", ") }

    /// The column definitions of a `CREATE TABLE`: `a text, b bigint`, without constraints.
    package var columnDefinitions: String {
        columns.map { "\($0.name) \($0.type.name)" }.joined(separator: ", ")
    }

    /// The column named `name`, if declared.
    package func column(_ name: String) -> PGColumn? {
        columns.first { $0.name == name }
    }

    /// The position of the column named `name` in ``columns``, if declared.
    package func position(of name: String) -> Int? {
        columns.firstIndex { $0.name == name }
    }

    /// `COPY <table> (<columns>) FROM STDIN`, in binary format when `binary` is true.
    /// - Parameter table: the table to copy into when it is not this one but has its columns (a staging table).
    package func copyFromStdin(binary: Bool = false, into table: String? = nil) -> String {
        "COPY \(table ?? name) (\(columnList)) FROM STDIN" + (binary ? " WITH (FORMAT binary)" : "")
    }
}
