/// Times for the test scenarios, Unix milliseconds, UTC.
package enum T {
    package static let minute: Int64 = 60_000
    package static let hour: Int64 = 3_600_000
    package static let day: Int64 = 86_400_000
    /// 2024-03-01T00:00:00Z, a Friday (ISO week 2024-W09).
    package static let march1: Int64 = 1_709_251_200_000
    /// 2024-04-01T00:00:00Z, a Monday (ISO week 2024-W14).
    package static let april1: Int64 = 1_711_929_600_000
    /// 2024-05-01T00:00:00Z.
    package static let may1: Int64 = 1_714_521_600_000
    /// 2024-06-01T00:00:00Z.
    package static let june1: Int64 = 1_717_200_000_000
    /// 2024-07-01T00:00:00Z.
    package static let july1: Int64 = 1_719_792_000_000
}
