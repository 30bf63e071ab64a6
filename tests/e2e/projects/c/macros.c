/* Macros an agent writes in an expression at a stop (issue 26): built -g (no macro info), so
 * the debugger knows none of them. */
#include <stdio.h>
#include "tok.h"

static void init(struct tokener *t)
{
    t->depth = 1;
    t->stack[0].seen = 2;
}

#define level_state tok->stack[tok->depth].state /* as json-c's json_tokener.c */
#  define top_level  (tok->stack[TOP_DEPTH])
#define LEVEL_AT(i) (tok->stack[(i)])
#undef FLAT_TOKENER /* this build: the stacked tokenizer */
#ifdef FLAT_TOKENER
#define level_seen tok->depth
#else
#define level_seen tok->stack[0].seen
#endif
#ifdef TRACE_TOKENER /* a -D option would decide */
#define level_mark (tok->depth + 100)
#define level_trace tok->trace
#else
#define level_mark tok->depth
#define level_trace tok->depth
#endif
#define LEVEL_ON 3
int macro_bumps = 0;
#define BUMP (macro_bumps += 1) /* changes the program where it is evaluated */
#ifdef FAST_BUMPS /* a -D option would decide */
#define BUMP_MANY (macro_bumps += 10)
#else
#define BUMP_MANY (macro_bumps += 2)
#endif

static int advance(struct tokener *tok)
{
    int total = 0;
    level_state = 5;
    total = LEVEL_AT(0).seen + level_state;
    return total; /* stop here */
}

int main(void)
{
    struct tokener t = {0};
    init(&t);
    printf("%d\n", advance(&t));
    return 0;
}
