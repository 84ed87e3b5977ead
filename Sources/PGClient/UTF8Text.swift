/// Byte-level helpers that COPY's text and binary formats share.
enum UTF8Text {
    /// The value of an ASCII hex digit (either case), or nil for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Calls `body` with the UTF-8 bytes of `text`, passing on the ``PGError`` it throws.
    static func withBytes(
        of text: String,
        _ body: (UnsafeRawBufferPointer) throws(PGError) -> Void
    ) throws(PGError) {
        var text = text
        var failure: PGError?
        text.withUTF8 { buffer in
            do throws(PGError) {
                try body(UnsafeRawBufferPointer(buffer))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
