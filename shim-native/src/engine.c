/*
 * engine.c - configuration, seed, ChaCha8 streams, virtual clock, tracing.
 *
 * Nothing here calls a function the shim hooks: the environment is read with getenv (not
 * hooked, no allocation), diagnostics go out through a raw write(2) system call, and the real libc
 * functions are only looked up (dlsym) by the hooks that pass through.
 *
 * Every system call the engine makes for itself goes through weft_real_syscall, which issues the
 * syscall instruction directly: not libc's syscall() (the shim hooks it), and no dlsym on the way
 * (safe before configuration, inside a signal handler, and while resolving a symbol failed).
 */
#include "weft.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <cpuid.h>

weft_config weft_cfg;
WEFT_TLS int weft_depth;
weft_stream weft_streams[WEFT_NSTREAMS];

/* 0 = not started, 1 = a thread is initialising, 2 = done. */
static atomic_int init_state;
/* Monotonic virtual nanoseconds since process start (spec §7.4), one per process. */
static _Atomic uint64_t mono_ns;

void *weft_real(const char *name) {
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        weft_errline("[weft] FATAL: cannot resolve real %s", name);
        weft_real_syscall(SYS_exit_group, 127, 0, 0, 0, 0, 0);
    }
    return f;
}

/* ------------------------------------------------------------------ raw system calls */

/* x86-64 Linux calling convention: number in rax, arguments in rdi, rsi, rdx, r10, r8, r9; the
 * kernel clobbers rcx and r11 and returns -errno in rax. Errors come back as -1 with errno set,
 * as libc's syscall() would return them. */
long (weft_real_syscall)(long n, long a, long b, long c, long d, long e, long f) {
    long ret;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    if (ret < 0 && ret > -4096) {
        errno = (int)-ret;
        return -1;
    }
    return ret;
}

/* ------------------------------------------------------------------ spinlock */

/*
 * The engine's only lock. Critical sections are a few hundred instructions (one ChaCha refill
 * at most) and never call out, so spinning is bounded; after 64 failed tries we give the CPU
 * away with a raw sched_yield syscall (never the hooked sched_yield).
 * Reentrancy: a holder bumps weft_depth, so a signal handler interrupting it sees
 * weft_engaged() == 0 and passes through instead of deadlocking on this lock.
 */
