/* Fixture: recurses without bound (SIGSEGV, ~100k frames); tests/e2e/test_native_crash.py. */
#include <stdio.h>

static int depth(int n) {
    char pad[64];
    pad[n % 64] = (char)n;
    return depth(n + 1) + pad[0];
}

int main(void) {
    printf("%d\n", depth(0));
    return 0;
}
