/* A gtest-style test binary (no gtest library needed): runs the tests whose "Suite.Case" name
 * matches --gtest_filter (exact name or "*"), printing gtest's banner lines. Lines asserted. */
#include <stdio.h>
#include <string.h>

static int add(int a, int b) {
    int sum = a + b;
    return sum;
}

static int test_math_add(void) {
    int got = add(2, 3);
    return got == 5;
}

static int test_math_sub(void) {
    return 5 - 3 == 2;
}

struct test { const char *name; int (*fn)(void); };

int main(int argc, char **argv) {
    struct test tests[] = {{"Math.Add", test_math_add}, {"Math.Sub", test_math_sub}};
    const char *filter = "*";
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--gtest_filter=", 15) == 0) filter = argv[i] + 15;
    int selected = 0, failed = 0;
    for (int i = 0; i < 2; i++)
        if (strcmp(filter, "*") == 0 || strcmp(filter, tests[i].name) == 0) selected++;
    printf("[==========] Running %d tests from 1 test suite.\n", selected);
    for (int i = 0; i < 2; i++) {
        if (strcmp(filter, "*") != 0 && strcmp(filter, tests[i].name) != 0) continue;
        int ok = tests[i].fn();
        printf("[ %s ] %s\n", ok ? "      OK" : " FAILED ", tests[i].name);
        failed += !ok;
    }
    fflush(stdout);
    return failed;
}
