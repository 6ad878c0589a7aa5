/*
 * super_join.c - a supervisor started by the shim's exec hook for a static image exec'd inside a
 * shimmed tree (exec_static.c) joins that tree instead of starting one of its own
 * (docs/shim.md "Static images exec'd inside a dynamic tree").
 *
 * The exec'ing process's WEFT_PROC (proc_tree.c: `<id>:<clock>:<run start>:<run segment>:<slot>`,
 * 16 hex digits each) gives the target its place: the id (so its streams are the ones the image
 * would draw under the shim), the clock it starts from and the run's start (file times). When the
 * target is gone, its clock is written into the slot of the process that exec'd (our pid: the
 * supervisor replaced that image), so the parent learns it when it reaps us, as it learns a
 * shimmed child's (proc_sched.c's weft_pt_reaped).
 *
 * The run token: the exec carried it over (a spawned image waits for its first turn); the target's
 * sleeps hand it on and wait for their turn like a shimmed process's, and the supervisor hands it
 * on when the target is gone (super_turns.c).
 */
#include "super.h"
#include "../proc_seg.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

super_join_state super_join;

void super_join_configure(void) {
    const char *v = getenv("WEFT_PROC");
    uint64_t f[WEFT_PROC_FIELDS];
    if (!weft_proc_value_parse(v, f)) return;
    super_join.active = 1;
    super_join.id = f[0];
    super_join.mono_ns = f[1];
    super_join.run_start_ns = f[2];
    super_join.segment = f[3];
    super_join.slot = f[4];
}

/* The run segment, mapped once (the turns of super_turns.c, the store at exit). NULL when there is
 * none (the process that exec'd had never forked: no segment yet, and no parent in the tree reads a
 * slot). */
static pt_seg *map_segment(void) {
    if (!super_join.active || !super_join.segment || super_join.slot >= PT_SLOTS) return NULL;
    for (int tmp = 0; tmp < 2; tmp++) {
        char path[64];
        weft_fmt(path, sizeof path, "%s/weft-run-%lx", tmp ? "/tmp" : "/dev/shm", (unsigned long)super_join.segment);
        int fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) continue;
        void *m = mmap(NULL, sizeof(pt_seg), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (m == MAP_FAILED) return NULL;
        pt_seg *seg = m;
        if (seg->magic == PT_MAGIC) return seg;
        munmap(m, sizeof(pt_seg));
        return NULL;
    }
    return NULL;
}

pt_seg *super_join_segment(void) {
    static pt_seg *seg;
    static int tried;
    if (!tried) {
        tried = 1;
        seg = map_segment();
    }
    return seg;
}

void super_join_publish(uint64_t mono_ns) {
    pt_seg *seg = super_join_segment();
    if (!seg) return;
    pt_slot *s = &seg->slots[super_join.slot];
    /* only our own slot (the pid the exec kept); the maximum, as a clock never goes back */
    if (atomic_load(&s->pid) == (int32_t)getpid()) {
        uint64_t seen = atomic_load(&s->mono);
        while (mono_ns > seen && !atomic_compare_exchange_weak(&s->mono, &seen, mono_ns)) {}
    }
}
