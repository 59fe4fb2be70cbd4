#define _GNU_SOURCE
#include "ferry_system.h"

#ifdef __linux__
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

void *ferry_grow_mapping(void *base, size_t old_size, size_t new_size) {
    void *grown = mremap(base, old_size, new_size, MREMAP_MAYMOVE);
    return grown == MAP_FAILED ? NULL : grown;
}

long long ferry_copy_range(int input, long long offset, int output, long long count) {
    long long copied = 0;
    while (copied < count) {
        off64_t from = offset + copied;
        ssize_t done = copy_file_range(input, &from, output, NULL, (size_t)(count - copied), 0);
        if (done <= 0) break;
        copied += done;
    }
    return copied;
}

int ferry_start_writeback(int descriptor, long long offset, long long count) {
    return sync_file_range(descriptor, offset, count, SYNC_FILE_RANGE_WRITE);
}

long ferry_getdents64(int descriptor, void *buffer, size_t length) {
    return syscall(SYS_getdents64, descriptor, buffer, length);
}

int ferry_usable_cores(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int count = CPU_COUNT(&set);
        if (count > 0) return count;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}
#else
#include <errno.h>
#include <unistd.h>

long long ferry_copy_range(int input, long long offset, int output, long long count) {
    (void)input;
    (void)offset;
    (void)output;
    (void)count;
    return 0;
}

void *ferry_grow_mapping(void *base, size_t old_size, size_t new_size) {
    (void)base;
    (void)old_size;
    (void)new_size;
    errno = ENOSYS;
    return NULL;
}

int ferry_start_writeback(int descriptor, long long offset, long long count) {
    (void)descriptor;
    (void)offset;
    (void)count;
    return 0;
}

long ferry_getdents64(int descriptor, void *buffer, size_t length) {
    (void)descriptor;
    (void)buffer;
    (void)length;
    errno = ENOSYS;
    return -1;
}

int ferry_usable_cores(void) {
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}
#endif
