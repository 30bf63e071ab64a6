/* Blank lines for the breakpoint tests (test_breakpoint_moves.py): one inside f, one between f and main. */
#include <stdio.h>
static int f(int n) {
    int a = n + 1;

    int b = a * 2;
    return b;
}

int main(int argc, char **argv) {
    int r = f(3);
    if (argc > 5) {
        r = f(r);
    }
    printf("%d\n", r);
    return 0;
}
