/* A daemon-like loop for attach tests: started outside the debugger, it ticks forever and
 * touches a file each round, so a test can tell it still runs after a detach. */
#include <stdio.h>
#include <unistd.h>

static long rounds;

static long tick(long n) {
    long doubled = n * 2;
    return doubled;
}

int main(int argc, char **argv) {
    const char *beat = argc > 1 ? argv[1] : "beat";
    for (;;) {
        rounds++;
        long t = tick(rounds);
        FILE *f = fopen(beat, "w");
        if (f) {
            fprintf(f, "%ld %ld\n", rounds, t);
            fclose(f);
        }
        usleep(50000);
    }
}
