/* Fixture: overflows buf (stack smashing, SIGABRT), asserted by tests/e2e/test_native_crash.py. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static void copy_name(const char *src) {
    char buf[16];
    strcpy(buf, src);
    printf("copied %zu\n", strlen(buf));
}

int main(int argc, char **argv) {
    char big[200];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    copy_name(big);
    return 0;
}
