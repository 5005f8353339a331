/*
 * region_bench.c: the C anchor for RandomWriteBench, ClearBench and PrngBench (io.caskbench.shm).
 *
 * The same work as the Java side: xorshift32 positions masked to the region, one byte stored per
 * position; memset of the whole region; the PRNG alone. Plus the seed's own loop (libc rand() and a
 * one-byte memcpy) for comparison with its table. Timing follows JMH's shape: time-boxed iterations
 * of fixed batches, each iteration printed as "<warmup|measure> <ops> <ns>" for CAnchors to collect.
 *
 * usage: region_bench <disk|shm|shmget|anon> <bytes> <prng|write|write-libc-rand|clear|selftest>
 *                     <file or -> <warmups> <iterations> <iteration-ms>
 * disk and shm map <file> (created here, exclusively, deleted at the end); the caller picks its
 * directory. selftest prints "checksum <hex>" after a fixed write pattern, which RegionAnchorTest
 * recomputes in Java to prove both sides write the same positions.
 */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>

#define WRITES 4096           /* writes per batch, as RandomWriteBench.WRITES */
#define XORSHIFT_SEED 0x2545F491u
#define SELFTEST_WRITES (1 << 20)

static inline uint32_t xorshift(uint32_t x) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

volatile uint64_t sink; /* keeps the PRNG-only loop alive */

struct region {
    unsigned char *p;
    size_t size;
    int kind; /* 0 mapped file, 1 shmget, 2 anonymous */
    const char *file;
};

static void open_region(struct region *r, const char *backing, size_t size, const char *file) {
    r->size = size;
    r->file = file;
    if (strcmp(backing, "disk") == 0 || strcmp(backing, "shm") == 0) {
        int fd = open(file, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0) fail("open");
        if (ftruncate(fd, (off_t) size) != 0) fail("ftruncate");
        r->p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (r->p == MAP_FAILED) fail("mmap");
        close(fd);
        r->kind = 0;
    } else if (strcmp(backing, "shmget") == 0) {
        int id = shmget(IPC_PRIVATE, size, IPC_CREAT | IPC_EXCL | 0600);
        if (id < 0) fail("shmget");
        r->p = shmat(id, NULL, 0);
        if (r->p == (void *) -1) fail("shmat");
        /* removed now, freed at the last detach: nothing leaks if we are killed */
        if (shmctl(id, IPC_RMID, NULL) != 0) fail("shmctl");
        r->kind = 1;
    } else if (strcmp(backing, "anon") == 0) {
        r->p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (r->p == MAP_FAILED) fail("mmap");
        r->kind = 2;
    } else {
        fprintf(stderr, "unknown backing %s\n", backing);
        exit(2);
    }
    for (size_t i = 0; i < size; i += 4096) { /* fault every page in now, as Backing.open does */
        r->p[i] = 0;
    }
}

static void close_region(struct region *r) {
    if (r->kind == 0) {
        if (msync(r->p, r->size, MS_SYNC) != 0) fail("msync");
        if (munmap(r->p, r->size) != 0) fail("munmap");
        if (unlink(r->file) != 0) fail("unlink");
    } else if (r->kind == 1) {
        if (shmdt(r->p) != 0) fail("shmdt");
    } else {
        if (munmap(r->p, r->size) != 0) fail("munmap");
    }
}

static uint32_t state = XORSHIFT_SEED;

/* One batch of the operation; returns how many operations it did. */
static long batch(const char *op, struct region *r) {
    unsigned char *p = r->p;
    uint32_t mask = (uint32_t) (r->size - 1);
    if (strcmp(op, "write") == 0) {
        uint32_t x = state;
        for (int i = 0; i < WRITES; i++) {
            x = xorshift(x);
            p[x & mask] = 0x55;
        }
        state = x;
        COMPILER_BARRIER();
        return WRITES;
    }
    if (strcmp(op, "write-libc-rand") == 0) { /* the seed's loop, verbatim in spirit */
        char to_write = 0x55;
        for (int i = 0; i < WRITES; i++) {
            int pos = rand() % (int) r->size;
            memcpy(p + pos, &to_write, sizeof(char));
        }
        COMPILER_BARRIER();
        return WRITES;
    }
    if (strcmp(op, "prng") == 0) {
        uint32_t x = state;
        uint32_t sum = 0;
        for (int i = 0; i < WRITES; i++) {
            x = xorshift(x);
            sum += x & mask;
        }
        state = x;
        sink += sum;
        return WRITES;
    }
    if (strcmp(op, "clear") == 0) {
        /* enough clears per batch that reading the clock stays below 1% */
        long n = r->size >= (1u << 20) ? 1 : (long) ((1u << 20) / r->size);
        for (long i = 0; i < n; i++) {
            memset(p, 0, r->size);
            COMPILER_BARRIER();
        }
        return n;
    }
    fprintf(stderr, "unknown op %s\n", op);
    exit(2);
}

static void selftest(struct region *r) {
    uint32_t mask = (uint32_t) (r->size - 1);
    uint32_t x = XORSHIFT_SEED;
    for (uint32_t i = 0; i < SELFTEST_WRITES; i++) {
        x = xorshift(x);
        r->p[x & mask] = (unsigned char) (i * 31u + 7u);
    }
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a 64 */
    for (size_t i = 0; i < r->size; i++) {
        h ^= r->p[i];
        h *= 0x100000001b3ULL;
    }
    printf("checksum %016" PRIx64 "\n", h);
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: %s <disk|shm|shmget|anon> <bytes> <op> <file|-> <warmups> <iterations> <ms>\n",
                argv[0]);
        return 2;
    }
    size_t size = strtoull(argv[2], NULL, 10);
    const char *op = argv[3];
    int warmups = atoi(argv[5]);
    int iterations = atoi(argv[6]);
    int64_t iteration_ns = (int64_t) atol(argv[7]) * 1000000LL;
    if (size == 0 || (size & (size - 1)) != 0) {
        fprintf(stderr, "size must be a power of two\n");
        return 2;
    }
    die_with_parent((unsigned) ((warmups + iterations) * (iteration_ns / 1000000000LL + 1) * 4 + 120));

    struct region r;
    open_region(&r, argv[1], size, argv[4]);
    if (strcmp(op, "selftest") == 0) {
        selftest(&r);
    } else {
        for (int it = 0; it < warmups + iterations; it++) {
            long ops = 0;
            int64_t start = now_ns();
            int64_t end;
            do {
                ops += batch(op, &r);
                end = now_ns();
            } while (end - start < iteration_ns);
            printf("%s %ld %" PRId64 "\n", it < warmups ? "warmup" : "measure", ops, end - start);
            fflush(stdout);
        }
    }
    close_region(&r);
    return 0;
}
