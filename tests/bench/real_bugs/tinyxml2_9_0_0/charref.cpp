// Reproduces CVE-2024-50615 in tinyxml2 (fixed by commit 494735d, released in 10.1.0): a hex
// character reference longer than 8 digits overflows the 32-bit place value, so
// '&#x100000041;' (far outside Unicode) is decoded as 'A' instead of being kept as text.
#include <cstdio>
#include <cstring>
#include "tinyxml2.h"

int main()
{
    tinyxml2::XMLDocument doc;
    doc.Parse("<a v='&#x100000041;'/>");
    const char* v = doc.FirstChildElement("a")->Attribute("v");
    std::printf("v = '%s' (expected '&#x100000041;')\n", v);
    return std::strcmp(v, "&#x100000041;") == 0 ? 0 : 1;
}
