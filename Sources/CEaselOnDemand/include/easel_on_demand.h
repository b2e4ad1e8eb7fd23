#ifndef EASEL_ON_DEMAND_H
#define EASEL_ON_DEMAND_H
// Libraries only some documents or commands need, opened (dlopen) the first time one is
// needed instead of by the dynamic loader at every start: HarfBuzz and FriBidi for text,
// libjpeg-turbo (libjpeg API) and libwebp for photos, libedit for the interactive session. A process
// that draws no text and decodes no JPEG or WebP never loads them (nor the 6 libraries
// they bring: GLib, PCRE2, graphite2, ncurses' terminfo, libbsd, libmd), which took
// about 1.6 ms off every process's start (docs/architecture.md).
//
// Each library's module (CEaselHarfBuzz...) calls through `easel_on_demand_function`:
// its functions are named easel_<the library's name>, and calling a library's own name
// directly does not link (the library is not linked), so none is missed.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    EASEL_LIBRARY_HARFBUZZ,
    EASEL_LIBRARY_FRIBIDI,
    EASEL_LIBRARY_JPEG,
    EASEL_LIBRARY_WEBP,
    EASEL_LIBRARY_EDIT,
} easel_library;

// Opens `library` unless it is open already (any thread, any number of times): 1 when it
// is open, 0 when it cannot be, and then `easel_library_error` says why.
int easel_library_open(easel_library library);

// Why `library` could not be opened (the dynamic loader's message, naming the file), or
// NULL when it has not failed.
const char *easel_library_error(easel_library library);

// The file `library` is opened from (its soname, such as "libharfbuzz.so.0").
const char *easel_library_file(easel_library library);

// The address of `symbol` in `library`, remembered in `*cache` (a per-symbol slot, NULL at
// first), opening the library when needed. A library that cannot be opened, or lacks the
// symbol, stops the process with a message naming both: callers check
// `easel_library_open` first wherever a missing library can be reported as an error.
void *easel_on_demand_function(easel_library library, const char *symbol, void **cache);

// `name` (a function or variable the library's header declares) as the library's own,
// looked up on the first use from this place (dlsym gives a variable's address as it gives
// a function's): `EASEL_ON_DEMAND(EASEL_LIBRARY_WEBP, WebPGetInfo)(data, size, &width,
// &height)`, or `EASEL_ON_DEMAND(EASEL_LIBRARY_EDIT, rl_readline_name) = "easel"`.
#define EASEL_ON_DEMAND(library, name)                                                                   \
    (*({                                                                                                 \
        static void *easel_on_demand_slot;                                                               \
        (__typeof__(name) *)easel_on_demand_function(library, #name, &easel_on_demand_slot);             \
    }))

#ifdef __cplusplus
}
#endif

#endif
