/*
 * hook_rand.c - libc pseudo-random generators and kernel entropy (spec §7.2).
 *
 * Shared-stream functions draw from the process streams under the engine spinlock.
 * Caller-state functions (rand_r, erand48/nrand48/jrand48, random_r) keep their state in the
 * caller's memory and take no lock at all, so they are engaged even when reentered.
 */
#include "weft.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>

typedef int (*rand_fn)(void);
typedef void (*srand_fn)(unsigned);
typedef int (*rand_r_fn)(unsigned *);
typedef long (*random_fn)(void);
typedef void (*srandom_fn)(unsigned);
typedef char *(*initstate_fn)(unsigned, char *, size_t);
typedef char *(*setstate_fn)(char *);
typedef int (*random_r_fn)(struct random_data *, int32_t *);
typedef int (*srandom_r_fn)(unsigned, struct random_data *);
typedef int (*initstate_r_fn)(unsigned, char *, size_t, struct random_data *);
typedef int (*setstate_r_fn)(char *, struct random_data *);
typedef double (*drand48_fn)(void);
typedef double (*erand48_fn)(unsigned short[3]);
typedef long (*lrand48_fn)(void);
typedef long (*nrand48_fn)(unsigned short[3]);
typedef void (*srand48_fn)(long);
typedef unsigned short *(*seed48_fn)(unsigned short[3]);
typedef void (*lcong48_fn)(unsigned short[7]);
typedef ssize_t (*getrandom_fn)(void *, size_t, unsigned);
typedef int (*getentropy_fn)(void *, size_t);
typedef unsigned long (*getauxval_fn)(unsigned long);
typedef uint32_t (*arc4random_fn)(void);
typedef void (*arc4random_buf_fn)(void *, size_t);
typedef uint32_t (*arc4random_uniform_fn)(uint32_t);

REAL_FN(rand_fn, rand)
REAL_FN(srand_fn, srand)
REAL_FN(rand_r_fn, rand_r)
REAL_FN(random_fn, random)
REAL_FN(srandom_fn, srandom)
REAL_FN(initstate_fn, initstate)
REAL_FN(setstate_fn, setstate)
REAL_FN(random_r_fn, random_r)
REAL_FN(srandom_r_fn, srandom_r)
REAL_FN(initstate_r_fn, initstate_r)
REAL_FN(setstate_r_fn, setstate_r)
REAL_FN(drand48_fn, drand48)
REAL_FN(erand48_fn, erand48)
REAL_FN(lrand48_fn, lrand48)
REAL_FN(nrand48_fn, nrand48)
REAL_FN(lrand48_fn, mrand48)
REAL_FN(nrand48_fn, jrand48)
REAL_FN(srand48_fn, srand48)
REAL_FN(seed48_fn, seed48)
REAL_FN(lcong48_fn, lcong48)
REAL_FN(getrandom_fn, getrandom)
REAL_FN(getentropy_fn, getentropy)
REAL_FN(getauxval_fn, getauxval)
REAL_FN(arc4random_fn, arc4random)
REAL_FN(arc4random_buf_fn, arc4random_buf)
REAL_FN(arc4random_uniform_fn, arc4random_uniform)

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static inline double to_unit(uint64_t o) { return (double)(o >> 11) * 0x1p-53; }

/* ---------------------------------------------------------------- stream 0: libc-rand */

/* rand, random and lrand48 all return the stream's next 31 bits, traced as "fn(-> v)". Inlined:
 * these are the hottest hooks (montecarlo's millions of draws), and a call per draw measured ~10 %. */
static inline __attribute__((always_inline)) long next31(const char *fn) {
    long v = (long)(weft_stream_u64(WEFT_S_RAND) & 0x7FFFFFFF);
    WEFT_TRACE(fn, "-> %ld", v);
    return v;
}

WEFT_EXPORT int rand(void) {
    if (!weft_engaged()) return get_real_rand()();
    return (int)next31("rand");
}

WEFT_EXPORT long random(void) {
    if (!weft_engaged()) return get_real_random()();
    return next31("random");
}

WEFT_EXPORT long lrand48(void) {
    if (!weft_engaged()) return get_real_lrand48()();
    return next31("lrand48");
}

WEFT_EXPORT long mrand48(void) {
    if (!weft_engaged()) return get_real_mrand48()();
    long v = (long)(int32_t)(uint32_t)weft_stream_u64(WEFT_S_RAND);
    WEFT_TRACE("mrand48", "-> %ld", v);
    return v;
}

