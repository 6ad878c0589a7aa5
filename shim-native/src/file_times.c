/*
 * file_times.c - per-file virtual times: a fixed table, keyed by (st_dev, st_ino), of the files
 * the run modified or stamped, shared by the whole process tree (issue 18, item 3).
 *
 * An entry holds the virtual instants the stat family reports for its file (hook_stat.c):
 *   - mtime/ctime: the writer's virtual now at the last modification the shim saw (a write or
 *     pwrite, an open that created or truncated it, a truncate), or what utimensat and friends
 *     were asked to set (so `touch -d`, `cp -p`, `tar x` read back exactly as set);
 *   - atime: set only by an explicit time; otherwise the reader is given the mtime;
 *   - btime: the instant the entry was made.
 * Modifications the shim does not see (stdio's own flushes, writev, mmap, other processes'
 * copy_file_range, ...) are caught at the next stat: each entry is "bound" to the kernel's mtime
 * and size it last saw, and a file whose kernel mtime or size has moved since was modified
 * unseen. A modification seen by a hook leaves its entry unbound ("pending"): the next stat binds
 * it to whatever the kernel then says, so stdio writes that follow a seen open or write count as
 * part of that modification. An unseen modification is stamped with the reader's now at the first
 * stat that notices it, and bound, so later readers agree on it.
 *
 * Where the table lives: a region after the run segment (proc_sched.c's segment ends with
 * WEFT_FT_REGION_BYTES for it and calls weft_ft_attach), so every process of the tree sees one
 * table. A process without a segment (alone, before its first fork or spawn) uses a smaller
 * process-local table; the segment's creator moves its entries into the shared one when it makes
 * the segment. When the table has no room (or a probe is too long) the file is not recorded: the
 * stat family falls back to the mapping, and --stats/--trace say so.
 *
 * Safety. Nothing allocates; the only system call is a raw fstat. Entries are never removed, so a
 * slot's key never changes once written: a slot is claimed by CAS on its state word (free ->
 * claiming), its key written, then published (keyed). Times are guarded by a per-entry seqlock:
 * writers (any process) make the sequence odd with a CAS, store, and make it even again; readers
 * copy the times between two reads of an even, unchanged sequence and never block. Every wait is
 * bounded: a process killed in the middle of a claim or an update costs that one entry (its
 * readers give up and fall back to the mapping), never a hang. weft_depth is raised around the
 * updates, so a signal handler that runs meanwhile passes through every hook instead of taking the
 * entry's lock again in the same thread.
 */
#include "weft.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define FT_SHARED_ENTRIES 8192
#define FT_LOCAL_ENTRIES 512
#define FT_MAX_PROBE 128          /* a longer probe counts as "full": lookups stay bounded */
#define FT_SPIN_MAX 100000        /* bounded waits on a claim or an update in progress */
#define FT_MAGIC 0x5745465446544d31ULL /* "WEFTFTM1" */

enum { SLOT_FREE = 0, SLOT_CLAIMING = 1, SLOT_KEYED = 2 };
enum { F_BOUND = 1, F_ATIME_SET = 2 };

typedef struct ft_entry {
    _Atomic uint32_t state;      /* SLOT_*: the key is valid once SLOT_KEYED */
    _Atomic uint32_t seq;        /* seqlock over everything below: odd while a writer updates */
    _Atomic uint64_t dev, ino;
    _Atomic uint64_t flags;      /* F_BOUND: kmtime/ksize are what the kernel last said */
    _Atomic int64_t kmtime;      /* kernel mtime (ns) the times are bound to */
    _Atomic uint64_t ksize;      /* kernel size they are bound to */
    _Atomic int64_t m, a, c, b;  /* virtual times, ns since the epoch */
} ft_entry;

typedef struct ft_table {
    uint64_t magic;
    uint32_t capacity;
    _Atomic uint32_t used;
    _Atomic uint64_t dropped;    /* modifications not recorded: no room */
    ft_entry e[];
} ft_table;

static struct {
    ft_table t;
    ft_entry e[FT_LOCAL_ENTRIES];
} local_table = {.t = {.magic = FT_MAGIC, .capacity = FT_LOCAL_ENTRIES}};
/* the local entries are the table's flexible array (GNU C: a struct with one, then its storage) */
_Static_assert(offsetof(__typeof__(local_table), e) == offsetof(ft_table, e), "local entries follow the header");

static ft_table *_Atomic table = &local_table.t;
static _Atomic uint64_t recorded_here, dropped_here; /* this process's share, for --stats */

