/*
 * tcp_wire.h - the TCP messages of the shim <-> broker protocol (docs/design/protocol-v3.md §2,
 * docs/tcp.md): tags, one reply decoder and one encoder per request. Internal to the shim;
 * the socket emulation is hook_tcp.c.
 *
 * The numbers are a public contract with the broker (Java dev.weft.broker.wire.Wire): WireConstantsTest
 * reads this header and compares each constant with the Java one of the same name.
 */
#ifndef WEFT_TCP_WIRE_H
#define WEFT_TCP_WIRE_H

#include <stdint.h>
#include <stddef.h>
#include <sys/uio.h>

/* node -> broker */
enum {
    REQ_TCP_BIND = 16,
    REQ_TCP_LISTEN = 17,
    REQ_TCP_CONNECT = 18,
    REQ_TCP_ACCEPT = 19,
    REQ_TCP_ADOPT = 20,
    REQ_TCP_WRITE = 21,
    REQ_TCP_READ = 22,
    REQ_TCP_SHUTDOWN = 23,
    REQ_TCP_ABORT = 24,
    REQ_TCP_WAIT = 25,
    REQ_TCP_UNWAIT = 26,
    REQ_TCP_STATUS = 27,
    REQ_TCP_CLOSE = 29,   /* 28 is the receive lease's (issue 24) */
};

/* broker -> node */
enum {
    REP_ACK = 1,
    REP_EMPTY = 3,
    REP_ERROR = 4,
    REP_BOUND = 5,
    REP_CONNECTED = 6,
    REP_ACCEPTED = 7,
    REP_WROTE = 8,
    REP_DATA = 9,
    REP_EOF = 10,
    REP_READY = 11,
    REP_UNWAIT_ACK = 12,
    REP_STATUS = 13,
};

/* TcpWait event bits (poll numbering) */
enum { TCPW_IN = 0x1, TCPW_ERR = 0x8, TCPW_HUP = 0x10, TCPW_OUT = 0x4, TCPW_RDHUP = 0x2000 };

/* TcpWait flags (a trailing byte; protocol-v3 §2a). IDLE: windowed, with this wait held no thread of
 * the node runs, so the node's held waits bound it (without it a windowed broker acknowledges the
 * wait at once and sets it aside). FOREVER: plain, the whole node waits here with no deadline (the
 * deadlock verdict). PROBE: windowed, a zero timeout: the Ready at the request's own instant. */
enum { TCPW_WAIT_IDLE = 0x1, TCPW_WAIT_FOREVER = 0x2, TCPW_WAIT_PROBE = 0x4 };

/* Status.state */
enum { TCPS_CLOSED = 0, TCPS_BOUND = 1, TCPS_LISTENING = 2, TCPS_CONNECTING = 3, TCPS_ESTABLISHED = 4,
       TCPS_PEER_CLOSED = 5, TCPS_RESET = 6 };

/* Largest payload one TcpWrite carries; the broker takes what the peer's buffer holds (Wrote{n}). */
#define TCPW_WRITE_CHUNK (256u * 1024u)
/* Largest read one TcpRead asks for (a Data frame stays far below the 16 MiB frame limit). */
#define TCPW_READ_CHUNK (1024u * 1024u)

typedef struct tcpw_addr { uint32_t ip; uint16_t port; } tcpw_addr;

/* One decoded reply. Which members mean something depends on tag:
 * Error: err; Bound: a; Connected: a = src, b = dst; Accepted: sid, a = peer, b = local;
 * Wrote: n; Data: n = payload length (copied into the caller's buffers); Ready: n = revents;
 * Status: state, so_error, a = local, b = peer, unread, room. vt always. */
typedef struct tcpw_reply {
    int tag;
    uint32_t err;
    tcpw_addr a, b;
    uint64_t sid;
    uint32_t n;
    uint32_t state, so_error, unread, room;
    uint64_t vt;
} tcpw_reply;

/* Each request function writes one frame and (except abort and wait) reads its reply: 0 on a
 * well-formed exchange (the reply may still be an Error), -1 with errno when the stream failed or
 * the reply was malformed (the connection is then out of step). Raw system calls only. */
int tcpw_bind(int fd, tcpw_addr a, tcpw_reply *r);
int tcpw_listen(int fd, uint32_t backlog, tcpw_reply *r);
int tcpw_connect(int fd, tcpw_addr dst, uint64_t vt, int nonblocking, tcpw_reply *r);
int tcpw_accept(int fd, uint64_t vt, int blocking, tcpw_reply *r);
int tcpw_adopt(int fd, uint64_t sid, tcpw_reply *r);
/* payload from the caller's buffers: at most `len` bytes of iov[0..n) */
int tcpw_write(int fd, const struct iovec *iov, int n, size_t len, uint64_t vt, int blocking, tcpw_reply *r);
/* a Data reply's payload goes straight into iov[0..n) (which holds at least max bytes) */
int tcpw_read(int fd, uint32_t max, int peek, uint64_t vt, int blocking, const struct iovec *iov, int n,
              tcpw_reply *r);
int tcpw_shutdown(int fd, uint32_t how, tcpw_reply *r);
int tcpw_abort(int fd);                                  /* no reply */
int tcpw_wait_send(int fd, uint32_t events, uint64_t vt, uint64_t deadline, uint32_t flags); /* reply read later */
/* windowed: the last close of a socket, at the node's clock (Ack); the EOF that follows is only the end */
int tcpw_close(int fd, uint64_t vt, tcpw_reply *r);
int tcpw_unwait(int fd, tcpw_reply *ready);              /* reads the Ready (and the UnwaitAck) */
int tcpw_status(int fd, tcpw_reply *r);
/* Reads one reply frame (for a Ready that arrived on an armed socket). */
int tcpw_read_reply(int fd, const struct iovec *iov, int n, size_t cap, tcpw_reply *r);

#endif
