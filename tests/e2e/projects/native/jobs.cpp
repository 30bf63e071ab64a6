// Fixture: a std::deque of structs filled at its front (issue 26); tests/e2e/test_gdb_cpp_findings.py.
#include <cstdio>
#include <deque>
#include <string>

struct Job {
    std::string name;
    int v;
};

int main() {
    std::deque<Job> jobs;
    jobs.push_front({"late", 2});
    jobs.push_front({"early", 1});
    jobs.pop_front();
    std::printf("%zu %s\n", jobs.size(), jobs.front().name.c_str());
    return 0;
}
