/* Fixture program for the end-to-end tool tests (gdb). Line numbers are asserted by tests. */
#include <stdio.h>
#include <string.h>

struct point {
    int x;
    int y;
};

struct shape {
    const char *name;
    struct point corners[3];
    int sides;
};

static int square(int v) {
    int r = v * v;
    return r;
}

static int sum_squares(int n) {
    int acc = 0;
    for (int i = 1; i <= n; i++) {
        acc += square(i);
    }
    return acc;
}

int main(void) {
    int numbers[5] = {10, 20, 30, 40, 50};
    struct shape tri = {"triangle", {{0, 0}, {4, 0}, {0, 3}}, 3};
    const char *greeting = "hello";
    int counter = 7;
    int result = sum_squares(4);
    printf("result=%d counter=%d\n", result, counter);
    printf("%s %s %d %d\n", greeting, tri.name, tri.sides, numbers[2]);
    return 0;
}
