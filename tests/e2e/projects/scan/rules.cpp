// A C++ daemon whose state an agent reads while it waits in pause() (issue 26): the pause lands
// in libc, whose frame gdb reads in C, where `rules[1].first` (a std::vector's operator[]) and
// C++ casts do not parse.
#include <cstdio>
#include <memory>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

struct Rule {
    std::string expr;
    int level;
};

static std::vector<std::pair<std::string, std::unique_ptr<Rule>>> rules;

int main() {
    rules.emplace_back("disk-full", std::make_unique<Rule>(Rule{"used > 90", 1}));
    rules.emplace_back("error-burst", std::make_unique<Rule>(Rule{"errors > 150 || ratio >= 5 && tier == 1", 2}));
    std::puts("ready");
    std::fflush(stdout);
    for (;;)
        pause();
}
