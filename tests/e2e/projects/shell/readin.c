/* Sums the numbers on stdin; MODE from the environment. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int total = 0, x;
    const char *mode = getenv("MODE");
    while (scanf("%d", &x) == 1) {
        total += x;
    }
    fprintf(stderr, "read done\n");
    printf("total=%d mode=%s\n", total, mode ? mode : "none");
    return total > 0 ? 0 : -1;
}
