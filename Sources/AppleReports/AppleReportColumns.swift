/// The columns the comparison reads, found by name, never by position: Apple documents the names and says a
/// reader should go by them. Names compare without case, spaces, `_` or `-`, and each column accepts the names
/// seen in downloaded files beside the documented one.
package enum AppleReportColumns {
    /// A column the reader looks for, with every name it accepts (the documented one first).
    package struct Column: Hashable, Sendable {
        package var names: [String]

        /// The documented name.
        package var name: String { names.first ?? "" }
    }

    /// `Event Date` (Subscription Event). Not `Date`: other Analytics reports (App Store Retention Messaging,
    /// Discovery and Engagement, installs) have `Date`, `Event` and `Counts` and must not pass for this one.
    package static let eventDate = Column(names: ["Event Date"])
    /// `Date` (Subscription State); `State Date` accepted too.
    package static let date = Column(names: ["Date", "State Date"])
    /// `Event Grouping`; `Event Group` in some files.
    package static let eventGrouping = Column(names: ["Event Grouping", "Event Group"])
    /// `Event Sub Type`; `Event Name` or `Event Subtype` in some files. Not `Event`, which other reports have.
    package static let eventSubType = Column(names: ["Event Sub Type", "Event Name", "Event Subtype"])
    /// `Paid Service Days Recovered`.
    package static let paidServiceDaysRecovered = Column(names: ["Paid Service Days Recovered"])
    /// `State Metric`.
    package static let stateMetric = Column(names: ["State Metric"])
    /// `Counts`; `Count` in some files.
    package static let counts = Column(names: ["Counts", "Count"])

    /// `name` without case, spaces, `_`, `-` or a byte-order mark, for comparing header names.
    package static func normalized(_ name: String) -> String {
        String(
            name.lowercased().unicodeScalars.filter { scalar in
                scalar != " " && scalar != "_" && scalar != "-" && scalar != "\u{FEFF}" && scalar != "\""
                    && scalar != "\t"
            })
    }

    /// The position of `column` in `header`: the first of its names found.
    package static func position(of column: Column, in header: [String]) -> Int? {
        let normalizedHeader = header.map(normalized)
        for name in column.names {
            if let position = normalizedHeader.firstIndex(of: normalized(name)) { return position }
        }
        return nil
    }
}
