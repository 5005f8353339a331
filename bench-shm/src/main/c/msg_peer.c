/*
 * msg_peer.c: the C peer of the messaging benchmark, io.caskbench.shm.msg.PeerMain's twin. Same
 * arguments, same READY / DONE lines, same echo and sink loops, same layout (ring.h, which mirrors
 * io.caskbench.shm.msg.RingLayout, where the layout and protocol are described once).
 *
 * usage: msg_peer shm <file> <echo|sink> <full|ends> <max-seconds> <stall-ms>
 *        msg_peer udp|udp-spin <echo|sink> <full|ends> <max-seconds> <stall-ms>
 * udp blocks in recv; udp-spin polls a non-blocking socket with the spin-yield-nap wait of the rings.
 * It dies with its parent (PR_SET_PDEATHSIG) and after max-seconds whatever happens.
 */
#include "common.h"
#include "ring.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>

#define SPINS 64
#define YIELDS 10000
#define NAP_NS 50000L
#define MAX_DATAGRAM 65536

static inline uint64_t ld64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint32_t ld32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline void st64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }
static inline void st32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Spin, then yield, then nap; give up after the stall limit (Idle.java). */
struct idle {
    int64_t stall_ns;
    const char *what;
    long rounds;
    int64_t since;
};

static void idle_wait(struct idle *w) {
    long r = ++w->rounds;
    if (r < SPINS) {
        cpu_relax();
        return;
    }
    if (r == SPINS) w->since = now_ns();
    if (r < SPINS + YIELDS) {
        sched_yield();
    } else {
        struct timespec nap = {0, NAP_NS};
        nanosleep(&nap, NULL);
    }
    if ((r & 63) == 0 && now_ns() - w->since > w->stall_ns) {
        fprintf(stderr, "msg_peer: no progress for %" PRId64 " ms waiting for %s\n", w->stall_ns / 1000000,
                w->what);
        exit(1);
    }
}

/* Counts received messages (Report.Tally). */
struct tally {
    uint64_t expected, received, lost, errors;
};

static void tally_count(struct tally *t, uint64_t seq, int intact) {
    t->received++;
    if (seq > t->expected) t->lost += seq - t->expected;
    else if (seq < t->expected) t->errors++;
    if (seq + 1 > t->expected) t->expected = seq + 1;
    if (!intact) t->errors++;
}

static void report(const struct tally *t) {
    printf("DONE received=%" PRIu64 " lost=%" PRIu64 " errors=%" PRIu64 "\n", t->received, t->lost, t->errors);
    fflush(stdout);
}

/* Payload.check: every word when full, else the first and the last. */
static int payload_ok(const unsigned char *p, uint64_t seq, uint32_t length, int full) {
    uint64_t base = seq * PATTERN_MULTIPLIER;
    if (!full) {
        uint32_t last = length - 8;
        return ld64(p) == base && ld64(p + last) == base + last / 8;
    }
    for (uint32_t i = 0; i < length; i += 8) {
        if (ld64(p + i) != base + i / 8) return 0;
    }
    return 1;
}

/* One end of one ring (ShmRing.java). */
struct ring {
    unsigned char *base;
    uint64_t *head, *tail;
    uint32_t slot_count, slot_bytes;
    uint64_t mine, theirs;
    struct idle idle;
};

static void ring_init(struct ring *r, unsigned char *file, int which, uint32_t slot_count, uint32_t slot_bytes,
                      int64_t stall_ns, const char *what) {
    r->base = file + ring_offset(which, slot_count, slot_bytes);
    r->head = (uint64_t *) (r->base + RING_HEAD);
    r->tail = (uint64_t *) (r->base + RING_TAIL);
    r->slot_count = slot_count;
    r->slot_bytes = slot_bytes;
    r->mine = r->theirs = 0;
    r->idle = (struct idle) {stall_ns, what, 0, 0};
}

static inline unsigned char *slot(struct ring *r, uint64_t n) {
    return r->base + RING_SLOTS + (n & (r->slot_count - 1)) * r->slot_bytes;
}

static unsigned char *ring_await(struct ring *r) { /* consumer */
    if (r->theirs <= r->mine) {
        r->idle.rounds = 0;
        while ((r->theirs = __atomic_load_n(r->head, __ATOMIC_ACQUIRE)) <= r->mine) idle_wait(&r->idle);
    }
    return slot(r, r->mine);
}

