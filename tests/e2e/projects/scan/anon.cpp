// A linked list whose node type is in an anonymous namespace: gdb names it
// `(anonymous namespace)::Node *`, which it cannot read back in a cast.
#include <cstdio>
namespace {
struct Node {
    int v;
    Node *next;
};
Node c{3, nullptr}, b{2, &c}, a{1, &b};
Node *head = &a;
}  // namespace

int main() {
    std::printf("%d\n", head->v);  // stop here
    return 0;
}