void weft_spin_lock(atomic_int *l) {
    weft_depth++;
    for (int tries = 0;; tries++) {
        int expect = 0;
        if (atomic_load_explicit(l, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_weak_explicit(l, &expect, 1, memory_order_acquire,
                                                  memory_order_relaxed))
            return;
        if (tries >= 64) weft_real_syscall(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
        else __builtin_ia32_pause();
    }
}

void weft_spin_unlock(atomic_int *l) {
    atomic_store_explicit(l, 0, memory_order_release);
    weft_depth--;
}

/* ------------------------------------------------------------------ SplitMix64 / seed */

#define SM_G 0x9E3779B97F4A7C15ULL

static inline uint64_t sm_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t weft_splitmix_step(uint64_t *state) {
    *state += SM_G;
    return sm_mix(*state);
}

uint64_t weft_sm_out(uint64_t t) { return sm_mix(t + SM_G); }

void weft_expand(uint64_t seed, uint8_t key[32]) {
    uint64_t s = seed;
    for (int i = 0; i < 4; i++) {
        uint64_t o = weft_splitmix_step(&s);
        for (int b = 0; b < 8; b++) key[i * 8 + b] = (uint8_t)(o >> (8 * b));
    }
}

/* Length of a Unicode White_Space code point encoded at p (UTF-8), else 0. */
static size_t ws_len(const unsigned char *p) {
    if (*p == ' ' || (*p >= 0x09 && *p <= 0x0d)) return 1;
    if (p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0)) return 2;
    if (p[0] == 0xe1 && p[1] == 0x9a && p[2] == 0x80) return 3;                   /* U+1680 */
    if (p[0] == 0xe2 && p[1] == 0x80 && ((p[2] >= 0x80 && p[2] <= 0x8a) ||         /* 2000-200A */
                                         p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf)) return 3;
    if (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f) return 3;                   /* U+205F */
    if (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80) return 3;                   /* U+3000 */
    return 0;
}

/* Byte length of trailing white space ending at end (exclusive), scanning from start. */
static const unsigned char *trim_end(const unsigned char *start, const unsigned char *end) {
    const unsigned char *last_non_ws_end = start;
    const unsigned char *p = start;
    while (p < end) {
        size_t w = ws_len(p);
        if (w && p + w <= end) { p += w; continue; }
        /* advance over one UTF-8 code point */
        size_t n = 1;
        if (*p >= 0xf0) n = 4; else if (*p >= 0xe0) n = 3; else if (*p >= 0xc0) n = 2;
        p += n;
        if (p > end) p = end;
        last_non_ws_end = p;
    }
    return last_non_ws_end;
}

const char *weft_parse_seed(const char *text, uint64_t *out) {
    const unsigned char *p = (const unsigned char *)text;
    size_t w;
    while ((w = ws_len(p)) != 0) p += w;
    const unsigned char *end = trim_end(p, p + strlen((const char *)p));
    if (p == end) return "empty seed";
    uint64_t v = 0;
    if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        if (p < end && *p == '+') p++;
        if (p == end) return "invalid hex seed";
        for (; p < end; p++) {
            int d;
            if (*p >= '0' && *p <= '9') d = *p - '0';
            else if (*p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
            else if (*p >= 'A' && *p <= 'F') d = *p - 'A' + 10;
            else return "invalid hex seed";
            if (v >> 60) return "invalid hex seed";
            v = (v << 4) | (uint64_t)d;
        }
    } else {
        if (*p == '+') p++;
        if (p == end) return "invalid decimal seed";
        for (; p < end; p++) {
            if (*p < '0' || *p > '9') return "invalid decimal seed";
            uint64_t d = (uint64_t)(*p - '0');
            if (v > (UINT64_MAX - d) / 10) return "invalid decimal seed";
            v = v * 10 + d;
        }
    }
    *out = v;
    return 0;
}

/* ------------------------------------------------------------------ ChaCha8 */

#define ROTL32(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define QR(a, b, c, d) \
    a += b; d ^= a; d = ROTL32(d, 16); c += d; b ^= c; b = ROTL32(b, 12); \
    a += b; d ^= a; d = ROTL32(d, 8);  c += d; b ^= c; b = ROTL32(b, 7);

void weft_chacha_block_rounds(const uint32_t in[16], uint32_t out[16], int rounds) {
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int r = 0; r < rounds; r += 2) {
        QR(x[0], x[4], x[8], x[12]) QR(x[1], x[5], x[9], x[13])
        QR(x[2], x[6], x[10], x[14]) QR(x[3], x[7], x[11], x[15])
        QR(x[0], x[5], x[10], x[15]) QR(x[1], x[6], x[11], x[12])
        QR(x[2], x[7], x[8], x[13]) QR(x[3], x[4], x[9], x[14])
    }
    for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

/*
 * Four consecutive blocks at once, written lane-wise (x[word][lane]) so the compiler turns
 * every quarter-round into SSE2 vector operations: this is the throughput path behind rand().
 */
#define LANES 4
#define VQR(a, b, c, d) \
    for (int l = 0; l < LANES; l++) { \
        x[a][l] += x[b][l]; x[d][l] ^= x[a][l]; x[d][l] = ROTL32(x[d][l], 16); \
        x[c][l] += x[d][l]; x[b][l] ^= x[c][l]; x[b][l] = ROTL32(x[b][l], 12); \
        x[a][l] += x[b][l]; x[d][l] ^= x[a][l]; x[d][l] = ROTL32(x[d][l], 8); \
        x[c][l] += x[d][l]; x[b][l] ^= x[c][l]; x[b][l] = ROTL32(x[b][l], 7); }

static void chacha_refill(weft_chacha *g) {
    uint32_t in[16][LANES] __attribute__((aligned(16)));
    uint32_t x[16][LANES] __attribute__((aligned(16)));
    static const uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int l = 0; l < LANES; l++) {
        uint64_t ctr = g->counter + (uint64_t)l;
        for (int i = 0; i < 4; i++) in[i][l] = sigma[i];
        for (int i = 0; i < 8; i++) in[4 + i][l] = g->key[i];
        in[12][l] = (uint32_t)ctr;
        in[13][l] = (uint32_t)(ctr >> 32);
        in[14][l] = (uint32_t)g->stream;
        in[15][l] = (uint32_t)(g->stream >> 32);
    }
    memcpy(x, in, sizeof x);
    for (int r = 0; r < 8; r += 2) {
        VQR(0, 4, 8, 12) VQR(1, 5, 9, 13) VQR(2, 6, 10, 14) VQR(3, 7, 11, 15)
        VQR(0, 5, 10, 15) VQR(1, 6, 11, 12) VQR(2, 7, 8, 13) VQR(3, 4, 9, 14)
    }
    for (int l = 0; l < LANES; l++)
        for (int i = 0; i < 16; i++) g->buf[l * 16 + i] = x[i][l] + in[i][l];
    g->counter += LANES;
    g->pos = 0;
}