static void ring_release(struct ring *r) { __atomic_store_n(r->tail, ++r->mine, __ATOMIC_RELEASE); }

static unsigned char *ring_claim(struct ring *r) { /* producer */
    if (r->mine - r->theirs >= r->slot_count) {
        r->idle.rounds = 0;
        while (r->mine - (r->theirs = __atomic_load_n(r->tail, __ATOMIC_ACQUIRE)) >= r->slot_count) {
            idle_wait(&r->idle);
        }
    }
    return slot(r, r->mine);
}

static void ring_publish(struct ring *r) { __atomic_store_n(r->head, ++r->mine, __ATOMIC_RELEASE); }

static int serve_shm(const char *path, int echo, int full, int64_t stall_ns) {
    int fd = open(path, O_RDWR);
    if (fd < 0) fail("open");
    struct stat st;
    if (fstat(fd, &st) != 0) fail("fstat");
    unsigned char *file = mmap(NULL, (size_t) st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (file == MAP_FAILED) fail("mmap");
    close(fd);
    uint32_t slot_count = ld32(file + OFF_SLOT_COUNT);
    uint32_t slot_bytes = ld32(file + OFF_SLOT_BYTES);
    if (ld64(file + OFF_MAGIC) != MAGIC || ld32(file + OFF_VERSION) != VERSION
        || (off_t) file_bytes(slot_count, slot_bytes) != st.st_size) {
        fprintf(stderr, "msg_peer: %s is not a version %d caskbench ring file\n", path, VERSION);
        return 1;
    }
    uint32_t max_payload = slot_bytes - MESSAGE_HEADER_BYTES;
    struct ring requests, replies;
    ring_init(&requests, file, RING_REQUESTS, slot_count, slot_bytes, stall_ns, "a request");
    ring_init(&replies, file, RING_REPLIES, slot_count, slot_bytes, stall_ns, "room for a reply");
    unsigned char *local = malloc(max_payload);
    if (local == NULL) fail("malloc");
    struct tally t = {0, 0, 0, 0};
    printf("READY\n");
    fflush(stdout);
    for (;;) {
        unsigned char *s = ring_await(&requests);
        uint64_t seq = ld64(s + MSG_SEQ);
        uint32_t length = ld32(s + MSG_LENGTH);
        if (ld32(s + MSG_FLAGS) & FLAG_STOP) {
            ring_release(&requests);
            break;
        }
        int sane = length >= 8 && length <= max_payload && (length & 7) == 0;
        if (echo) {
            tally_count(&t, seq, sane && (!full || payload_ok(s + MSG_PAYLOAD, seq, length, 1)));
            unsigned char *r = ring_claim(&replies);
            st64(r + MSG_SEQ, seq);
            st32(r + MSG_LENGTH, length);
            st32(r + MSG_FLAGS, 0);
            memcpy(r + MSG_PAYLOAD, s + MSG_PAYLOAD, sane ? length : 0);
            ring_publish(&replies);
            ring_release(&requests);
        } else {
            if (sane) memcpy(local, s + MSG_PAYLOAD, length);
            ring_release(&requests);
            tally_count(&t, seq, sane && payload_ok(local, seq, length, full));
        }
    }
    report(&t);
    free(local);
    munmap(file, (size_t) st.st_size);
    return 0;
}

/* Sends one datagram; a polled socket (spin) with a full send buffer is retried with the idle wait. */
static void udp_send(int sock, const unsigned char *p, size_t n, int spin, int64_t stall_ns) {
    struct idle w = {stall_ns, "room to send", 0, 0};
    while (send(sock, p, n, spin ? MSG_DONTWAIT : 0) < 0) {
        if (!spin || (errno != EAGAIN && errno != EWOULDBLOCK)) fail("send");
        idle_wait(&w);
    }
}

/* Receives one datagram (from a new client when from is set); polled with the idle wait when spin. */
static ssize_t udp_recv(int sock, unsigned char *buf, struct sockaddr_in *from, socklen_t *from_len, int spin,
                        int64_t stall_ns) {
    struct idle w = {stall_ns, "a datagram", 0, 0};
    for (;;) {
        ssize_t n = from != NULL
                ? recvfrom(sock, buf, MAX_DATAGRAM, spin ? MSG_DONTWAIT : 0, (struct sockaddr *) from, from_len)
                : recv(sock, buf, MAX_DATAGRAM, spin ? MSG_DONTWAIT : 0);
        if (n >= 0) return n;
        if (errno != EAGAIN && errno != EWOULDBLOCK) fail("recv");
        if (!spin) { /* SO_RCVTIMEO expired: the client is gone */
            fprintf(stderr, "msg_peer: no datagram for %" PRId64 " ms\n", stall_ns / 1000000);
            exit(1);
        }
        idle_wait(&w);
    }
}

static void send_ack(int sock, uint64_t highest, uint32_t flags, int spin, int64_t stall_ns) {
    unsigned char ack[MESSAGE_HEADER_BYTES];
    st64(ack + MSG_SEQ, highest);
    st32(ack + MSG_LENGTH, 0);
    st32(ack + MSG_FLAGS, flags);
    udp_send(sock, ack, sizeof ack, spin, stall_ns);
}

static int serve_udp(int echo, int full, int spin, int64_t stall_ns) {
    int sock = socket(AF_INET, SOCK_DGRAM, 0);
    if (sock < 0) fail("socket");
    int size = 1 << 20;
    setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    struct timeval tv = {(time_t) (stall_ns / 1000000000LL), (suseconds_t) (stall_ns % 1000000000LL / 1000)};
    setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (bind(sock, (struct sockaddr *) &addr, sizeof addr) != 0) fail("bind");
    socklen_t len = sizeof addr;
    if (getsockname(sock, (struct sockaddr *) &addr, &len) != 0) fail("getsockname");
    printf("READY %d\n", ntohs(addr.sin_port));
    fflush(stdout);

    unsigned char *buf = malloc(MAX_DATAGRAM);
    if (buf == NULL) fail("malloc");
    struct sockaddr_in client;
    socklen_t client_len = sizeof client;
    ssize_t n = udp_recv(sock, buf, &client, &client_len, spin, stall_ns);
    if (connect(sock, (struct sockaddr *) &client, client_len) != 0) fail("connect");
    struct tally t = {0, 0, 0, 0};
    for (;;) {
        if (n < MESSAGE_HEADER_BYTES) {
            t.errors++;
        } else {
            uint64_t seq = ld64(buf + MSG_SEQ);
            uint32_t length = ld32(buf + MSG_LENGTH);
            uint32_t flags = ld32(buf + MSG_FLAGS);
            if (flags & FLAG_STOP) break;
            if (flags & FLAG_SYNC) {
                send_ack(sock, t.expected - 1, FLAG_ACK | FLAG_SYNC, spin, stall_ns);
            } else {
                int sane = length >= 8 && (length & 7) == 0 && n == (ssize_t) (MESSAGE_HEADER_BYTES + length);
                tally_count(&t, seq, sane && payload_ok(buf + MSG_PAYLOAD, seq, length, full));
                if (echo) {
                    udp_send(sock, buf, (size_t) n, spin, stall_ns);
                } else if (t.received % UDP_ACK_EVERY == 0) {
                    send_ack(sock, t.expected - 1, FLAG_ACK, spin, stall_ns);
                }
            }
        }
        n = udp_recv(sock, buf, NULL, NULL, spin, stall_ns);
    }
    report(&t);
    free(buf);
    close(sock);
    return 0;
}

int main(int argc, char **argv) {
    int shm = argc == 7 && strcmp(argv[1], "shm") == 0;
    int spin = argc == 6 && strcmp(argv[1], "udp-spin") == 0;
    int udp = argc == 6 && (strcmp(argv[1], "udp") == 0 || spin);
    int i = shm ? 3 : 2;
    if ((!shm && !udp) || (strcmp(argv[i], "echo") != 0 && strcmp(argv[i], "sink") != 0)
        || (strcmp(argv[i + 1], "full") != 0 && strcmp(argv[i + 1], "ends") != 0)) {
        fprintf(stderr, "usage: msg_peer shm <file> <echo|sink> <full|ends> <max-seconds> <stall-ms>\n"
                        "       msg_peer udp|udp-spin <echo|sink> <full|ends> <max-seconds> <stall-ms>\n");
        return 2;
    }
    int echo = strcmp(argv[i], "echo") == 0;
    int full = strcmp(argv[i + 1], "full") == 0;
    die_with_parent((unsigned) atoi(argv[i + 2]));
    int64_t stall_ns = (int64_t) atol(argv[i + 3]) * 1000000LL;
    return shm ? serve_shm(argv[2], echo, full, stall_ns) : serve_udp(echo, full, spin, stall_ns);
}
