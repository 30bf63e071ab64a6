/* Fixture: dies of SIGSEGV on line 8 (asserted by tests/e2e/test_c_gdb.py). */
#include <stdio.h>

int main(void) {
    int *p = 0;
    printf("about to crash\n");
    fflush(stdout);
    *p = 42;
    return 0;
}
