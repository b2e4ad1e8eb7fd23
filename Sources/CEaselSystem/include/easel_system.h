#ifndef EASEL_SYSTEM_H
#define EASEL_SYSTEM_H
// System calls Swift's Glibc module leaves out (they need _GNU_SOURCE).

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

#ifdef __cplusplus
}
#endif

#endif
