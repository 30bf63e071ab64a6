/* A pthread daemon for attach tests: two named worker threads each handle a "job" every 50 ms
 * while the main thread only waits, as a C server's request threads would. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static long done[2];

static long handle(long worker, long job) {
    long cost = job * 3 + worker;
    return cost;
}

static void *work(void *arg) {
    long worker = (long)arg;
    for (long job = 1;; job++) {
        done[worker] += handle(worker, job);
        usleep(50000);
    }
    return NULL;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++) {
        pthread_create(&t[i], NULL, work, (void *)i);
        char name[16];
        snprintf(name, sizeof name, "worker-%ld", i + 1);
        pthread_setname_np(t[i], name);
    }
    for (;;)
        pause();
}
