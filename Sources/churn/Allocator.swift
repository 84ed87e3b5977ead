import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's memory allocator, set before any work starts.
enum Allocator {
    /// On Linux, limits glibc's malloc to one arena per core (at least two), where it would otherwise keep up to
    /// eight per core; elsewhere, nothing.
    ///
    /// A load reads lines on one thread, decodes them on Swift's pool and frees them on the connection's thread,
    /// so with many arenas each one keeps freed batches of its own: the verified load of a 297,524-line export
    /// (4 GB, `churn simulate --subscribers 40000 --seed 103`) peaked at 87.6 MB resident on 2 cores, and at
    /// 68.5 MB with `MALLOC_ARENA_MAX=2` (70.2 MB with this call), for the same CPU time (36–39 s of it). A
    /// `MALLOC_ARENA_MAX` in the environment still decides.
    static func configure() {
        #if canImport(Glibc)
            guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil,
                let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
            else { return }
            // `mallopt` and `M_ARENA_MAX` are in <malloc.h>, which the Glibc module does not bring: the function is
            // looked up by name, with the signature malloc.h declares, `int mallopt(int param, int value)`.
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(arenaMaximum, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
    }

    /// `M_ARENA_MAX` of <malloc.h>.
    private static let arenaMaximum: Int32 = -8
}