void weft_chacha_init(weft_chacha *g, const uint8_t key[32], uint64_t stream) {
    for (int i = 0; i < 8; i++)
        g->key[i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8 |
                    (uint32_t)key[4 * i + 2] << 16 | (uint32_t)key[4 * i + 3] << 24;
    g->stream = stream;
    g->counter = 0;
    g->pos = WEFT_CHACHA_BUFWORDS; /* empty: the first use refills */
}

uint32_t weft_chacha_u32(weft_chacha *g) {
    /* the index is checked and used as one local value, so even an unlocked racing caller
     * (see weft_stream_u64) can never read outside buf */
    uint32_t p = g->pos;
    if (p >= WEFT_CHACHA_BUFWORDS) { chacha_refill(g); p = 0; }
    g->pos = p + 1;
    return g->buf[p];
}

uint64_t weft_chacha_u64(weft_chacha *g) {
    uint64_t lo = weft_chacha_u32(g);
    uint64_t hi = weft_chacha_u32(g);
    return lo | hi << 32;
}

void weft_chacha_fill(weft_chacha *g, void *dst, size_t n) {
    unsigned char *d = dst;
    while (n >= 4) {
        if (g->pos >= WEFT_CHACHA_BUFWORDS) chacha_refill(g);
        size_t words = (WEFT_CHACHA_BUFWORDS - g->pos);
        if (words > n / 4) words = n / 4;
        memcpy(d, &g->buf[g->pos], words * 4); /* x86-64 is little-endian: words are LE bytes */
        g->pos += (uint32_t)words;
        d += words * 4;
        n -= words * 4;
    }
    if (n) {
        uint32_t w = weft_chacha_u32(g);    /* the unused bytes of the last word are dropped */
        memcpy(d, &w, n);
    }
}

/* ------------------------------------------------------------------ streams */

atomic_int weft_multithreaded;

void weft_note_thread_start(void) {
    if (!atomic_load_explicit(&weft_multithreaded, memory_order_relaxed))
        atomic_store_explicit(&weft_multithreaded, 1, memory_order_seq_cst);
}

/* The general path of weft_stream_u64 (weft.h): a refill is due, or threads exist. */
uint64_t weft_stream_u64_slow(int s) {
    weft_stream *st = &weft_streams[s];
    uint64_t v;
    if (!atomic_load_explicit(&weft_multithreaded, memory_order_relaxed)) {
        weft_depth++;
        v = weft_chacha_u64(&st->g);
        weft_depth--;
        return v;
    }
    weft_spin_lock(&st->lock);
    v = weft_chacha_u64(&st->g);
    weft_spin_unlock(&st->lock);
    return v;
}

void weft_stream_fill(int s, void *dst, size_t n) {
    weft_stream *st = &weft_streams[s];
    if (!atomic_load_explicit(&weft_multithreaded, memory_order_relaxed)) {
        weft_depth++;
        weft_chacha_fill(&st->g, dst, n);
        weft_depth--;
        return;
    }
    weft_spin_lock(&st->lock);
    weft_chacha_fill(&st->g, dst, n);
    weft_spin_unlock(&st->lock);
}

void weft_reseed_rand(uint64_t u) {
    uint64_t a = weft_sm_out(weft_cfg.seed ^ (u * SM_G));
    uint64_t b = weft_sm_out(a);
    uint8_t key[32];
    weft_expand(b, key);
    weft_stream *st = &weft_streams[WEFT_S_RAND];
    weft_spin_lock(&st->lock);
    weft_chacha_init(&st->g, key, 0);
    weft_spin_unlock(&st->lock);
}

/* ------------------------------------------------------------------ virtual clock */

__attribute__((weak)) int weft_sched_foreign_thread(void);

/* A thread the scheduler does not manage while it manages the process's others (one made behind
 * pthread_create's back: jemalloc's background thread, created through dlsym(RTLD_NEXT)) runs in
 * real time, so its clock reads do not move the clock: they would shift every later reading of the
 * managed threads by when they happened (redis-server's replies 1 us later now and then). */
uint64_t weft_mono_observe(void) {
    if (weft_sched_foreign_thread && weft_sched_foreign_thread()) return atomic_load_explicit(&mono_ns, memory_order_relaxed);
    return atomic_fetch_add_explicit(&mono_ns, 1000, memory_order_relaxed) + 1000;
}

uint64_t weft_real_observe(void) { return weft_cfg.real_base_ns + weft_mono_observe(); }

uint64_t weft_mono_peek(void) { return atomic_load_explicit(&mono_ns, memory_order_relaxed); }

void weft_mono_advance(uint64_t ns) {
    atomic_fetch_add_explicit(&mono_ns, ns, memory_order_relaxed);
}

void weft_mono_at_least(uint64_t ns) {
    uint64_t cur = atomic_load_explicit(&mono_ns, memory_order_relaxed);
    while (cur < ns &&
           !atomic_compare_exchange_weak_explicit(&mono_ns, &cur, ns, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}

/* ------------------------------------------------------------------ formatting */

static size_t put_u64(char *tmp, uint64_t v, unsigned base) {
    size_t n = 0;
    do { tmp[n++] = "0123456789abcdef"[v % base]; v /= base; } while (v);
    return n;
}

int weft_vfmt(char *buf, size_t cap, const char *fmt, va_list ap) {
    size_t o = 0;
#define PUT(c) do { if (o + 1 < cap) buf[o] = (c); o++; } while (0)
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') { PUT(*f); continue; }
        f++;
        int lng = 0;
        while (*f == 'l' || *f == 'z') { lng = 1; f++; }
        char tmp[24];
        size_t n;
        switch (*f) {
        case 'd': {
            long long v = lng ? va_arg(ap, long long) : va_arg(ap, int);
            uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
            if (v < 0) PUT('-');
            n = put_u64(tmp, u, 10);
            while (n) PUT(tmp[--n]);
            break;
        }
        case 'u': case 'x': {
            uint64_t u = lng ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned);
            n = put_u64(tmp, u, *f == 'x' ? 16 : 10);
            while (n) PUT(tmp[--n]);
            break;
        }
        case 'p': {
            uint64_t u = (uint64_t)(uintptr_t)va_arg(ap, void *);
            PUT('0'); PUT('x');
            n = put_u64(tmp, u, 16);
            while (n) PUT(tmp[--n]);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            while (*s) PUT(*s++);
            break;
        }
        case 'c': PUT((char)va_arg(ap, int)); break;
        case '%': PUT('%'); break;
        default: PUT('?'); if (!*f) f--; break;
        }
    }
    if (cap) buf[o < cap ? o : cap - 1] = 0;
#undef PUT
    return (int)(o < cap ? o : cap - 1);
}

int weft_fmt(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = weft_vfmt(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

static void raw_write_line(char *buf, int n, size_t cap) {
    if ((size_t)n + 1 >= cap) n = (int)cap - 2;
    buf[n++] = '\n';
    int saved = errno; /* diagnostics must not change what the program sees in errno */
    weft_real_syscall(SYS_write, 2, buf, (size_t)n, 0, 0, 0);
    errno = saved;
}

void weft_errline(const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = weft_vfmt(buf, sizeof buf, fmt, ap);
    va_end(ap);
    raw_write_line(buf, n, sizeof buf);
}

/* Format: "[weft] trace <fn>(<details>)" -- one write(2) so lines never interleave. */
void weft_trace(const char *fn, const char *fmt, ...) {
    char buf[384];
    int n = weft_fmt(buf, sizeof buf, "[weft] trace %s(", fn);
    va_list ap;
    va_start(ap, fmt);
    n += weft_vfmt(buf + n, sizeof buf - (size_t)n, fmt, ap);
    va_end(ap);
    if ((size_t)n + 2 < sizeof buf) buf[n++] = ')';
    raw_write_line(buf, n, sizeof buf);
}

/* ------------------------------------------------------------------ configuration */

static int env_is(const char *name, const char *val) {
    const char *v = getenv(name);
    return v && strcmp(v, val) == 0;
}

static uint64_t env_u64(const char *name) {
    const char *v = getenv(name);
    uint64_t out = 0;
    if (!v || !*v) return 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        if (out > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return 0;
        out = out * 10 + (uint64_t)(*p - '0');
    }
    return out;
}

/* strict u32: decimal digits only, no sign, no white space (spec §5 WEFT_NODE_ID) */
static int env_u32_strict(const char *name, uint32_t *out) {
    const char *v = getenv(name);
    if (!v || !*v) return 0;
    uint64_t x = 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        x = x * 10 + (uint64_t)(*p - '0');
        if (x > UINT32_MAX) return 0;
    }
    *out = (uint32_t)x;
    return 1;
}

static void read_net(void) {
    const char *broker = getenv("WEFT_BROKER");
    uint32_t node;
    if (!broker || !env_u32_strict("WEFT_NODE_ID", &node)) return;
    size_t n = strlen(broker);
    if (n == 0 || n >= sizeof weft_cfg.broker) {
        weft_errline("[weft] WARNING: WEFT_BROKER is empty or longer than %d bytes; network not simulated",
                     (int)sizeof weft_cfg.broker - 1);
        return;
    }
    memcpy(weft_cfg.broker, broker, n + 1);
    weft_cfg.node_id = node;
    if (!env_u32_strict("WEFT_HOST_ID", &weft_cfg.host_id)) weft_cfg.host_id = 0;
    weft_cfg.window_ns = env_u64("WEFT_WINDOW_NS");
    weft_cfg.net_speedup = env_u64("WEFT_NET_SPEEDUP");
    if (weft_cfg.net_speedup == 0) weft_cfg.net_speedup = 10;
    weft_cfg.net_spin_ns = env_u64("WEFT_NET_SPIN_NS"); /* 0 (the default): never spin */
    weft_cfg.net = 1;
}

static int ascii_ieq(const char *a, const char *b) {
    for (; *a && *b; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'A' && x <= 'Z') x = (char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (char)(y + 32);
        if (x != y) return 0;
    }
    return *a == *b;
}

static void read_strategy(void) {
    const char *v = getenv("WEFT_STRATEGY");
    if (!v) return;
    char t[64];
    while (*v == ' ' || (*v >= 9 && *v <= 13)) v++;
    size_t n = strlen(v);
    while (n && (v[n - 1] == ' ' || (v[n - 1] >= 9 && v[n - 1] <= 13))) n--;
    if (n >= sizeof t) n = sizeof t - 1;
    memcpy(t, v, n);
    t[n] = 0;
    if (!strcmp(t, "random") || !strcmp(t, "rand")) return;
    if (!strcmp(t, "rr") || !strcmp(t, "round-robin") || !strcmp(t, "roundrobin")) {
        weft_cfg.strategy_rr = 1;
        return;
    }
    weft_errline("[weft] WARNING: WEFT_STRATEGY \"%s\": unknown strategy (expected 'random' or "
                 "'rr'); using default", getenv("WEFT_STRATEGY"));
}

/*
 * WEFT_CLOCK_SKEW_NS (a scenario's per-node time_skew): signed decimal nanoseconds added to this
 * node's realtime clock. Everything realtime (readings, absolute realtime sleeps and deadlines)
 * goes through real_base_ns, so moving the base skews them all consistently; the monotonic clock
 * (and the local_vt the broker sees) has an arbitrary origin and is left alone. Saturates at 0.
 */
static void apply_clock_skew(void) {
    const char *v = getenv("WEFT_CLOCK_SKEW_NS");
    if (!v || !*v) return;
    int neg = *v == '-';
    const char *p = (*v == '-' || *v == '+') ? v + 1 : v;
    uint64_t mag = 0;
    if (!*p) goto bad;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || mag > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) goto bad;
        mag = mag * 10 + (uint64_t)(*p - '0');
    }
    if (neg) weft_cfg.real_base_ns = mag > weft_cfg.real_base_ns ? 0 : weft_cfg.real_base_ns - mag;
    else weft_cfg.real_base_ns = mag > UINT64_MAX - weft_cfg.real_base_ns ? UINT64_MAX : weft_cfg.real_base_ns + mag;
    return;
bad:
    weft_errline("[weft] WARNING: WEFT_CLOCK_SKEW_NS \"%s\": not a signed decimal integer; no skew", v);
}

