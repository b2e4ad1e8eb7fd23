#ifndef EASEL_EDIT_H
#define EASEL_EDIT_H
// libedit's readline interface: line editing, history and completion for `easel edit`.
// Opened on first use (easel_on_demand.h): call these, not libedit's own.
#include <stdio.h>
#include <editline/readline.h>

#ifdef __cplusplus
extern "C" {
#endif

// Whether libedit can be used: opens it on the first call (1), or 0, and then
// `easel_edit_error` says why.
int easel_edit_open(void);
// Why libedit could not be opened (the dynamic loader's message), or NULL.
const char *easel_edit_error(void);

// libedit is configured through global variables; Swift reaches them only through these.
void easel_edit_set_up(rl_completion_func_t *complete);
const char *easel_edit_line_buffer(void);

char *easel_readline(const char *prompt);
int easel_add_history(const char *line);
char **easel_rl_completion_matches(const char *text, rl_compentry_func_t *entry);

#ifdef __cplusplus
}
#endif

#endif
