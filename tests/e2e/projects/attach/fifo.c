/* A daemon for the trigger tests: started outside the debugger, blocked reading a FIFO; each
 * number written into it is a job, handled in `handle` and counted in <fifo>.done, so a test
 * can tell it still serves after a detach. */
#include <stdio.h>
#include <stdlib.h>

static long handled;

static long handle(long n) {
    long cost = n * 3;
    handled++;
    return cost;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "jobs";
    char done[4096], line[256];
    snprintf(done, sizeof done, "%s.done", path);
    for (;;) {
        FILE *in = fopen(path, "r");
        if (!in)
            return 1;
        while (fgets(line, sizeof line, in)) {
            long cost = handle(atol(line));
            FILE *out = fopen(done, "w");
            if (out) {
                fprintf(out, "%ld %ld\n", handled, cost);
                fclose(out);
            }
        }
        fclose(in);
    }
}
