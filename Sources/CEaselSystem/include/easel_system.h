#ifndef EASEL_SYSTEM_H
#define EASEL_SYSTEM_H
// System calls Swift's Glibc module leaves out (they need _GNU_SOURCE).

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Starts writing `count` bytes of the file at `offset` to the disk without waiting
// (sync_file_range with SYNC_FILE_RANGE_WRITE): a later fsync then has less left to wait
// for. Returns 0, or -1 with errno set (only a hint: the fsync reports real failures).
int easel_start_writeback(int fd, int64_t offset, int64_t count);

// Makes glibc fill every block malloc returns with `byte` (0: stop), as MALLOC_PERTURB_
// does at start-up: tests use it to show that no output depends on memory nobody wrote.
void easel_fill_new_memory(int byte);

// Whether `needle` (`needle_length` bytes) occurs in the first `length` bytes of
// `haystack`: glibc's memmem, a vectorised two-way search.
int easel_contains_bytes(const void *haystack, size_t length, const void *needle, size_t needle_length);

// Renames `from` to `to` only if nothing is at `to` (renameat2 with RENAME_NOREPLACE, one
// step the kernel does atomically). Returns 0, or -1 with errno set (EEXIST: `to` exists).
int easel_rename_noreplace(const char *from, const char *to);

// Takes an exclusive lock on the one byte at `offset` of the file open as `fd` (which must be
// open for writing), without waiting: an open-file-description lock (F_OFD_SETLK), so two
// opens in one process exclude each other as two processes do, released when the file is
// closed, and honoured across machines by NFS. Returns 0, or -1 with errno set (EAGAIN or
// EACCES: another holds it).
int easel_lock_byte(int fd, int64_t offset);

// Whether another open of the file holds the lock on the byte at `offset` (F_OFD_GETLK; the
// file open as `fd` for reading is enough): 1 held, 0 free, -1 with errno set.
int easel_lock_byte_is_held(int fd, int64_t offset);

// The bytes malloc holds free in all its arenas together (mallinfo2's fordblks).
size_t easel_free_memory_bytes(void);

// Gives the memory malloc holds free back to the system where it can (malloc_trim).
void easel_return_free_memory(void);

// Starts a thread running `body(context)`, placed on another processor than the calling
// thread's when the caller may run on more than one; once running, the thread may move to
// any processor the caller may use. (A new thread left to the kernel was measured to start
// on the caller's own, busy processor in about 40 % of starts on a two-core machine, and
// to wait there 3-4 ms for its turn.) Returns 0 with the joinable thread in `*thread`, or
// an errno value; `context` is the caller's to free when the thread could not start.
int easel_thread_start_elsewhere(pthread_t *thread, void (*body)(void *), void *context);

// How many processors the calling thread may run on (its affinity mask), or -1.
int easel_thread_processor_count(void);

// How many processors the process may keep busy: those its affinity mask allows, at most
// its cgroup's CPU quota rounded up (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us` over
// `cpu.cfs_period_us`), at least 1. What Foundation's `activeProcessorCount` counts, without
// its first call's cost (0.35-0.45 ms in a new process, measured here), which a single
// export paid before its document's reading could start.
int easel_available_processor_count(void);

#ifdef __cplusplus
}
#endif

#endif
