/* Fixture: a failed assert on line 11 (SIGABRT); tests/e2e/test_native_crash.py. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

static unsigned short pair[2] = {2, 0};
struct point { int x; int y; };

static int check(const char *buf) {
    struct point pt = {1, 2};
    assert(strlen(buf) < 4 && pt.x == 1);
    return pt.y;
}

int main(void) {
    char buf[32] = "hello";
    printf("checking %s\n", buf);
    return check(buf) + pair[0];
}
