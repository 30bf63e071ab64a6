/* A daemon for reads of a running process: a static table filled at start, then blocked in
 * accept() on a port it prints ("listening on N"); each connection is answered with the
 * table's size, so a test can tell it still serves after a read. */
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

struct person {
    const char *name;
    int age;
};

static struct person people[4];
static int npeople;

int main(void) {
    people[0] = (struct person){"ann", 31};
    people[1] = (struct person){"bob", 42};
    npeople = 2;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 8) ||
        getsockname(s, (struct sockaddr *)&a, &len))
        return 1;
    printf("listening on %d\n", ntohs(a.sin_port));
    fflush(stdout);
    for (;;) {
        int c = accept(s, NULL, NULL);
        if (c < 0)
            continue;
        char buf[32];
        int n = snprintf(buf, sizeof buf, "%d\n", npeople);
        if (write(c, buf, n) < 0)
            perror("write");
        close(c);
    }
}
