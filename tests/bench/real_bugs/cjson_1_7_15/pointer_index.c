/* Reproduces CVE-2025-57052 in cJSON_Utils (fixed by commit 74e1ff4, released in 1.7.19): an
 * array index with a non-digit after the first digit ("1:") is accepted and points at another
 * element instead of failing. */
#include <stdio.h>
#include "cJSON.h"
#include "cJSON_Utils.h"

int main(void)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *items = cJSON_AddArrayToObject(doc, "items");
    cJSON *found;
    char name[16];
    int i;
    for (i = 0; i < 25; i++)
    {
        snprintf(name, sizeof(name), "item%d", i);
        cJSON_AddItemToArray(items, cJSON_CreateString(name));
    }
    found = cJSONUtils_GetPointer(doc, "/items/1:");
    printf("/items/1: -> %s (expected no match)\n", found ? found->valuestring : "(null)");
    return found == NULL ? 0 : 1;
}
