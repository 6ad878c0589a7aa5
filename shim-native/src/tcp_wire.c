/*
 * tcp_wire.c - encoding and decoding of the TCP messages (docs/design/protocol-v3.md §2): frames are
 * u32 length (of what follows), u8 tag, fields; integers little-endian, addr = ip u32 + port u16,
 * bytes = u32 length + bytes. Requests are built on the stack and written with the program's
 * payload buffers in one gather (weft_net_write_all); a Data reply is read straight into the
 * program's buffers. Nothing allocates; every length read from the stream is checked against the
 * frame before it is used.
 */
#include "weft.h"
#include "tcp_wire.h"
#include "wire_bytes.h"

#include <errno.h>
#include <string.h>

static tcpw_addr get_addr(const unsigned char *p) { return (tcpw_addr){get32(p), get16(p + 4)}; }
static void put_addr(unsigned char *p, tcpw_addr a) { put32(p, a.ip); put16(p + 4, a.port); }

static int bad_frame(void) { errno = EIO; return -1; }

/* Discards n bytes of the current frame (a longer frame than this version knows: later fields). */
static int skip(int fd, uint64_t n) {
    unsigned char scratch[256];
    while (n > 0) {
        size_t k = n < sizeof scratch ? (size_t)n : sizeof scratch;
        if (weft_net_read_exact(fd, scratch, k)) return -1;
        n -= k;
    }
    return 0;
}

/* The fixed body length (after the tag) of each reply; -1 for Data (variable) or an unknown tag. */
static int fixed_body(int tag) {
    switch (tag) {
    case REP_ACK: case REP_EMPTY: case REP_EOF: case REP_UNWAIT_ACK: return 8;
    case REP_ERROR: case REP_WROTE: case REP_READY: return 12;
    case REP_BOUND: return 14;
    case REP_CONNECTED: return 20;
    case REP_ACCEPTED: return 28;
    case REP_STATUS: return 36;
    default: return -1;
    }
}

int tcpw_read_reply(int fd, const struct iovec *iov, int n, size_t cap, tcpw_reply *r) {
    unsigned char h[5];
    if (weft_net_read_exact(fd, h, sizeof h)) return -1;
    uint32_t len = get32(h);
    if (len == 0 || len > 16777216u) return bad_frame();
    uint64_t body = (uint64_t)len - 1;
    memset(r, 0, sizeof *r);
    r->tag = h[4];
    if (r->tag == REP_DATA) {
        unsigned char pl[4], vt[8];
        if (body < 12 || weft_net_read_exact(fd, pl, 4)) return body < 12 ? bad_frame() : -1;
        r->n = get32(pl);
        if ((uint64_t)r->n + 12 > body || r->n > cap) return bad_frame();
        uint32_t left = r->n;
        for (int i = 0; i < n && left > 0; i++) {
            size_t k = iov[i].iov_len < left ? iov[i].iov_len : left;
            if (k && weft_net_read_exact(fd, iov[i].iov_base, k)) return -1;
            left -= (uint32_t)k;
        }
        if (left) return bad_frame();
        if (weft_net_read_exact(fd, vt, 8)) return -1;
        r->vt = get64(vt);
        return skip(fd, body - 12 - r->n);
    }
    int want = fixed_body(r->tag);
    if (want < 0 || body < (uint64_t)want) return bad_frame();
    unsigned char b[36];
    if (weft_net_read_exact(fd, b, (size_t)want)) return -1;
    switch (r->tag) {
    case REP_ERROR: r->err = get32(b); break;
    case REP_BOUND: r->a = get_addr(b); break;
    case REP_CONNECTED: r->a = get_addr(b); r->b = get_addr(b + 6); break;
    case REP_ACCEPTED: r->sid = get64(b); r->a = get_addr(b + 8); r->b = get_addr(b + 14); break;
    case REP_WROTE: case REP_READY: r->n = get32(b); break;
    case REP_STATUS:
        r->state = get32(b);
        r->so_error = get32(b + 4);
        r->a = get_addr(b + 8);
        r->b = get_addr(b + 14);
        r->unread = get32(b + 20);
        r->room = get32(b + 24);
        break;
    default: break;
    }
    r->vt = get64(b + want - 8);
    return skip(fd, body - (uint64_t)want);
}

/* Writes frame f (its length prefix filled in here) and reads the reply. */
static int exchange(int fd, unsigned char *f, size_t n, tcpw_reply *r) {
    put32(f, (uint32_t)(n - 4));
    struct iovec iov = {f, n};
    if (weft_net_write_all(fd, &iov, 1)) return -1;
    return tcpw_read_reply(fd, NULL, 0, 0, r);
}

int tcpw_bind(int fd, tcpw_addr a, tcpw_reply *r) {
    unsigned char f[11];
    f[4] = REQ_TCP_BIND;
    put_addr(f + 5, a);
    return exchange(fd, f, sizeof f, r);
}

int tcpw_listen(int fd, uint32_t backlog, tcpw_reply *r) {
    unsigned char f[9];
    f[4] = REQ_TCP_LISTEN;
    put32(f + 5, backlog);
    return exchange(fd, f, sizeof f, r);
}

