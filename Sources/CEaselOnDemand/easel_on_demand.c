#include "easel_on_demand.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *file;
    void *handle;     // set once, under `lock`; read with acquire
    char error[512];  // set once, under `lock`, when the opening failed
    int failed;
} easel_library_state;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// Debian 12's sonames, the ones the build's headers describe.
static easel_library_state libraries[] = {
    [EASEL_LIBRARY_HARFBUZZ] = {.file = "libharfbuzz.so.0"},
    [EASEL_LIBRARY_FRIBIDI] = {.file = "libfribidi.so.0"},
    [EASEL_LIBRARY_JPEG] = {.file = "libjpeg.so.62"},
    [EASEL_LIBRARY_WEBP] = {.file = "libwebp.so.7"},
    [EASEL_LIBRARY_EDIT] = {.file = "libedit.so.2"},
};

static int valid(easel_library library) {
    return (unsigned)library < sizeof libraries / sizeof libraries[0];
}

// The library's handle, opening it on first use; NULL when it cannot be opened.
static void *handle_of(easel_library library) {
    easel_library_state *state = &libraries[library];
    void *handle = __atomic_load_n(&state->handle, __ATOMIC_ACQUIRE);
    if (handle != NULL) return handle;
    pthread_mutex_lock(&lock);
    handle = state->handle;
    if (handle == NULL && !state->failed) {
        // RTLD_LOCAL: its symbols (and its dependencies') stay out of the process's global
        // scope, so nothing else binds to them by accident.
        handle = dlopen(state->file, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *message = dlerror();
            snprintf(state->error, sizeof state->error, "%s", message ? message : state->file);
            state->failed = 1;
        } else {
            __atomic_store_n(&state->handle, handle, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&lock);
    return handle;
}

int easel_library_open(easel_library library) { return valid(library) && handle_of(library) != NULL; }

const char *easel_library_error(easel_library library) {
    if (!valid(library)) return "no such library";
    pthread_mutex_lock(&lock);
    const char *error = libraries[library].failed ? libraries[library].error : NULL;
    pthread_mutex_unlock(&lock);
    return error;
}

const char *easel_library_file(easel_library library) { return valid(library) ? libraries[library].file : ""; }

void *easel_on_demand_function(easel_library library, const char *symbol, void **cache) {
    void *function = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (function != NULL) return function;
    void *handle = valid(library) ? handle_of(library) : NULL;
    if (handle == NULL) {
        fprintf(stderr, "easel: %s is needed and cannot be loaded: %s\n", valid(library) ? libraries[library].file : "?",
                easel_library_error(library));
        abort();
    }
    function = dlsym(handle, symbol);
    if (function == NULL) {
        fprintf(stderr, "easel: %s has no %s (a version Easel was not built for)\n", libraries[library].file, symbol);
        abort();
    }
    __atomic_store_n(cache, function, __ATOMIC_RELEASE);
    return function;
}
