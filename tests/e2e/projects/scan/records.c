/* Searches over a sequence in one expression (issue 26): 300 records of which one has the
 * code point 0x11a7, and a linked list of five nodes (`cycle`: the last points back to the
 * second; HEAD: a macro for its first node). `serve`: after filling them, waits for signals forever (a live daemon to attach to). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct rec {
    int id;
    int cp;
    const char *name;
};

struct node {
    int v;
    const char *name;
    struct node *next;
};

struct roster {
    int count;
    struct rec *recs;
};

static struct rec recs[300];
static int n_recs;
static struct node nodes[5];
static struct node *head;
static struct roster roster;
static const char *names[5] = {"alpha", "beta", "gamma", "delta", "eps"};
/* A walk's first through a macro (gdb knows no macros without -g3; the server expands it). */
#define HEAD (&nodes[0])

static void ready(void) {
    puts("ready");
    fflush(stdout);
}

int main(int argc, char **argv) {
    for (int i = 0; i < 300; i++) {
        recs[i].id = i;
        recs[i].cp = i == 217 ? 0x11a7 : i % 97;
        recs[i].name = i == 217 ? "eve" : "rec";
    }
    n_recs = 300;
    roster.count = n_recs;
    roster.recs = recs;
    for (int i = 0; i < 5; i++) {
        nodes[i].v = 10 * (i + 1);
        nodes[i].name = names[i];
        nodes[i].next = i < 4 ? &nodes[i + 1] : NULL;
    }
    head = &nodes[0];
    if (argc > 1 && strcmp(argv[1], "cycle") == 0)
        nodes[4].next = &nodes[1];
    ready();
    if (argc > 1 && strcmp(argv[1], "serve") == 0)
        for (;;)
            pause();
    return 0;
}

/* Records whose id is a fixed-size array and whose text is longer than a row's share of many
 * (issue 26, seventh set): a search with one match shows it whole. Not used by main; kept. */
struct doc {
    char id[16];
    const char *text;
};
struct doc docs[3] = {{"D-1", "short"}, {"D-2", "The cut-over moves the nightly exports to the new pipeline. The cut-over moves the nightly exports to the new pipeline. The cut-over moves the nightly exports to the new pipeline. The cut-over moves the nightly exports to the new pipeline. The cut-over moves the nightly exports to the new pipeline. The cut-over moves the nightly exports to the new pipeline. The cut-over moves the nightly exports to the new pipeline. The cut-over moves the nightly exports to the new pipeline. The cut-over moves the nightly exports to the new pipeline. The cut-over moves the nightly exports to the new pipeline. END"}, {"D-3", "x"}};
