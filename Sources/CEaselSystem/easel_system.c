#define _GNU_SOURCE
#include "easel_system.h"

#include <fcntl.h>
#include <stdio.h>
#include <malloc.h>
#include <string.h>

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
