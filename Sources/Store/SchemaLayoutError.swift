/// Why a schema layout cannot be used.
package enum SchemaLayoutError: Error, CustomStringConvertible, Sendable {
    /// A layout setting (an option or an environment variable) is not valid: why.
    case invalidSetting(String)
    /// An existing schema has another layout than the one asked for: a layout is chosen when a schema is created.
    case layoutKept(recorded: SchemaLayout, requested: SchemaLayout)

    /// The reason alone, without advice.
    package var reason: String {
        switch self {
        case .invalidSetting(let reason): reason
        case .layoutKept(let recorded, let requested): "the schema has the \(recorded), not the \(requested)"
        }
    }

    package var description: String {
        switch self {
        case .invalidSetting:
            return "invalid schema layout: \(reason)"
        case .layoutKept:
            return "\(reason). A schema's layout is chosen when it is created and cannot be converted in place: "
                + "migrate a new schema or database with the layout you want and load the exports into it again."
        }
    }
}
