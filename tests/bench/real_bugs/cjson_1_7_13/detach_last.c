/* Reproduces cJSON's "list head's prev is wrong after detaching the last item" (fixed by commit
 * a65abf2, released in 1.7.14): in an array built with cJSON_AddItemToArray, delete the last
 * element, append a new one, and the new element is missing from the printed array. */
#include <stdio.h>
#include <string.h>
#include "cJSON.h"

int main(void)
{
    cJSON *arr = cJSON_CreateArray();
    char *out;
    int ok, i;
    for (i = 1; i <= 3; i++)
    {
        cJSON_AddItemToArray(arr, cJSON_CreateNumber(i));
    }
    cJSON_DeleteItemFromArray(arr, 2);
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(4));
    out = cJSON_PrintUnformatted(arr);
    ok = strcmp(out, "[1,2,4]") == 0;
    printf("%s (expected [1,2,4])\n", out);
    return ok ? 0 : 1;
}
