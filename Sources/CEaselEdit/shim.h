#ifndef EASEL_EDIT_SHIM_H
#define EASEL_EDIT_SHIM_H
// libedit's readline interface: line editing, history and completion for `easel edit`.
#include <stdio.h>
#include <editline/readline.h>

// libedit is configured through global variables; Swift reaches them only through these.
static inline void easel_edit_set_up(rl_completion_func_t *complete) {
    rl_readline_name = "easel";
    rl_attempted_completion_function = complete;
}
static inline const char *easel_edit_line_buffer(void) { return rl_line_buffer; }
#endif
