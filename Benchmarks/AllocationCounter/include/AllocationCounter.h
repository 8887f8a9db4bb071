#ifndef VIEWFINDER_ALLOCATION_COUNTER_H
#define VIEWFINDER_ALLOCATION_COUNTER_H
#include <stdint.h>

/// The number of heap allocations the process has made so far: calls to malloc, calloc, realloc, memalign,
/// aligned_alloc and posix_memalign, from any library.
///
/// Linking this target into an executable replaces those functions with counting ones that forward to glibc's own
/// allocator, so a benchmark can count allocations without LD_PRELOAD.
uint64_t viewfinder_allocation_count(void);
#endif
