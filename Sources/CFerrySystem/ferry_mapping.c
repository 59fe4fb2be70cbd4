// The SIGBUS guard of mapped input files (see ferry_system.h).
//
// A signal handler may only touch lock-free atomics and async-signal-safe
// calls, so the guarded mappings live in a fixed table of atomic slots, and
// the handler uses only loads, stores, mmap and sigaction.

#define _GNU_SOURCE
#include "ferry_system.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { slot_count = 64 };

struct slot {
    /// 0 when the slot is free; set last when taken, cleared first when freed.
    _Atomic uintptr_t start;
    _Atomic uintptr_t end;
    _Atomic int damaged;
};

static struct slot slots[slot_count];
static struct sigaction replaced;
static uintptr_t page_size;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int installed;
static pthread_mutex_t taking = PTHREAD_MUTEX_INITIALIZER;

static void on_bus_error(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    if (info->si_code > 0) {
        for (int index = 0; index < slot_count; index++) {
            uintptr_t start = atomic_load(&slots[index].start);
            if (start == 0 || address < start || address >= atomic_load(&slots[index].end)) continue;
            void *page = (void *)(address & ~(page_size - 1));
            if (mmap(page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) break;
            atomic_store(&slots[index].damaged, 1);
            return;
        }
    }
    // Not a guarded mapping's: what would have happened without this handler.
    if ((replaced.sa_flags & SA_SIGINFO) && replaced.sa_sigaction != NULL) {
        replaced.sa_sigaction(signal, info, context);
    } else if (replaced.sa_handler != SIG_DFL && replaced.sa_handler != SIG_IGN) {
        replaced.sa_handler(signal);
    } else {
        // Back to the default: a fault happens again when the handler
        // returns, and a sent signal is sent again, both now fatal.
        struct sigaction fallback;
        memset(&fallback, 0, sizeof fallback);
        fallback.sa_handler = SIG_DFL;
        sigaction(SIGBUS, &fallback, NULL);
        if (info->si_code <= 0) raise(SIGBUS);
    }
}

static void install(void) {
    long size = sysconf(_SC_PAGESIZE);
    if (size <= 0) return;
    page_size = (uintptr_t)size;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    installed = sigaction(SIGBUS, &action, &replaced) == 0;
}

int ferry_mapping_guard(const void *base, size_t length) {
    if (base == NULL || length == 0) return -1;
    pthread_once(&install_once, install);
    if (!installed) return -1;
    int taken = -1;
    pthread_mutex_lock(&taking);
    for (int index = 0; index < slot_count; index++) {
        if (atomic_load(&slots[index].start) != 0) continue;
        atomic_store(&slots[index].damaged, 0);
        atomic_store(&slots[index].end, (uintptr_t)base + length);
        atomic_store(&slots[index].start, (uintptr_t)base);
        taken = index;
        break;
    }
    pthread_mutex_unlock(&taking);
    return taken;
}

int ferry_mapping_damaged(int slot) {
    if (slot < 0 || slot >= slot_count) return 0;
    return atomic_load(&slots[slot].damaged);
}

void ferry_mapping_unguard(int slot) {
    if (slot < 0 || slot >= slot_count) return;
    atomic_store(&slots[slot].start, 0);
}