__attribute__((weak)) void weft_proc_configure(void);
__attribute__((weak)) void weft_proc_tree_init(void);
__attribute__((weak)) void weft_tsc_init(void);
__attribute__((weak)) unsigned long weft_tsc_traps(void);
__attribute__((weak)) void weft_pt_exit(int flush);
__attribute__((weak)) void weft_tcp_image_init(void);
__attribute__((weak)) void weft_backstop_init(void);
__attribute__((weak)) void weft_backstop_stats(void);
__attribute__((weak)) void weft_ft_stats(void);

static void configure(void) {
    const char *seed_text = getenv("WEFT_SEED");
    if (!seed_text) return; /* do-no-harm: unseeded => every hook passes through */
    uint64_t seed;
    const char *err = weft_parse_seed(seed_text, &seed);
    if (err) {
        weft_errline("[weft] ERROR: WEFT_SEED \"%s\": %s; shim inactive", seed_text, err);
        return;
    }
    weft_cfg.seed = seed;
    weft_expand(seed, weft_cfg.key);
    for (int s = 0; s < WEFT_NSTREAMS; s++) weft_chacha_init(&weft_streams[s].g, weft_cfg.key, (uint64_t)s);
    weft_cfg.trace = env_is("WEFT_TRACE", "1");
    const char *sched = getenv("WEFT_SCHED");
    weft_cfg.sched = !(sched && (!strcmp(sched, "0") || ascii_ieq(sched, "off")));
    read_strategy();
    weft_cfg.stats = env_is("WEFT_SCHED_STATS", "1");
    weft_cfg.fsync_lies = env_is("WEFT_FSYNC_LIES", "1");
    weft_cfg.enospc_bytes = env_u64("WEFT_ENOSPC_BYTES");
    uint64_t torn = env_u64("WEFT_TORN_WRITES_PPM");
    weft_cfg.torn_ppm = torn > 1000000 ? 1000000 : (uint32_t)torn;
    read_net();
    /* stream 4's first draw fixes the realtime base (spec §7.4) */
    uint64_t offset_secs = weft_chacha_u64(&weft_streams[WEFT_S_CLOCK].g);
    weft_cfg.real_base_ns = (946684800ULL + offset_secs % 31536000ULL) * 1000000000ULL;
    apply_clock_skew();
    /* after the base: every process of the tree shares the run's. Weak: tests/vectors links the
     * engine alone. */
    if (weft_proc_configure) weft_proc_configure();
    weft_cfg.active = 1;
}

