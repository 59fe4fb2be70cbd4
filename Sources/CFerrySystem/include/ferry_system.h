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

/// Grows an anonymous mapping from `old_size` to `new_size` bytes, moving
/// it if it must (Linux's mremap with MREMAP_MAYMOVE, which Glibc's
/// headers hide from Swift). Returns the new start, or NULL (and errno);
/// NULL where the call does not exist.
void *ferry_grow_mapping(void *base, size_t old_size, size_t new_size);

/// Copies `count` bytes of `input` from `offset` to `output` at its file
/// position, inside the kernel (Linux's copy_file_range). Returns how many
/// were copied, which may be fewer (0 where the call does not exist or the
/// files do not allow it: then copy the rest by reading and writing).
long long ferry_copy_range(int input, long long offset, int output, long long count);

/// Guards `length` bytes of a file mapped read-only at `base`. Reading a
/// page of the mapping raises SIGBUS when the file has shrunk under it (or
/// its storage fails); for a guarded mapping, a SIGBUS handler (installed
/// on first use, passing other signals on to the handler it replaced) maps
/// a page of zeros there instead and marks the mapping damaged, and the
/// read goes on. Returns a slot for the calls below, or -1 when none is
/// free or the handler cannot be installed: then the file must be read,
/// not mapped.
int ferry_mapping_guard(const void *base, size_t length);

/// Whether a read of the mapping guarded in `slot` has failed.
int ferry_mapping_damaged(int slot);

/// Asks the processor to bring the cache line at `address` in, for a read
/// soon, without waiting for it (GCC and Clang's __builtin_prefetch, which
/// Swift cannot reach). A hash table that looks up a batch of keys
/// prefetches each one's slot first, so that the cache misses overlap.
static inline void ferry_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// The cores this process may run on (Linux's sched_getaffinity, which a
/// container's or a job scheduler's CPU set narrows; CPU_COUNT is a macro
/// Swift cannot reach). Falls back to the cores online, and is at least 1.
int ferry_usable_cores(void);

/// Stops guarding the mapping in `slot`; call it before unmapping.
void ferry_mapping_unguard(int slot);

#endif
