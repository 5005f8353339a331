/*
 * common.h: what both caskbench C programs need. Each is started by the Java runner and must never
 * outlive it, even if the runner is killed: a SIGKILL on parent death plus an alarm as a hard cap.
 */
#ifndef CASKBENCH_COMMON_H
#define CASKBENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* Dies with the parent and, whatever happens, after max_seconds. */
static inline void die_with_parent(unsigned max_seconds) {
#ifdef __linux__
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) { /* the parent died before prctl took effect */
        _exit(3);
    }
#endif
    alarm(max_seconds);
}

static inline int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Keeps gcc from dropping or merging stores before this point: they count as read. */
#define COMPILER_BARRIER() __asm__ __volatile__("" ::: "memory")

static inline void fail(const char *what) {
    perror(what);
    exit(2);
}

#endif
