/* A char buffer longer than gdb's `print elements` (200) and our row bound. */
#include <stdio.h>
#include <string.h>

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
    return 0;
}
