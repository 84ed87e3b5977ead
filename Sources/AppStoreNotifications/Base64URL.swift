import Foundation

/// base64url (RFC 4648 §5) without padding, as JWS uses it.
package enum Base64URL {
    private static let encodeTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// A character's 6 bits placed where they go in a group of four characters (24 bits): entry `256 × p + c` is
    /// character `c` at position `p`, or ``invalid`` for a character of neither alphabet. A group is then the OR of
    /// four look-ups, and one test of the OR finds any bad character in it.
    private static let groupTable: [UInt32] = {
        var values = [UInt32](repeating: invalid, count: 256)
        for (value, character) in encodeTable.enumerated() {
            values[Int(character)] = UInt32(value)
        }
        // Accept the standard alphabet too: some exporters re-encode with `+` and `/`.
        values[Int(UInt8(ascii: "+"))] = 62
        values[Int(UInt8(ascii: "/"))] = 63
        return (0..<4).flatMap { position in
            values.map { $0 == invalid ? invalid : $0 << (18 - 6 * position) }
        }
    }()

    /// Above the 24 bits of a group, so that it survives the OR of a group's look-ups.
    private static let invalid: UInt32 = 1 << 24

    /// Decodes base64url text; trailing `=` padding is tolerated. Returns nil on any other character
    /// or an impossible length.
    package static func decode(_ text: some Collection<UInt8>) -> Data? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) {
            return decoded
        }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    /// Decodes into a buffer sized up front, four characters to three bytes at a time: appending to `Data` byte by
    /// byte costs more than the decoding itself.
    private static func decode(buffer input: UnsafeBufferPointer<UInt8>) -> Data? {
        var end = input.count
        while end > 0 && input[end - 1] == UInt8(ascii: "=") { end -= 1 }
        if end % 4 == 1 { return nil }
        var output = Data(count: end * 3 / 4)
        let isValid = output.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Bool in
            groupTable.withUnsafeBufferPointer { table -> Bool in
                var read = 0
                var written = 0
                // Two groups at a time, their six bytes written as one eight-byte word while two more groups follow
                // (the word's last two bytes are the next group's place, written over then).
                while read + 16 <= end {
                    let first =
                        table[Int(input[read])] | table[256 + Int(input[read + 1])]
                        | table[512 + Int(input[read + 2])] | table[768 + Int(input[read + 3])]
                    let second =
                        table[Int(input[read + 4])] | table[256 + Int(input[read + 5])]
                        | table[512 + Int(input[read + 6])] | table[768 + Int(input[read + 7])]
                    if (first | second) & invalid != 0 { return false }
                    let word = UInt64(first) << 40 | UInt64(second) << 16
                    out.storeBytes(of: word.bigEndian, toByteOffset: written, as: UInt64.self)
                    read += 8
                    written += 6
                }
                while read + 4 <= end {
                    let group =
                        table[Int(input[read])] | table[256 + Int(input[read + 1])]
                        | table[512 + Int(input[read + 2])] | table[768 + Int(input[read + 3])]
                    if group & invalid != 0 { return false }
                    out[written] = UInt8(truncatingIfNeeded: group >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    out[written + 2] = UInt8(truncatingIfNeeded: group)
                    read += 4
                    written += 3
                }
                // The last 2 or 3 characters carry 1 or 2 bytes.
                var group: UInt32 = 0
                for (position, index) in (read..<end).enumerated() {
                    group |= table[256 * position + Int(input[index])]
                }
                if group & invalid != 0 { return false }
                switch end - read {
                case 2:
                    out[written] = UInt8(truncatingIfNeeded: group >> 16)
                case 3:
                    out[written] = UInt8(truncatingIfNeeded: group >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                default:
                    break
                }
                return true
            }
        }
        return isValid ? output : nil
    }

    /// Encodes bytes as base64url without padding.
    package static func encode(_ data: some Collection<UInt8>) -> String {
        let text =
            data.withContiguousStorageIfAvailable { encodedUTF8(UnsafeRawBufferPointer($0)) }
            ?? Array(data).withUnsafeBytes { encodedUTF8($0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// Encodes bytes as base64url without padding, into the UTF-8 bytes of the text.
    ///
    /// Three bytes at a time from contiguous memory, written into a buffer sized up front: signing hundreds of
    /// thousands of 10 kB payloads (the simulator) spends much of its time here.
    package static func encodedUTF8(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        let count = input.count
        let length = (count * 4 + 2) / 3
        return [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            encodeTable.withUnsafeBufferPointer { table in
                var read = 0
                var write = 0
                while read + 3 <= count {
                    let group = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
                    buffer[write] = table[Int(group >> 18)]
                    buffer[write + 1] = table[Int(group >> 12 & 0x3F)]
                    buffer[write + 2] = table[Int(group >> 6 & 0x3F)]
                    buffer[write + 3] = table[Int(group & 0x3F)]
                    read += 3
                    write += 4
                }
                // One byte left makes two characters, two bytes make three.
                let remaining = count - read
                if remaining > 0 {
                    var group = UInt32(input[read]) << 16
                    if remaining == 2 { group |= UInt32(input[read + 1]) << 8 }
                    buffer[write] = table[Int(group >> 18)]
                    buffer[write + 1] = table[Int(group >> 12 & 0x3F)]
                    if remaining == 2 { buffer[write + 2] = table[Int(group >> 6 & 0x3F)] }
                }
            }
            initialized = length
        }
    }
}