_Static_assert(sizeof(ft_table) + (size_t)FT_SHARED_ENTRIES * sizeof(ft_entry) == WEFT_FT_REGION_BYTES,
               "weft.h's WEFT_FT_REGION_BYTES is the shared table's size");

static uint64_t key_hash(uint64_t dev, uint64_t ino) {
    return weft_sm_out(ino * 0x9e3779b97f4a7c15ULL ^ dev);
}

static void cpu_relax(void) { __asm__ __volatile__("pause"); }

/* The keyed slot of (dev, ino) in t; with `insert`, claims a free one when absent (and sets
 * *claimed). NULL: absent, or (insert) no room within FT_MAX_PROBE slots. */
static ft_entry *find(ft_table *t, uint64_t dev, uint64_t ino, int insert, int *claimed) {
    uint64_t h = key_hash(dev, ino);
    for (uint32_t k = 0; k < FT_MAX_PROBE && k < t->capacity; k++) {
        ft_entry *e = &t->e[(h + k) % t->capacity];
        uint32_t st = atomic_load(&e->state);
        if (st == SLOT_FREE) {
            if (!insert) return NULL;
            if (atomic_compare_exchange_strong(&e->state, &st, SLOT_CLAIMING)) {
                atomic_store(&e->dev, dev);
                atomic_store(&e->ino, ino);
                atomic_store(&e->state, SLOT_KEYED);
                atomic_fetch_add(&t->used, 1);
                *claimed = 1;
                return e;
            }
            /* lost the claim: st now holds the winner's state; look at its key below */
        }
        for (int spin = 0; st == SLOT_CLAIMING && spin < FT_SPIN_MAX; spin++) {
            cpu_relax();
            st = atomic_load(&e->state);
        }
        if (st == SLOT_KEYED && atomic_load(&e->dev) == dev && atomic_load(&e->ino) == ino) return e;
    }
    return NULL;
}

/* ------------------------------------------------------------------ the per-entry seqlock */

typedef struct ft_snap {
    uint64_t flags, ksize;
    int64_t kmtime, m, a, c, b;
} ft_snap;

static int snap_read(ft_entry *e, ft_snap *s) {
    for (int tries = 0; tries < FT_SPIN_MAX; tries++) {
        uint32_t s1 = atomic_load_explicit(&e->seq, memory_order_acquire);
        if (s1 & 1) { cpu_relax(); continue; }
        s->flags = atomic_load_explicit(&e->flags, memory_order_relaxed);
        s->kmtime = atomic_load_explicit(&e->kmtime, memory_order_relaxed);
        s->ksize = atomic_load_explicit(&e->ksize, memory_order_relaxed);
        s->m = atomic_load_explicit(&e->m, memory_order_relaxed);
        s->a = atomic_load_explicit(&e->a, memory_order_relaxed);
        s->c = atomic_load_explicit(&e->c, memory_order_relaxed);
        s->b = atomic_load_explicit(&e->b, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&e->seq, memory_order_relaxed) == s1) return 1;
    }
    return 0;
}

static int snap_lock(ft_entry *e) {
    for (int tries = 0; tries < FT_SPIN_MAX; tries++) {
        uint32_t s = atomic_load(&e->seq);
        if (!(s & 1) && atomic_compare_exchange_weak(&e->seq, &s, s + 1)) return 1;
        cpu_relax();
    }
    return 0;
}

static void snap_write_unlock(ft_entry *e, const ft_snap *s) {
    atomic_store_explicit(&e->flags, s->flags, memory_order_relaxed);
    atomic_store_explicit(&e->kmtime, s->kmtime, memory_order_relaxed);
    atomic_store_explicit(&e->ksize, s->ksize, memory_order_relaxed);
    atomic_store_explicit(&e->m, s->m, memory_order_relaxed);
    atomic_store_explicit(&e->a, s->a, memory_order_relaxed);
    atomic_store_explicit(&e->c, s->c, memory_order_relaxed);
    atomic_store_explicit(&e->b, s->b, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->seq, 1, memory_order_release);
}

/*
 * Read-modify-write of one file's entry (made when absent): `change` edits a copy of its times
 * (fresh: the entry was just made) under the entry's lock. Returns 0 when the file could not be
 * recorded (no room, or a writer that never finished).
 */
