/* Fixture: divides by zero on line 5 (SIGFPE); tests/e2e/test_native_crash.py. */
#include <stdio.h>

static int ratio(int a, int b) {
    return a / b;
}

int main(void) {
    int zero = 0;
    printf("ratio %d\n", ratio(10, zero));
    return 0;
}
