import Foundation

/// `value` rounded to 6 decimals (`%.6f`), the precision of the report's rates, for comparing a figure with one
/// worked out by hand; empty for nil.
func sixPlaces(_ value: Double?) -> String {
    value.map { String(format: "%.6f", $0) } ?? ""
}
