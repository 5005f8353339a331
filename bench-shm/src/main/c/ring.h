/*
 * ring.h: the shared-memory message layout, mirrored from io.caskbench.shm.msg.RingLayout, whose
 * javadoc is the one description of the layout and protocol. Change both together (RingLayoutTest
 * compares the constants).
 */
#ifndef CASKBENCH_RING_H
#define CASKBENCH_RING_H

#include <stdint.h>

#define MAGIC 0x474E49524B534143ULL
#define VERSION 1

#define HEADER_BYTES 4096
#define OFF_MAGIC 0
#define OFF_VERSION 8
#define OFF_SLOT_COUNT 12
#define OFF_SLOT_BYTES 16

#define RING_REQUESTS 0
#define RING_REPLIES 1
#define RING_HEAD 0
#define RING_TAIL 128
#define RING_SLOTS 256

#define MSG_SEQ 0
#define MSG_LENGTH 8
#define MSG_FLAGS 12
#define MSG_PAYLOAD 16
#define MESSAGE_HEADER_BYTES 16

#define FLAG_STOP 1
#define FLAG_SYNC 2
#define FLAG_ACK 4

#define PATTERN_MULTIPLIER 0x9E3779B97F4A7C15ULL

#define UDP_ACK_EVERY 8
#define UDP_WINDOW 32

static inline uint32_t round_up(uint32_t value, uint32_t unit) {
    return (value + unit - 1) / unit * unit;
}

static inline uint32_t ring_bytes(uint32_t slot_count, uint32_t slot_bytes) {
    return round_up(RING_SLOTS + slot_count * slot_bytes, 4096);
}

static inline uint32_t ring_offset(int ring, uint32_t slot_count, uint32_t slot_bytes) {
    return HEADER_BYTES + (uint32_t) ring * ring_bytes(slot_count, slot_bytes);
}

static inline uint32_t file_bytes(uint32_t slot_count, uint32_t slot_bytes) {
    return ring_offset(2, slot_count, slot_bytes);
}

#endif