/*
 * Lazy, thread-safe, once. configure() calls no hooked function, so it cannot re-enter;
 * a second thread arriving mid-initialisation spins (bounded: configure is pure computation).
 */
int weft_init(void) {
    int st = atomic_load_explicit(&init_state, memory_order_acquire);
    if (__builtin_expect(st == 2, 1)) return weft_cfg.active;
    int expect = 0;
    if (atomic_compare_exchange_strong(&init_state, &expect, 1)) {
        weft_depth++;
        configure();
        weft_depth--;
        atomic_store_explicit(&init_state, 2, memory_order_release);
    } else {
        while (atomic_load_explicit(&init_state, memory_order_acquire) != 2)
            weft_real_syscall(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
    }
    return weft_cfg.active;
}

/*
 * In a fork child only the forking thread exists. A spinlock another thread held at the fork
 * would never be released, so the child starts with every engine lock free (the forking thread
 * itself holds none: fork is not called from inside the shim).
 */
static void reset_locks_in_child(void) {
    for (int s = 0; s < WEFT_NSTREAMS; s++) atomic_store(&weft_streams[s].lock, 0);
}

/* Configure as early as possible so getauxval(AT_RANDOM) and the clock exist before main. */
__attribute__((constructor(101))) static void weft_ctor(void) {
    if (weft_init()) {
        pthread_atfork(NULL, NULL, reset_locks_in_child); /* first: later child handlers draw */
        if (weft_proc_tree_init) weft_proc_tree_init();
        if (weft_tsc_init) weft_tsc_init();
        if (weft_backstop_init) weft_backstop_init();
        if (weft_tcp_image_init) weft_tcp_image_init();
    }
}

/* 1 when OPENSSL_ia32cap word `word` ("~mask" form) clears `bit`. */
static int ia32cap_clears(const char *v, int word, int bit) {
    for (int w = 0; v && w < word; w++) {
        v = strchr(v, ':');
        if (v) v++;
    }
    if (!v || *v != '~') return 0;
    unsigned long long m = strtoull(v + 1, NULL, 0);
    return (int)((m >> bit) & 1);
}

/*
 * RDRAND/RDSEED are unprivileged instructions: user space cannot trap them, so whether a target
 * executed one is not detectable. What --stats can say is whether the CPU offers them and whether
 * OpenSSL (the main user) was told not to use them.
 */
static void rdrand_report(void) {
    unsigned a, b, c, d;
    int rdrand = __get_cpuid(1, &a, &b, &c, &d) && (c >> 30 & 1);
    int rdseed = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 18 & 1);
    const char *cap = getenv("OPENSSL_ia32cap");
    weft_errline("[weft] rdrand: cpu rdrand=%s rdseed=%s; OPENSSL_ia32cap masks rdrand=%s rdseed=%s;"
                 " direct use of the instructions cannot be detected from user space",
                 rdrand ? "yes" : "no", rdseed ? "yes" : "no", ia32cap_clears(cap, 0, 62) ? "yes" : "no",
                 ia32cap_clears(cap, 1, 18) ? "yes" : "no");
}

