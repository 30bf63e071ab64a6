/* A tokenizer's state stack, shaped like json-c's json_tokener (issue 26). */
#ifndef TOK_H
#define TOK_H

struct level {
    int state;
    int seen;
};

struct tokener {
    int depth;
    struct level stack[4];
};

#define TOP_DEPTH \
    tok->depth /* the current level */

#endif
