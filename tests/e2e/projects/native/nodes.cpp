// A reference parameter, a std::string condition and std containers (issue 26).
#include <cstdio>
#include <deque>
#include <queue>
#include <stack>
#include <string>
#include <vector>

struct Node {
    std::string name;
    int v;
};

int weigh(const Node &n) {
    int w = n.v * 10;
    return w;
}

int main() {
    std::vector<Node> nodes = {{"alpha", 1}, {"beta", 2}, {"gamma", 3}};
    std::deque<int> queue;
    queue.push_back(7);
    int total = 0;
    for (const Node &n : nodes) {
        total += weigh(n);
    }
    std::queue<int> waiting;
    waiting.push(1);
    waiting.push(2);
    std::stack<int> undo;
    undo.push(9);
    std::printf("total %d size %zu\n", total, queue.size());
    return 0;
}