static int update(uint64_t dev, uint64_t ino, void (*change)(ft_snap *, int fresh, const void *), const void *arg) {
    ft_table *t = atomic_load(&table);
    weft_depth++;
    int claimed = 0;
    ft_entry *e = find(t, dev, ino, 1, &claimed);
    int ok = e && snap_lock(e);
    if (ok) {
        ft_snap s;
        s.flags = atomic_load_explicit(&e->flags, memory_order_relaxed);
        s.kmtime = atomic_load_explicit(&e->kmtime, memory_order_relaxed);
        s.ksize = atomic_load_explicit(&e->ksize, memory_order_relaxed);
        s.m = atomic_load_explicit(&e->m, memory_order_relaxed);
        s.a = atomic_load_explicit(&e->a, memory_order_relaxed);
        s.c = atomic_load_explicit(&e->c, memory_order_relaxed);
        s.b = atomic_load_explicit(&e->b, memory_order_relaxed);
        change(&s, claimed, arg);
        snap_write_unlock(e, &s);
        atomic_fetch_add(&recorded_here, 1);
    } else {
        atomic_fetch_add(&t->dropped, 1);
        atomic_fetch_add(&dropped_here, 1);
    }
    weft_depth--;
    if (!ok) WEFT_TRACE("file_time", "%lx:%lu not recorded: the table is full (the mapping applies)",
                        (unsigned long)dev, (unsigned long)ino);
    return ok;
}

static int64_t virtual_now(void) { return (int64_t)(weft_cfg.real_base_ns + weft_mono_peek()); }

/* ------------------------------------------------------------------ recording */

/* A modification seen by a hook: the writer's now, bound at the next stat. */
static void set_modified(ft_snap *s, int fresh, const void *arg) {
    int64_t now = *(const int64_t *)arg;
    s->m = s->c = now;
    if (fresh) s->b = now;
    s->flags &= ~(uint64_t)F_BOUND;
}

static void record_modified(const struct stat *st) {
    int64_t now = virtual_now();
    if (update(st->st_dev, st->st_ino, set_modified, &now))
        WEFT_TRACE("file_time", "%lx:%lu modified at %ld ns", (unsigned long)st->st_dev,
                   (unsigned long)st->st_ino, (long)now);
}

static int regular_fd(int fd, struct stat *st) {
    return fd >= 0 && weft_real_syscall(SYS_fstat, fd, st, 0, 0, 0, 0) == 0 && S_ISREG(st->st_mode);
}

ssize_t weft_ft_wrote(int fd, ssize_t rc) {
    if (rc <= 0 || !weft_engaged()) return rc; /* fds 0-2 too: `cmd > file` writes through them */
    int saved = errno;
    struct stat st;
    if (regular_fd(fd, &st)) record_modified(&st);
    errno = saved;
    return rc;
}

void weft_ft_modified(const struct stat *st) {
    if (S_ISREG(st->st_mode) && weft_engaged()) record_modified(st);
}

/* Does the table know this file? (an O_CREAT open of a file it knows did not create it) */
static int known(const struct stat *st) {
    int unused = 0;
    return find(atomic_load(&table), st->st_dev, st->st_ino, 0, &unused) != NULL;
}

int weft_ft_opened(int fd, int flags) {
    if (fd < 0 || !(flags & (O_CREAT | O_TRUNC)) || !weft_engaged()) return fd;
    int saved = errno;
    struct stat st;
    /* O_TRUNC modifies the file; O_CREAT alone only when it made it: an empty file the table does
     * not know yet, changed during the run (its kernel ctime is the creation's) */
    if (regular_fd(fd, &st) &&
        ((flags & O_TRUNC) || (st.st_size == 0 && !known(&st) &&
                               (uint64_t)st.st_ctim.tv_sec * 1000000000ULL + (uint64_t)st.st_ctim.tv_nsec >=
                                   weft_run_start_real_ns)))
        record_modified(&st);
    errno = saved;
    return fd;
}

typedef struct explicit_arg {
    int64_t a, m, now;
    int set_a;
    const struct stat *st;
} explicit_arg;

static void set_explicit(ft_snap *s, int fresh, const void *arg) {
    const explicit_arg *x = arg;
    if (fresh) s->b = x->now;
    if (x->set_a) { s->a = x->a; s->flags |= F_ATIME_SET; }
    s->m = x->m;
    s->c = x->now;
    /* the kernel now holds exactly what was set: bound to it at once */
    s->flags |= F_BOUND;
    s->kmtime = (int64_t)x->st->st_mtim.tv_sec * 1000000000LL + x->st->st_mtim.tv_nsec;
    s->ksize = (uint64_t)x->st->st_size;
}

