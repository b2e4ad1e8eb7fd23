#include "easel_edit.h"

#include <easel_on_demand.h>

// libedit's functions and variables (it is configured through variables).
#define LIBEDIT(name) EASEL_ON_DEMAND(EASEL_LIBRARY_EDIT, name)

int easel_edit_open(void) { return easel_library_open(EASEL_LIBRARY_EDIT); }

const char *easel_edit_error(void) { return easel_library_error(EASEL_LIBRARY_EDIT); }

void easel_edit_set_up(rl_completion_func_t *complete) {
    LIBEDIT(rl_readline_name) = "easel";
    LIBEDIT(rl_attempted_completion_function) = complete;
}

const char *easel_edit_line_buffer(void) { return LIBEDIT(rl_line_buffer); }

char *easel_readline(const char *prompt) { return LIBEDIT(readline)(prompt); }

int easel_add_history(const char *line) { return LIBEDIT(add_history)(line); }

char **easel_rl_completion_matches(const char *text, rl_compentry_func_t *entry) {
    return LIBEDIT(rl_completion_matches)(text, entry);
}
