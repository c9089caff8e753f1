#ifndef PUREVISION_HEAP_STATS_H
#define PUREVISION_HEAP_STATS_H

#include <stdint.h>

/// Bytes the C allocator has handed out and not yet taken back (glibc's `mallinfo2`: `uordblks + hblkhd`, summed
/// over every arena), or -1 where the C library does not say.
int64_t purevision_heap_bytes_in_use(void);

#endif
