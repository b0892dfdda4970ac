#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry for programs that keep their own main (compiler-rt,
// FuzzerInterface.h); linked in by -sanitize=fuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
