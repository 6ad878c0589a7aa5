/*
 * wire_bytes.h - the integers of the shim <-> broker wire (docs/design/protocol-v3.md): little-endian
 * u16/u32/u64 written into and read from a frame buffer. One definition for the datagram client
 * (hook_net.c) and the TCP messages (tcp_wire.c). Inline, no allocation: called from hooks.
 */
#ifndef WEFT_WIRE_BYTES_H
#define WEFT_WIRE_BYTES_H

#include <stdint.h>
#include <string.h>

/* x86-64 is little-endian, as the wire is: a copy is the encoding */
static inline void put16(unsigned char *p, uint16_t v) { memcpy(p, &v, 2); }
static inline void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }
static inline uint16_t get16(const unsigned char *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t get32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t get64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

#endif
