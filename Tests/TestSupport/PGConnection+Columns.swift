import PGClient

extension PGConnection {
    /// The columns of a table or view of the current schema (the first of the search path), in their order.
    package func columns(of relation: String) throws -> [String] {
        try execute(
            """
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
            """,
            [relation]
        ).rows.compactMap { $0[0] }
    }
}
