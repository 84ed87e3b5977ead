import Foundation

extension PreviousHeadline {
    /// Reads a `headline.json` of any format this version reads: the current one (2) in full, format 1 for the
    /// figures whose meaning did not change.
    ///
    /// - Parameters:
    ///   - data: the bytes of a `headline.json`.
    ///   - path: where they came from, for the error message.
    /// - Throws: `ReportsError` naming the field that is missing or wrong, or a format this version cannot read
    ///   (one written by a newer version).
    package static func decode(_ data: Data, path: String) throws -> PreviousHeadline {
        let format = try decodeField(FormatOnly.self, from: data, path: path).format
        switch format {
        case Headline.currentFormat:
            return .current(try decodeField(Headline.self, from: data, path: path))
        case 1:
            return .earlier(try decodeField(Earlier.self, from: data, path: path))
        default:
            throw ReportsError(
                operation: Headline.readingOperation, path: path,
                reason: "format \(format) is not one this version reads (1 or \(Headline.currentFormat)); "
                    + "it was written by another version: regenerate that report or report without a comparison")
        }
    }

    private struct FormatOnly: Decodable {
        var format: Int
    }

    private static func decodeField<Value: Decodable>(
        _ type: Value.Type, from data: Data, path: String
    ) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw ReportsError(operation: Headline.readingOperation, path: path, reason: Headline.describe(error))
        } catch {
            throw ReportsError(operation: Headline.readingOperation, path: path, reason: "\(error)")
        }
    }
}