WEFT_EXPORT double drand48(void) {
    if (!weft_engaged()) return get_real_drand48()();
    uint64_t o = weft_stream_u64(WEFT_S_RAND);
    WEFT_TRACE("drand48", "-> %lu/2^53", (unsigned long)(o >> 11));
    return to_unit(o);
}

WEFT_EXPORT void srand(unsigned u) {
    if (!weft_engaged()) { get_real_srand()(u); return; }
    WEFT_TRACE("srand", "%u", u);
    weft_reseed_rand((uint64_t)u);
}

WEFT_EXPORT void srandom(unsigned u) {
    if (!weft_engaged()) { get_real_srandom()(u); return; }
    WEFT_TRACE("srandom", "%u", u);
    weft_reseed_rand((uint64_t)u);
}

WEFT_EXPORT char *initstate(unsigned u, char *state, size_t n) {
    if (!weft_engaged()) return get_real_initstate()(u, state, n);
    if (n < 8) { errno = EINVAL; return NULL; }
    weft_reseed_rand((uint64_t)u);
    /* The previous state buffer is only an opaque token for setstate, which is a no-op. */
    return state;
}

WEFT_EXPORT char *setstate(char *state) {
    if (!weft_engaged()) return get_real_setstate()(state);
    return state;
}

WEFT_EXPORT void srand48(long v) {
    if (!weft_engaged()) { get_real_srand48()(v); return; }
    WEFT_TRACE("srand48", "%ld", v);
    weft_reseed_rand((uint64_t)v);
}

/* Beyond the reference: seed48/lcong48 reseed stream 0 with their 48-bit value. */
static unsigned short seed48_prev[3];
WEFT_EXPORT unsigned short *seed48(unsigned short s[3]) {
    if (!weft_engaged()) return get_real_seed48()(s);
    weft_reseed_rand((uint64_t)s[0] | (uint64_t)s[1] << 16 | (uint64_t)s[2] << 32);
    return seed48_prev;
}

WEFT_EXPORT void lcong48(unsigned short p[7]) {
    if (!weft_engaged()) { get_real_lcong48()(p); return; }
    weft_reseed_rand((uint64_t)p[0] | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 32);
}

/* ---------------------------------------------------------------- caller state, no lock */

WEFT_EXPORT int rand_r(unsigned *x) {
    if (!weft_init()) return get_real_rand_r()(x);
    uint64_t o = weft_sm_out((uint64_t)*x ^ rotl64(weft_cfg.seed, 17));
    *x = (unsigned)((o >> 32) ^ (o & 0xFFFFFFFF));
    WEFT_TRACE("rand_r", "-> %d", (int)(o & 0x7FFFFFFF));
    return (int)(o & 0x7FFFFFFF);
}

static uint64_t xsubi_step(unsigned short x[3]) {
    uint64_t st = (uint64_t)x[0] | (uint64_t)x[1] << 16 | (uint64_t)x[2] << 32;
    uint64_t o = weft_sm_out(st ^ rotl64(weft_cfg.seed, 23));
    x[0] = (unsigned short)o;
    x[1] = (unsigned short)(o >> 16);
    x[2] = (unsigned short)(o >> 32);
    return o;
}

WEFT_EXPORT double erand48(unsigned short x[3]) {
    if (!weft_init()) return get_real_erand48()(x);
    return to_unit(xsubi_step(x));
}

WEFT_EXPORT long nrand48(unsigned short x[3]) {
    if (!weft_init()) return get_real_nrand48()(x);
    return (long)(xsubi_step(x) & 0x7FFFFFFF);
}

WEFT_EXPORT long jrand48(unsigned short x[3]) {
    if (!weft_init()) return get_real_jrand48()(x);
    return (long)(int32_t)(uint32_t)xsubi_step(x);
}

/*
 * random_r family (closes a reference gap). Seeded, we own the whole struct random_data: its
 * first pointer field holds a 64-bit counter c; each draw does c += 1 and returns
 * SM_out(c XOR rotl64(seed, 29)) & 0x7FFFFFFF. srandom_r/initstate_r set c to the seed value.
 * Only these four functions touch the struct, and all four are hooked together.
 */
static void rd_set(struct random_data *b, uint64_t c) { memcpy(&b->fptr, &c, sizeof c); }
static uint64_t rd_get(const struct random_data *b) { uint64_t c; memcpy(&c, &b->fptr, sizeof c); return c; }

