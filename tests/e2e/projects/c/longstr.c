/* A char buffer longer than gdb's `print elements` (200) and our row bound. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A member and a local of one name, strings of different lengths (260 and 230). */
struct request {
    int id;
    char body[400];
};

static size_t member(void)
{
    struct request req = {7, ""};
    char body[300];
    for (int i = 0; i < 260; i++)
        req.body[i] = 'a' + i % 26;
    req.body[260] = 0;
    for (int i = 0; i < 230; i++)
        body[i] = 'A' + i % 26;
    body[230] = 0;
    return strlen(req.body) + strlen(body);
}

/* A call that takes longer than a short backend timeout. */
int slow(int seconds)
{
    sleep(seconds);
    return seconds;
}

int main(void)
{
    char page[8192];
    char *p = page;
    p += sprintf(p, "<html><body><table>");
    for (int i = 0; i < 150; i++)
        p += sprintf(p, "<tr><td>row %04d</td><td>value</td></tr>", i);
    p += sprintf(p, "</table></body></html>");
    size_t n = strlen(page);
    printf("%zu\n", n);
    printf("%zu\n", member());
    return 0;
}
