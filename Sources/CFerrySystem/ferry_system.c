#define _GNU_SOURCE
#include "ferry_system.h"

#ifdef __linux__
#include <sys/syscall.h>
#include <unistd.h>

long ferry_getdents64(int descriptor, void *buffer, size_t length) {
    return syscall(SYS_getdents64, descriptor, buffer, length);
}
#else
#include <errno.h>

long ferry_getdents64(int descriptor, void *buffer, size_t length) {
    (void)descriptor;
    (void)buffer;
    (void)length;
    errno = ENOSYS;
    return -1;
}
#endif
