/// Checks the canonical UUID text form (8-4-4-4-12 hexadecimal digits).
enum UUIDText {
    static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                if byte != UInt8(ascii: "-") { return false }
            default:
                let isHex =
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
                if !isHex { return false }
            }
        }
        return true
    }
}
