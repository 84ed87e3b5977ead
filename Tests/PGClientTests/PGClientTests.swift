import PGClient
import Testing

/// COPY text encoding without a server: every special byte at every offset of long and short values.
@Suite struct CopyTextTests {
    /// The escaping the format defines, one byte at a time.
    static func escaped(_ value: [UInt8]) -> [UInt8] {
        value.flatMap { byte -> [UInt8] in
            switch byte {
            case 0x5C: [0x5C, 0x5C]
            case 0x09: [0x5C, 0x74]
            case 0x0A: [0x5C, 0x6E]
            case 0x0D: [0x5C, 0x72]
            default: [byte]
            }
        }
    }

    @Test(arguments: [0x5C, 0x09, 0x0A, 0x0D, 0x0B, 0x01, 0x7F, 0xE2] as [UInt8])
    func escapesEverySpecialByteWhereverItStands(special: UInt8) throws {
        for length in [1, 7, 8, 9, 16, 31, 64] {
            for position in 0..<length {
                var value = Array(repeating: UInt8(ascii: "a"), count: length)
                value[position] = special
                if position + 3 < length { value[position + 3] = special }
                var row = CopyText()
                try value.withUnsafeBytes { try row.append(utf8: $0) }
                #expect(row.bytes == Self.escaped(value), "length \(length), position \(position)")
            }
        }
    }

    @Test func refusesANulByteAnywhereInALongValue() {
        for position in [0, 5, 8, 13, 40] {
            var value = Array(repeating: UInt8(ascii: "x"), count: 48)
            value[position] = 0
            var row = CopyText()
            #expect(throws: PGError.self) { try value.withUnsafeBytes { try row.append(utf8: $0) } }
        }
    }
}
