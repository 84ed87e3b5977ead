/// Tracks JSON nesting depth outside strings, to tell whether a line closes the value it opens.
struct JSONDepthScanner {
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false

    var isComplete: Bool { started && depth == 0 && !inString }
    var isInString: Bool { inString }
    /// More closing than opening brackets: not a JSON value.
    var isBroken: Bool { depth < 0 }

    mutating func consume(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else if byte == 0x22 {
                inString = false
            }
            return
        }
        switch byte {
        case 0x22: inString = true
        case 0x7B, 0x5B:
            depth += 1
            started = true
        case 0x7D, 0x5D: depth -= 1
        default: break
        }
    }
}
