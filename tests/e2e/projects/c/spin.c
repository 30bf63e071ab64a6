/* Runs until a debugger changes keep_going (the pause / set_variable tests on gdb). */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    volatile int keep_going = 1;
    long rounds = 0;
    while (keep_going) {
        rounds++;
        usleep(10000);
    }
    printf("spun %d\n", rounds > 0);
    return 0;
}