WEFT_EXPORT int random_r(struct random_data *b, int32_t *result) {
    if (!weft_init()) return get_real_random_r()(b, result);
    b = WEFT_OPAQUE(b); result = WEFT_OPAQUE(result);
    if (!b || !result) { errno = EINVAL; return -1; }
    uint64_t c = rd_get(b) + 1;
    rd_set(b, c);
    *result = (int32_t)(weft_sm_out(c ^ rotl64(weft_cfg.seed, 29)) & 0x7FFFFFFF);
    return 0;
}

WEFT_EXPORT int srandom_r(unsigned u, struct random_data *b) {
    if (!weft_init()) return get_real_srandom_r()(u, b);
    b = WEFT_OPAQUE(b);
    if (!b) { errno = EINVAL; return -1; }
    rd_set(b, (uint64_t)u);
    return 0;
}

WEFT_EXPORT int initstate_r(unsigned u, char *state, size_t n, struct random_data *b) {
    if (!weft_init()) return get_real_initstate_r()(u, state, n, b);
    b = WEFT_OPAQUE(b); state = WEFT_OPAQUE(state);
    if (!b || !state || n < 8) { errno = EINVAL; return -1; }
    memset(b, 0, sizeof *b);
    rd_set(b, (uint64_t)u);
    return 0;
}

WEFT_EXPORT int setstate_r(char *state, struct random_data *b) {
    if (!weft_init()) return get_real_setstate_r()(state, b);
    b = WEFT_OPAQUE(b); state = WEFT_OPAQUE(state);
    if (!b || !state) { errno = EINVAL; return -1; }
    return 0;
}

/* ---------------------------------------------------------------- stream 1: getrandom */

WEFT_EXPORT ssize_t getrandom(void *buf, size_t n, unsigned flags) {
    if (!weft_engaged()) return get_real_getrandom()(buf, n, flags);
    if (!buf && n) { errno = EFAULT; return -1; }
    weft_stream_fill(WEFT_S_GETRANDOM, buf, n);
    WEFT_TRACE("getrandom", "%zu", n);
    return (ssize_t)n;
}

WEFT_EXPORT int getentropy(void *buf, size_t n) {
    if (!weft_engaged()) return get_real_getentropy()(buf, n);
    if (n > 256) { errno = EIO; return -1; }
    if (!buf) { errno = EFAULT; return -1; }
    weft_stream_fill(WEFT_S_GETRANDOM, buf, n);
    WEFT_TRACE("getentropy", "%zu", n);
    return 0;
}

/* arc4random (glibc >= 2.36; closes a reference gap): drawn from the getrandom stream. */
WEFT_EXPORT uint32_t arc4random(void) {
    if (!weft_engaged()) return get_real_arc4random()();
    uint32_t v;
    weft_stream_fill(WEFT_S_GETRANDOM, &v, sizeof v);
    WEFT_TRACE("arc4random", "-> %u", v);
    return v;
}

WEFT_EXPORT void arc4random_buf(void *buf, size_t n) {
    if (!weft_engaged()) { get_real_arc4random_buf()(buf, n); return; }
    weft_stream_fill(WEFT_S_GETRANDOM, buf, n);
    WEFT_TRACE("arc4random_buf", "%zu", n);
}

WEFT_EXPORT uint32_t arc4random_uniform(uint32_t bound) {
    if (!weft_engaged()) return get_real_arc4random_uniform()(bound);
    if (bound < 2) return 0;
    uint32_t min = (uint32_t)(-bound) % bound; /* reject the biased low range */
    for (;;) {
        uint32_t r;
        weft_stream_fill(WEFT_S_GETRANDOM, &r, sizeof r);
        if (r >= min) return r % bound;
    }
}

/* ---------------------------------------------------------------- stream 3: AT_RANDOM */

static uint8_t aux_random[16];
static atomic_int aux_ready;

WEFT_EXPORT unsigned long getauxval(unsigned long type) {
    if (type != AT_RANDOM || !weft_engaged()) return get_real_getauxval()(type);
    if (!atomic_load_explicit(&aux_ready, memory_order_acquire)) {
        /* drawn once: the stream lock serialises racing first callers, the flag publishes */
        weft_stream *st = &weft_streams[WEFT_S_AUX];
        weft_spin_lock(&st->lock);
        if (!atomic_load_explicit(&aux_ready, memory_order_relaxed)) {
            weft_chacha_fill(&st->g, aux_random, sizeof aux_random);
            atomic_store_explicit(&aux_ready, 1, memory_order_release);
        }
        weft_spin_unlock(&st->lock);
    }
    WEFT_TRACE("getauxval", "%s", "AT_RANDOM");
    return (unsigned long)(uintptr_t)aux_random;
}
