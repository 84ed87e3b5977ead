/// A PostgreSQL column type, as a table declaration (``PGTable``) names it.
///
/// The raw value is the type's name as `information_schema.columns.data_type` and `format_type` print it, so a
/// declaration can be compared with the table a migration made.
package enum PGType: String, Sendable, CaseIterable {
    case text
    case jsonb
    case uuid
    case smallint
    case integer
    case bigint
    case boolean
    case timestamptz = "timestamp with time zone"
    case bytea
    /// Written as text only: ``CopyBinary`` has no encoder for it.
    case interval

    /// The type's name as PostgreSQL's `format_type` prints it.
    package var name: String { rawValue }

    /// The type's object id in `pg_type`, which a statement's parameter is sent with (``PGParameter``).
    package var oid: UInt32 {
        switch self {
        case .text: return 25
        case .jsonb: return 3802
        case .uuid: return 2950
        case .smallint: return 21
        case .integer: return 23
        case .bigint: return 20
        case .boolean: return 16
        case .timestamptz: return 1184
        case .bytea: return 17
        case .interval: return 1186
        }
    }
}
