// Fixture: parse() throws on line 6, caught from line 13, uncaught from line 18; tests/e2e/test_native_crash.py.
#include <stdexcept>
#include <cstdio>

static int parse(int v) {
    if (v < 0) throw std::runtime_error("negative");
    return v;
}

int main() {
    int r = 0;
    try {
        r = parse(-1);
    } catch (const std::exception &e) {
        r = -1;
    }
    std::printf("%d\n", r);
    return parse(-2);
}
