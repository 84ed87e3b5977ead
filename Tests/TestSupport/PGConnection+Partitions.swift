import Foundation
import PGClient

extension PGConnection {
    /// The partitioned tables of the current schema, in name order: `<table> <strategy> <key column> <partitions>`,
    /// e.g. `notifications hash original_transaction_id 8`, from the catalog (`pg_partitioned_table`).
    package func partitionedTables() throws -> [String] {
        try execute(
            """
            SELECT c.relname || ' '
                   || CASE p.partstrat WHEN 'h' THEN 'hash' WHEN 'l' THEN 'list' ELSE 'range' END || ' '
                   || a.attname || ' '
                   || (SELECT count(*) FROM pg_inherits i WHERE i.inhparent = c.oid)
            FROM pg_partitioned_table p
            JOIN pg_class c ON c.oid = p.partrelid
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = p.partattrs[0]
            WHERE c.relnamespace = current_schema()::regnamespace
            ORDER BY c.relname
            """
        ).rows.compactMap { $0[0] }
    }

    /// What a schema's layout must not change, one line per item of the current schema: the columns of its tables and
    /// views (type, NOT NULL, default), their constraints and indexes (definitions), and the views' queries. Partitions
    /// (and their indexes) are left out, and so are names of the schema itself.
    package func schemaShape() throws -> [String] {
        let schema = try execute("SELECT current_schema()").scalar ?? ""
        return try execute(
            """
            WITH relations AS (
                SELECT c.oid, c.relname FROM pg_class c
                WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v')
                  AND NOT c.relispartition
            )
            SELECT line FROM (
                SELECT 'column ' || r.relname || '.' || a.attname || ' #' || a.attnum || ' '
                       || format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
                       || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '') AS line
                FROM relations r
                JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
                LEFT JOIN pg_attrdef d ON d.adrelid = r.oid AND d.adnum = a.attnum
                UNION ALL
                SELECT 'constraint ' || r.relname || '.' || k.conname || ' ' || pg_get_constraintdef(k.oid)
                FROM relations r JOIN pg_constraint k ON k.conrelid = r.oid
                UNION ALL
                SELECT 'index ' || r.relname || '.' || i.relname || ' '
                       || regexp_replace(pg_get_indexdef(i.oid), ' ON (ONLY )?\\S+ ', ' ON ')
                FROM relations r JOIN pg_index x ON x.indrelid = r.oid JOIN pg_class i ON i.oid = x.indexrelid
                UNION ALL
                SELECT 'view ' || r.relname || ' ' || pg_get_viewdef(r.oid)
                FROM relations r JOIN pg_class v ON v.oid = r.oid AND v.relkind = 'v'
            ) shape
            ORDER BY line COLLATE "C"
            """
        ).rows.compactMap { $0[0]?.replacingOccurrences(of: schema + ".", with: "") }
    }
}
