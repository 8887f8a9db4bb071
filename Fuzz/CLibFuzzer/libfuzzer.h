#ifndef VIEWFINDER_CLIBFUZZER_H
#define VIEWFINDER_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs that keep their own main: parses libFuzzer's options from argc and argv and
/// runs the fuzzer with `callback`. Defined by the toolchain's libclang_rt.fuzzer_no_main, which fuzz builds link.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