int tcpw_connect(int fd, tcpw_addr dst, uint64_t vt, int nonblocking, tcpw_reply *r) {
    unsigned char f[20];
    f[4] = REQ_TCP_CONNECT;
    put_addr(f + 5, dst);
    put64(f + 11, vt);
    f[19] = nonblocking ? 1 : 0;
    return exchange(fd, f, sizeof f, r);
}

int tcpw_accept(int fd, uint64_t vt, int blocking, tcpw_reply *r) {
    unsigned char f[14];
    f[4] = REQ_TCP_ACCEPT;
    put64(f + 5, vt);
    f[13] = blocking ? 1 : 0;
    return exchange(fd, f, sizeof f, r);
}

int tcpw_adopt(int fd, uint64_t sid, tcpw_reply *r) {
    unsigned char f[13];
    f[4] = REQ_TCP_ADOPT;
    put64(f + 5, sid);
    return exchange(fd, f, sizeof f, r);
}

int tcpw_write(int fd, const struct iovec *iov, int n, size_t len, uint64_t vt, int blocking, tcpw_reply *r) {
    unsigned char head[9], tail[9];
    put32(head, (uint32_t)(1 + 4 + len + 8 + 1));
    head[4] = REQ_TCP_WRITE;
    put32(head + 5, (uint32_t)len);
    put64(tail, vt);
    tail[8] = blocking ? 1 : 0;
    /* one gather of header, the program's buffers (at most 14 of them per call) and trailer; a
     * longer vector goes out in several sendmsg calls (the stream does not care) */
    struct iovec v[16];
    int k = 0;
    v[k++] = (struct iovec){head, sizeof head};
    size_t left = len;
    for (int i = 0; i < n && left > 0; i++) {
        size_t take = iov[i].iov_len < left ? iov[i].iov_len : left;
        if (!take) continue;
        v[k++] = (struct iovec){iov[i].iov_base, take};
        left -= take;
        if (k == 15) {
            if (weft_net_write_all(fd, v, k)) return -1;
            k = 0;
        }
    }
    v[k++] = (struct iovec){tail, sizeof tail};
    if (weft_net_write_all(fd, v, k)) return -1;
    return tcpw_read_reply(fd, NULL, 0, 0, r);
}

int tcpw_read(int fd, uint32_t max, int peek, uint64_t vt, int blocking, const struct iovec *iov, int n,
              tcpw_reply *r) {
    unsigned char f[22];
    put32(f, sizeof f - 4);
    f[4] = REQ_TCP_READ;
    put32(f + 5, max);
    put32(f + 9, peek ? 1 : 0);
    put64(f + 13, vt);
    f[21] = blocking ? 1 : 0;
    struct iovec q = {f, sizeof f};
    if (weft_net_write_all(fd, &q, 1)) return -1;
    return tcpw_read_reply(fd, iov, n, max, r);
}

int tcpw_shutdown(int fd, uint32_t how, tcpw_reply *r) {
    unsigned char f[9];
    f[4] = REQ_TCP_SHUTDOWN;
    put32(f + 5, how);
    return exchange(fd, f, sizeof f, r);
}

int tcpw_abort(int fd) {
    unsigned char f[5];
    put32(f, 1);
    f[4] = REQ_TCP_ABORT;
    struct iovec q = {f, sizeof f};
    return weft_net_write_all(fd, &q, 1);
}

int tcpw_wait_send(int fd, uint32_t events, uint64_t vt, uint64_t deadline, uint32_t flags) {
    unsigned char f[26];
    put32(f, sizeof f - 4);
    f[4] = REQ_TCP_WAIT;
    put32(f + 5, events);
    put64(f + 9, vt);
    put64(f + 17, deadline);
    f[25] = (unsigned char)flags;   /* trailing flags byte (protocol-v3 §2a; older brokers ignore it) */
    struct iovec q = {f, sizeof f};
    return weft_net_write_all(fd, &q, 1);
}

int tcpw_close(int fd, uint64_t vt, tcpw_reply *r) {
    unsigned char f[13];
    put32(f, sizeof f - 4);
    f[4] = REQ_TCP_CLOSE;
    put64(f + 5, vt);
    struct iovec q = {f, sizeof f};
    if (weft_net_write_all(fd, &q, 1)) return -1;
    return tcpw_read_reply(fd, NULL, 0, 0, r);
}

/* The held TcpWait's Ready comes first (it may already be in the stream), then the UnwaitAck. */
int tcpw_unwait(int fd, tcpw_reply *ready) {
    unsigned char f[5];
    put32(f, 1);
    f[4] = REQ_TCP_UNWAIT;
    struct iovec q = {f, sizeof f};
    if (weft_net_write_all(fd, &q, 1)) return -1;
    tcpw_reply ack;
    if (tcpw_read_reply(fd, NULL, 0, 0, ready)) return -1;
    if (ready->tag == REP_UNWAIT_ACK) return bad_frame();        /* a Ready must precede it */
    if (ready->tag != REP_READY) return bad_frame();
    if (tcpw_read_reply(fd, NULL, 0, 0, &ack)) return -1;
    return ack.tag == REP_UNWAIT_ACK ? 0 : bad_frame();
}

int tcpw_status(int fd, tcpw_reply *r) {
    unsigned char f[5];
    f[4] = REQ_TCP_STATUS;
    return exchange(fd, f, sizeof f, r);
}
