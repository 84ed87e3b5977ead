import CLibFuzzer

#if canImport(Glibc)
    @_exported import Glibc
#endif

/// Runs libFuzzer with the process's arguments (a corpus directory, seed directories, `-max_total_time=…`) on
/// `test`, called once per input with its bytes.
/// - Returns: libFuzzer's exit code.
package func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, test)
}
