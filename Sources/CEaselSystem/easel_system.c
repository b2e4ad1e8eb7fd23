#define _GNU_SOURCE
#include "easel_system.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int easel_start_writeback(int fd, int64_t offset, int64_t count) {
#ifdef SYNC_FILE_RANGE_WRITE
    return sync_file_range(fd, (off_t)offset, (off_t)count, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
#endif
}

void easel_fill_new_memory(int byte) {
#ifdef M_PERTURB
    mallopt(M_PERTURB, byte);
#else
    (void)byte;
#endif
}

int easel_contains_bytes(const void *haystack, size_t length, const void *needle, size_t needle_length) {
    return memmem(haystack, length, needle, needle_length) != NULL;
}

int easel_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int easel_lock_byte(int fd, int64_t offset) {
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = offset, .l_len = 1, .l_pid = 0};
    return fcntl(fd, F_OFD_SETLK, &lock);
}

int easel_lock_byte_is_held(int fd, int64_t offset) {
    // Asked as a shared lock, which only an exclusive one holding the byte would refuse.
    struct flock lock = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = offset, .l_len = 1, .l_pid = 0};
    if (fcntl(fd, F_OFD_GETLK, &lock) != 0) return -1;
    return lock.l_type != F_UNLCK;
}

size_t easel_free_memory_bytes(void) { return mallinfo2().fordblks; }

void easel_return_free_memory(void) { malloc_trim(0); }

// What a thread started by easel_thread_start_elsewhere runs first.
typedef struct {
    void (*body)(void *);
    void *context;
    cpu_set_t allowed;  // the starting thread's processors, given back once running
    int placed;         // 1 when the thread was started on a narrower set
} easel_thread_start;

static void *easel_thread_trampoline(void *argument) {
    easel_thread_start start = *(easel_thread_start *)argument;
    free(argument);
    // Placed; from now on the kernel may move it as it sees fit (a failure only keeps it
    // off the starting processor).
    if (start.placed) pthread_setaffinity_np(pthread_self(), sizeof start.allowed, &start.allowed);
    start.body(start.context);
    return NULL;
}

int easel_thread_start_elsewhere(pthread_t *thread, void (*body)(void *), void *context) {
    easel_thread_start *start = malloc(sizeof *start);
    if (start == NULL) return ENOMEM;
    start->body = body;
    start->context = context;
    start->placed = 0;
    pthread_attr_t attributes;
    int status = pthread_attr_init(&attributes);
    if (status != 0) {
        free(start);
        return status;
    }
    // Elsewhere: every processor the caller may use but its current one, if any is left.
    int here = sched_getcpu();
    if (here >= 0 && here < CPU_SETSIZE && sched_getaffinity(0, sizeof start->allowed, &start->allowed) == 0 &&
        CPU_ISSET(here, &start->allowed) && CPU_COUNT(&start->allowed) > 1) {
        cpu_set_t elsewhere = start->allowed;
        CPU_CLR(here, &elsewhere);
        start->placed = pthread_attr_setaffinity_np(&attributes, sizeof elsewhere, &elsewhere) == 0;
    }
    status = pthread_create(thread, &attributes, easel_thread_trampoline, start);
    pthread_attr_destroy(&attributes);
    if (status != 0) free(start);
    return status;
}

// The first number in the file at `path`, or -1 (also for "max", no limit).
static long long first_number_in(const char *path) {
    FILE *file = fopen(path, "re");
    if (file == NULL) return -1;
    long long value = -1;
    if (fscanf(file, "%lld", &value) != 1) value = -1;
    fclose(file);
    return value;
}

// The CPU quota in processors, rounded up, or -1 when there is none.
static int cgroup_quota(void) {
    long long quota = -1, period = -1;
    FILE *file = fopen("/sys/fs/cgroup/cpu.max", "re");  // cgroup v2: "max 100000" or "200000 100000"
    if (file != NULL) {
        char first[32];
        if (fscanf(file, "%31s %lld", first, &period) == 2 && strcmp(first, "max") != 0) quota = atoll(first);
        fclose(file);
    } else {
        quota = first_number_in("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");  // cgroup v1; -1 is no limit
        period = first_number_in("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
    }
    if (quota <= 0 || period <= 0) return -1;
    long long processors = (quota + period - 1) / period;
    return processors > 4096 ? 4096 : (int)processors;
}

int easel_available_processor_count(void) {
    int allowed = easel_thread_processor_count();
    if (allowed <= 0) allowed = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (allowed <= 0) allowed = 1;
    int quota = cgroup_quota();
    return quota > 0 && quota < allowed ? quota : allowed;
}

int easel_thread_processor_count(void) {
    cpu_set_t allowed;
    return sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : -1;
}
