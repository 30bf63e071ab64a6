#include <cstdio>
#include <cstring>
namespace ns {
class Cart {
public:
    int add(int x) {
        n += x;
        return n;
    }
    int add(const char *s) {
        n += (int)std::strlen(s);
        return n;
    }
    int n = 0;
};
template <typename T> T twice(T v) {
    return v + v;
}
}
int main() {
    ns::Cart c;
    c.add(3);
    c.add("four");
    double d = ns::twice(1.5);
    std::printf("n %d %f\n", c.n, d);
    return 0;
}
