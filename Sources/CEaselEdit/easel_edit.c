#include "easel_edit.h"

#include <easel_on_demand.h>

#define CALL(name) EASEL_ON_DEMAND(EASEL_LIBRARY_EDIT, name)

int easel_edit_open(void) { return easel_library_open(EASEL_LIBRARY_EDIT); }

const char *easel_edit_error(void) { return easel_library_error(EASEL_LIBRARY_EDIT); }

// One of libedit's variables, through its address (dlsym gives a variable's address as it
// gives a function's), looked up on the first use from this place.
#define VARIABLE(name)                                                                                  \
    (*({                                                                                                \
        static void *easel_on_demand_slot;                                                              \
        (__typeof__(name) *)easel_on_demand_function(EASEL_LIBRARY_EDIT, #name, &easel_on_demand_slot); \
    }))

void easel_edit_set_up(rl_completion_func_t *complete) {
    VARIABLE(rl_readline_name) = "easel";
    VARIABLE(rl_attempted_completion_function) = complete;
}

const char *easel_edit_line_buffer(void) { return VARIABLE(rl_line_buffer); }

char *easel_readline(const char *prompt) { return CALL(readline)(prompt); }

int easel_add_history(const char *line) { return CALL(add_history)(line); }

char **easel_rl_completion_matches(const char *text, rl_compentry_func_t *entry) {
    return CALL(rl_completion_matches)(text, entry);
}
