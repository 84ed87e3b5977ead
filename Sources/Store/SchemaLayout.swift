/// How a schema's tables are laid out: plain tables, or `notifications`, `billing_episodes`,
/// `subscription_analysis` and `subscription_renewals` hash-partitioned by `original_transaction_id`
/// (`sql/layouts/partitioned.sql`).
///
/// The partitioned layout imposes the key rule of a database distributed by subscription (Citus): every primary key
/// and unique index includes `original_transaction_id`. Both layouts hold the same rows and give the same reports.
/// A layout is chosen when a schema is created and recorded in `schema_layout`; later migrations keep it.
package enum SchemaLayout: Hashable, Sendable, CustomStringConvertible {
    case plain
    /// Each of the four tables split into `partitions` partitions by the hash of `original_transaction_id`.
    case partitioned(partitions: Int)

    /// Partitions per table when none are asked for.
    package static let defaultPartitions = 8
    /// The partition counts accepted.
    package static let partitionRange = 1...1024

    /// Names the layout of the schemas commands create: `plain` or `partitioned`.
    package static let layoutVariable = "CHURN_SCHEMA_LAYOUT"
    /// Partitions per table of the partitioned layout asked for by ``layoutVariable`` (default 8).
    package static let partitionsVariable = "CHURN_SCHEMA_PARTITIONS"

    /// The layout named `name` (`plain` or `partitioned`), with `partitions` partitions when partitioned.
    /// - Throws: ``SchemaLayoutError/invalidSetting(_:)`` for another name, a partition count outside
    ///   ``partitionRange``, or a partition count with the plain layout.
    package init(name: String, partitions: Int?) throws {
        switch name {
        case "plain":
            guard partitions == nil else {
                throw SchemaLayoutError.invalidSetting("a partition count needs the partitioned layout")
            }
            self = .plain
        case "partitioned":
            let count = partitions ?? Self.defaultPartitions
            guard Self.partitionRange.contains(count) else {
                let range = Self.partitionRange
                throw SchemaLayoutError.invalidSetting(
                    "the partitioned layout takes \(range.lowerBound) to \(range.upperBound) partitions, not \(count)"
                )
            }
            self = .partitioned(partitions: count)
        default:
            throw SchemaLayoutError.invalidSetting("unknown layout '\(name)': use plain or partitioned")
        }
    }

    /// The layout `environment` asks for new schemas (``layoutVariable`` and ``partitionsVariable``); nil when
    /// ``layoutVariable`` is unset or empty.
    /// - Throws: ``SchemaLayoutError/invalidSetting(_:)`` naming the variable when a value is not valid.
    package static func requested(by environment: [String: String]) throws -> SchemaLayout? {
        guard let name = environment[layoutVariable], !name.isEmpty else { return nil }
        var partitions: Int?
        if let text = environment[partitionsVariable], !text.isEmpty {
            guard let count = Int(text) else {
                throw SchemaLayoutError.invalidSetting("\(partitionsVariable) is '\(text)', not a number")
            }
            partitions = count
        }
        do {
            return try SchemaLayout(name: name, partitions: name == "plain" ? nil : partitions)
        } catch let error as SchemaLayoutError {
            throw SchemaLayoutError.invalidSetting("\(layoutVariable)=\(name): \(error.reason)")
        }
    }

    /// `plain` or `partitioned`, as `schema_layout.layout` stores it.
    package var name: String {
        switch self {
        case .plain: "plain"
        case .partitioned: "partitioned"
        }
    }

    /// The partition count; nil for the plain layout.
    package var partitions: Int? {
        switch self {
        case .plain: nil
        case .partitioned(let partitions): partitions
        }
    }

    /// `plain layout`, or `partitioned layout (8 hash partitions per table by original_transaction_id)`.
    package var description: String {
        switch self {
        case .plain: "plain layout"
        case .partitioned(let partitions):
            "partitioned layout (\(partitions) hash partition\(partitions == 1 ? "" : "s") per table by "
                + "original_transaction_id)"
        }
    }
}