void weft_ft_times_set(const struct stat *after, const int64_t *a, int64_t m) {
    explicit_arg x = {.a = a ? *a : 0, .set_a = a != NULL, .m = m, .now = virtual_now(), .st = after};
    if (update(after->st_dev, after->st_ino, set_explicit, &x))
        WEFT_TRACE("file_time", "%lx:%lu times set, mtime %ld ns", (unsigned long)after->st_dev,
                   (unsigned long)after->st_ino, (long)x.m);
}

/* ------------------------------------------------------------------ reading */

typedef struct bind_arg {
    int64_t kmtime, now;
    uint64_t ksize;
    ft_snap *result;             /* the times as they stand after the bind */
    int stamped;                 /* set: an unseen modification was dated by this bind */
} bind_arg;

/*
 * Under the entry's lock: an entry already bound to what the kernel says is left alone (another
 * reader got there first); an unbound one (a modification a hook saw) is bound as it is; one bound
 * to something else, or a new one, was modified unseen: stamped with the reader's now.
 */
static void bind(ft_snap *s, int fresh, const void *arg) {
    bind_arg *x = (bind_arg *)arg;
    int current = (s->flags & F_BOUND) && s->kmtime == x->kmtime && s->ksize == x->ksize;
    if (!current || fresh) {
        if (fresh || (s->flags & F_BOUND)) { s->m = s->c = x->now; x->stamped = 1; }
        if (fresh) s->b = x->now;
        s->flags |= F_BOUND;
        s->kmtime = x->kmtime;
        s->ksize = x->ksize;
    }
    *x->result = *s;
}

int weft_ft_lookup(uint64_t dev, uint64_t ino, int64_t kmtime, uint64_t ksize, int modified_in_run,
                   weft_ft_times *out) {
    int unused = 0;
    ft_entry *e = find(atomic_load(&table), dev, ino, 0, &unused);
    ft_snap s;
    if (e && !snap_read(e, &s)) return 0;
    if (!e || !(s.flags & F_BOUND) || s.kmtime != kmtime || s.ksize != ksize) {
        if (!modified_in_run) return 0;
        bind_arg x = {.kmtime = kmtime, .ksize = ksize, .now = virtual_now(), .result = &s};
        if (!update(dev, ino, bind, &x)) return 0;
        if (x.stamped)
            WEFT_TRACE("file_time", "%lx:%lu modified unseen: dated %ld ns by this stat", (unsigned long)dev,
                       (unsigned long)ino, (long)x.now);
    }
    out->m = s.m;
    out->c = s.c;
    out->a = (s.flags & F_ATIME_SET) ? s.a : s.m;
    out->b = s.b;
    return 1;
}

/* ------------------------------------------------------------------ the shared table */

/*
 * The run segment's region is mapped (proc_sched.c, during configuration or at the first
 * fork/spawn). `created`: this process made the segment, so the region is all zeros: initialise
 * it and move this process's local entries in (their times unchanged). Other processes have
 * nothing to move: they found the segment at configuration, before recording anything.
 */
void weft_ft_attach(void *region, int created) {
    ft_table *shared = region;
    if (created) {
        shared->capacity = FT_SHARED_ENTRIES;
        shared->magic = FT_MAGIC;
        weft_depth++;
        for (uint32_t i = 0; i < FT_LOCAL_ENTRIES; i++) {
            ft_entry *from = &local_table.e[i];
            ft_snap s;
            if (atomic_load(&from->state) != SLOT_KEYED || !snap_read(from, &s)) continue;
            int unused = 0;
            ft_entry *to = find(shared, atomic_load(&from->dev), atomic_load(&from->ino), 1, &unused);
            if (to && snap_lock(to)) snap_write_unlock(to, &s);
        }
        weft_depth--;
    } else if (shared->magic != FT_MAGIC) {
        return;
    }
    atomic_store(&table, shared);
}

void weft_ft_stats(void) {
    uint64_t rec = atomic_load(&recorded_here);
    if (!rec && !atomic_load(&dropped_here)) return;
    ft_table *t = atomic_load(&table);
    weft_errline("[weft] file times: %lu update(s) by this process; the %s table holds %u of %u file(s);"
                 " %lu update(s) found no room (those files read through the mapping)",
                 (unsigned long)rec, t == &local_table.t ? "process-local" : "run-wide",
                 (unsigned)atomic_load(&t->used), (unsigned)t->capacity, (unsigned long)atomic_load(&t->dropped));
}
