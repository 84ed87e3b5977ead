// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer): a fuzz target built by SwiftPM, whose executables
// have a `main` of their own, runs the fuzzer through it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
