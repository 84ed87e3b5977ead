import FuzzSupport
import PGClient

exit(runFuzzer(fuzzCopyText))

/// One row of PostgreSQL's COPY text format, as `COPY … TO STDOUT` hands the analysis its rows, from arbitrary bytes.
///
/// The properties, each a crash (and the input kept) when broken:
/// - the row reader (``CopyTextRowReader``) finds the fields the parser (``CopyTextParser/fields(_:)``) finds, and reads
///   each integer as `Int64(_:)` reads the parser's text;
/// - reading a field with the value of the row before (`decode(_:_:reusing:)`) gives what a plain read gives;
/// - the fields written back with ``CopyText`` read back the same.
func fuzzCopyText(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let row = UnsafeRawBufferPointer(start: start, count: count)
    let fields = CopyTextParser.fields(row)
    var reader = CopyTextRowReader()
    reader.read(row)
    precondition(reader.count == fields.count, "the reader finds \(reader.count) fields, the parser \(fields.count)")
    for (index, field) in fields.enumerated() {
        precondition(reader.text(index) == field, "field \(index): \(String(describing: reader.text(index)))")
        precondition(reader.int64(index) == field.flatMap { Int64($0) }, "field \(index) as an integer")
    }
    precondition(reader.text(fields.count) == nil && reader.int64(fields.count) == nil, "a field past the last")

    // The same row read again with each field's value kept from the first reading.
    var selection = PGSelection(PGTable("row", KeyValuePairs(dictionaryLiteral: ("value", .text))))
    let field = selection.add("value")
    if let first = fields.first {
        var previous = first
        let reused: String?
        do {
            reused = try reader.decode(String?.self, field, reusing: &previous)
        } catch {
            preconditionFailure("a field the row has: \(error)")
        }
        precondition(reused == first, "the first field read again with its value kept")
    }

    var written = CopyText()
    do {
        for field in fields { try written.append(field) }
    } catch {
        // Text that COPY cannot carry (a NUL byte) is refused by the writer: nothing to read back.
        return 0
    }
    written.endRow()
    let readBack = written.bytes.withUnsafeBytes { CopyTextParser.fields($0) }
    precondition(readBack == fields, "written back as \(written.bytes), read back \(readBack)")
    return 0
}
