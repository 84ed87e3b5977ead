#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension [UInt8] {
    /// The index of the first `byte` at or after `start`, found with `memchr` (export lines run to tens of KB).
    func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        guard start < count else { return nil }
        return withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, let found = memchr(base + start, Int32(byte), bytes.count - start)
            else {
                return nil
            }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }
}
