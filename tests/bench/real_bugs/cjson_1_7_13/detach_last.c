/* Reproduces cJSON's "list head's prev is wrong after detaching the last item" (fixed by commit
 * a65abf2, released in 1.7.14): delete the last element of an array, append a new one, and the
 * new element is missing from the printed array. */
#include <stdio.h>
#include <string.h>
#include "cJSON.h"

int main(void)
{
    cJSON *arr = cJSON_Parse("[1,2,3]");
    char *out;
    int ok;
    cJSON_DeleteItemFromArray(arr, 2);
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(4));
    out = cJSON_PrintUnformatted(arr);
    ok = strcmp(out, "[1,2,4]") == 0;
    printf("%s (expected [1,2,4])\n", out);
    return ok ? 0 : 1;
}
