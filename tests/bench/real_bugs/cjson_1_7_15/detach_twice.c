/* Reproduces cJSON's crash in cJSON_DetachItemViaPointer on an item whose prev is NULL and that
 * is not the parent's first child (fixed by commits f28a468 and a78d975, released in 1.7.19;
 * upstream test cjson_detach_item_via_pointer_should_return_null_if_item_prev_is_null): here a
 * caller detaches the same item twice. Expected: NULL the second time. */
#include <stdio.h>
#include "cJSON.h"

int main(void)
{
    cJSON *doc = cJSON_Parse("{\"a\":1,\"b\":2,\"c\":3}");
    cJSON *b = cJSON_GetObjectItem(doc, "b");
    cJSON *first = cJSON_DetachItemViaPointer(doc, b);
    cJSON *second = cJSON_DetachItemViaPointer(doc, b);
    printf("first %p, second %p (expected NULL)\n", (void *)first, (void *)second);
    return second == NULL ? 0 : 1;
}
