import Foundation

/// Writes a notification's storage document: the payload's JSON with each nested token's string replaced by the
/// token's decoded JSON object, and the members of every object the scanner recorded in the order PostgreSQL's
/// `jsonb` keeps them.
///
/// `jsonb` sorts each object's keys (shorter keys first, keys of one length by their bytes) and keeps nothing of the
/// text's order. Its sort first checks whether the keys are already in order, so a document written in that order
/// is stored as the same value for less of the server's time: on a load's documents, about a quarter less for the
/// server to turn the text into `jsonb`. Only the order changes: every key and value is copied as it was, white space
/// between members excepted, and objects the scanner did not record (deeper than the members' objects) keep their
/// text. A key with escapes is placed by its escaped bytes, which the server's sort then corrects.
enum StorageDocument {
    /// A JSON text and the members its scan recorded (see ``JSONScanner/Member``).
    struct Part {
        var json: Data
        var members: [JSONScanner.Member]
    }

    /// The document of `payload` with the string values at `nested`'s ranges (offsets into `payload.json`, quotes
    /// included) replaced by their parts.
    static func write(_ payload: Part, replacing nested: [(range: Range<Int>, part: Part)]) -> Data {
        // Nothing is added: members lose the white space around them and keep their separators.
        let bound = payload.json.count + nested.reduce(0) { $0 + $1.part.json.count - $1.range.count }
        var document = Data(count: bound)
        let written = document.withUnsafeMutableBytes { output in
            var writer = Writer(output: output)
            writer.write(payload, nested: nested)
            return writer.count
        }
        document.count = written
        return document
    }

    /// Copies into a buffer sized up front.
    private struct Writer {
        let output: UnsafeMutableRawBufferPointer
        var count = 0

        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard let source = bytes.baseAddress, let target = output.baseAddress, !bytes.isEmpty else { return }
            (target + count).copyMemory(from: source, byteCount: bytes.count)
            count += bytes.count
        }

        mutating func append(_ byte: UInt8) {
            output[count] = byte
            count += 1
        }

        /// Writes a part, its top-level object in order when its members were recorded, else its text as it is.
        mutating func write(_ part: Part, nested: [(range: Range<Int>, part: Part)] = []) {
            part.json.withUnsafeBytes { json in
                // The members of each object written, in order: the top level's first, then each object's as it
                // is reached. Each member is listed once, so one allocation serves the whole part.
                var order: [Int] = []
                order.reserveCapacity(part.members.count)
                for (index, member) in part.members.enumerated() where member.parent == -1 {
                    order.append(index)
                }
                if order.isEmpty {
                    append(json)
                } else {
                    writeObject(0..<order.count, of: part.members, in: json, order: &order, nested: nested)
                }
            }
        }

        /// Writes an object whose members are listed at `listed` in `order`, in `jsonb`'s order.
        private mutating func writeObject(
            _ listed: Range<Int>,
            of members: [JSONScanner.Member],
            in json: UnsafeRawBufferPointer,
            order: inout [Int],
            nested: [(range: Range<Int>, part: Part)]
        ) {
            StorageDocument.sort(&order[listed], of: members, in: json)
            append(UInt8(ascii: "{"))
            for position in listed {
                if position > listed.lowerBound { append(UInt8(ascii: ",")) }
                let index = order[position]
                let member = members[index]
                let quotedKey = (member.key.lowerBound - 1)..<(member.key.upperBound + 1)
                append(UnsafeRawBufferPointer(rebasing: json[quotedKey]))
                append(UInt8(ascii: ":"))
                if member.kind == .string || member.kind == .escapedString {
                    let quoted = (member.value.lowerBound - 1)..<(member.value.upperBound + 1)
                    if let replacement = nested.first(where: { $0.range == quoted }) {
                        write(replacement.part)
                    } else {
                        append(UnsafeRawBufferPointer(rebasing: json[quoted]))
                    }
                    continue
                }
                // The members of a top-level member's object follow it in the list.
                let first = order.count
                if member.kind == .object, member.parent == -1 {
                    var child = index + 1
                    while child < members.count, members[child].parent == index {
                        order.append(child)
                        child += 1
                    }
                }
                if order.count == first {
                    append(UnsafeRawBufferPointer(rebasing: json[member.value]))
                } else {
                    writeObject(first..<order.count, of: members, in: json, order: &order, nested: nested)
                }
            }
            append(UInt8(ascii: "}"))
        }
    }

    /// Sorts member indices into `jsonb`'s order of their keys: by length, then by bytes.
    static func sort(
        _ indices: inout ArraySlice<Int>, of members: [JSONScanner.Member], in json: UnsafeRawBufferPointer
    ) {
        func precedes(_ left: Int, _ right: Int) -> Bool {
            let a = members[left].key
            let b = members[right].key
            if a.count != b.count { return a.count < b.count }
            guard let base = json.baseAddress else { return false }
            return memcmp(base + a.lowerBound, base + b.lowerBound, a.count) < 0
        }
        if zip(indices, indices.dropFirst()).allSatisfy({ !precedes($1, $0) }) { return }
        indices.sort(by: precedes)
    }
}
