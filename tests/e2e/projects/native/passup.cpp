// Fixture: check() throws on line 6; relay() has no handler (line 11), main's catch (lines 19-20) gets it; tests/e2e/test_native_crash.py.
#include <stdexcept>
#include <cstdio>

static int check(int v) {
    if (v < 0) throw std::invalid_argument("below zero");
    return v;
}

static int relay(int v) {
    int w = check(v) * 2;
    return w;
}

int main() {
    int r = 0;
    try {
        r = relay(-3);
    } catch (const std::invalid_argument &e) {
        r = -3;
    }
    std::printf("%d\n", r);
    return 0;
}
