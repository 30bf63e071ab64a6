// Fixture: C++ names (namespace, class, template), std::string, std::deque; tests/e2e/test_native_crash.py.
#include <deque>
#include <string>
#include <cstdio>

namespace ns {
struct EmptyType {};
template <typename T> struct AstBase { T payload; int kind = 3; };

class Scanner {
public:
    explicit Scanner(std::string src) : m_source(std::move(src)) {}
    char peek() const {
        AstBase<EmptyType> node;
        int at = m_pos + node.kind;
        return m_source[at];
    }
    std::string m_source;
    std::deque<int> m_tokens;
    int m_pos = 0;
    AstBase<EmptyType> m_root;
};
}

int main() {
    ns::Scanner s("abcdef");
    char c = s.peek();
    std::printf("%c\n", c);
    return 0;
}
