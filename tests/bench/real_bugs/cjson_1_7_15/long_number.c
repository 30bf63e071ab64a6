/* Reproduces CVE-2023-26819 in cJSON (fixed by commit 16f21a5, "allocate memory for the temporary
 * buffer", released in 1.7.19): a valid JSON number longer than 63 characters is rejected,
 * because parse_number copies at most 63 characters into a fixed buffer for strtod and then
 * resumes parsing in the middle of the number. Expected: a one-element array. */
#include <stdio.h>
#include "cJSON.h"

int main(void)
{
    /* 0. followed by 69 digits: valid JSON, a value of 1e-69. */
    const char *text = "[0.000000000000000000000000000000000000000000000000000000000000000000001]";
    cJSON *doc = cJSON_Parse(text);
    if (doc == NULL)
    {
        printf("cJSON_Parse failed at offset %ld (expected a one-element array)\n",
               (long)(cJSON_GetErrorPtr() - text));
        return 1;
    }
    printf("parsed %d element(s), %g\n", cJSON_GetArraySize(doc), cJSON_GetArrayItem(doc, 0)->valuedouble);
    cJSON_Delete(doc);
    return 0;
}
