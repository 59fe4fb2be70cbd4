#ifndef FERRY_SYSTEM_H
#define FERRY_SYSTEM_H

#include <stddef.h>

/// The Linux getdents64 system call, which Swift cannot reach: Glibc's
/// headers do not export its wrapper, and `syscall` is variadic. It is
/// async-signal-safe, so a signal handler can empty a folder with it.
/// Returns the bytes read into `buffer`, 0 at the end, or -1 (and errno).
long ferry_getdents64(int descriptor, void *buffer, size_t length);

/// Starts writing `count` bytes of the file from `offset` to the disk,
/// without waiting (Linux's sync_file_range with SYNC_FILE_RANGE_WRITE), so
/// that a later fsync has less left to wait for. Only a hint: returns 0, or
/// -1 and errno, and does nothing where the call does not exist.
int ferry_start_writeback(int descriptor, long long offset, long long count);

#endif