__attribute__((destructor)) static void weft_dtor(void) {
    if (!weft_cfg.active) return;
    weft_sched_stats_at_exit();
    weft_net_at_exit();
    if (weft_cfg.stats) rdrand_report();
    if (weft_cfg.stats && weft_backstop_stats) weft_backstop_stats();
    if (weft_cfg.stats && weft_ft_stats) weft_ft_stats();
    if (weft_cfg.stats && weft_tsc_traps && getenv("WEFT_RDTSC"))
        weft_errline("[weft] rdtsc: %lu read(s) answered from virtual time", weft_tsc_traps());
    /* last, so everything above is still written in this process's turn: publish the clock for
     * the parent and pass the run token on */
    if (weft_pt_exit) weft_pt_exit(1);
}

/* The file-time rule of docs/shim.md "File times", shared by the shim's stat hooks and the static
 * supervisor: a kernel time at or after the run's start (real ns; 0 = unknown) reads as the caller's
 * virtual now; one inside the virtual window [2000-01-01, +2 years) was written by a run and stays;
 * anything older reads as one instant before the run. Pure: no state, no system call. */
void weft_file_time_map(int64_t *sec, int64_t *nsec, uint64_t run_start_ns, uint64_t now_real_ns) {
    const int64_t epoch_2000 = 946684800LL, window = 2LL * 366 * 86400;
    uint64_t t = *sec < 0 ? 0 : (uint64_t)*sec * 1000000000ULL + (uint64_t)*nsec;
    if (run_start_ns && t >= run_start_ns) {
        *sec = (int64_t)(now_real_ns / 1000000000ULL);
        *nsec = (int64_t)(now_real_ns % 1000000000ULL);
    } else if (*sec < epoch_2000 || *sec >= epoch_2000 + window) {
        *sec = epoch_2000 - 1;
        *nsec = 0;
    }
}
