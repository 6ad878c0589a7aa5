/*
 * cpu_stat.c - which CPU, and how much CPU time, through every door a program has (issue 18):
 * sched_getcpu(), getcpu(), syscall(SYS_getcpu), times(), getrusage(), and the process's own
 * /proc/self/stat (open and fopen), /proc/<pid>/stat, /proc/thread-self/stat,
 * /proc/self/task/<tid>/stat, /proc/self/schedstat and /proc/uptime, after some busy work and a
 * one-second sleep, and from a second thread its own stat and the main thread's
 * (/proc/self/task/<main tid>/stat). Prints the values, then one verdict line per relation the
 * shim promises:
 *   stat's utime+stime = times()'s tms_utime+tms_stime at that moment (the open is one clock
 *   reading later, 1 us, so at most one tick more), cutime/cstime are times()'s, the processor
 *   field is sched_getcpu()'s, schedstat's ns agree with the stat's ticks, uptime - starttime
 *   is the CPU time (ps's elapsed time), getrusage's utime is times()'s.
 * "VIOLATED" on a verdict line means a relation does not hold (natively it may: the kernel's
 * counters move on their own; the launcher test runs it under the shim).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

typedef struct stat_fields {
    unsigned long long utime, stime, cutime, cstime, starttime;
    long processor;
    int ok;
} stat_fields;

/* Fields 14-17, 22 and 39 of a stat line (proc(5)), counted from the command name's last ')'. */
static stat_fields parse_stat(const char *line) {
    stat_fields s = {0};
    const char *p = strrchr(line, ')');
    if (!p) return s;
    p += 2; /* field 3 */
    for (int field = 3; *p && field <= 39; field++) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (field == 14) s.utime = v;
        if (field == 15) s.stime = v;
        if (field == 16) s.cutime = v;
        if (field == 17) s.cstime = v;
        if (field == 22) s.starttime = v;
        if (field == 39) { s.processor = (long)v; s.ok = 1; }
        p = strchr(p, ' ');
        if (!p) break;
        p++;
    }
    return s;
}

/* The whole of a small file read with open/read (the hooked open family). */
static int read_with_open(const char *path, char *buf, size_t cap) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { perror(path); exit(2); }
    ssize_t n, len = 0;
    while ((n = read(fd, buf + len, cap - 1 - (size_t)len)) > 0) len += n;
    close(fd);
    buf[len] = '\0';
    return (int)len;
}

static void read_with_fopen(const char *path, char *buf, size_t cap) {
    FILE *f = fopen(path, "r");
    if (!f || !fgets(buf, (int)cap, f)) { perror(path); exit(2); }
    fclose(f);
}

static const char *verdict(int holds) { return holds ? "holds" : "VIOLATED"; }

static long main_tid;

/* A second thread reads its own stat and the main thread's: field 1 is the tid named, the CPU
 * numbers are the process's. */
static void *other_thread(void *arg) {
    (void)arg;
    char own[2048], main_line[2048], path[96];
    long tid = (long)syscall(SYS_gettid);
    read_with_open("/proc/thread-self/stat", own, sizeof own);
    snprintf(path, sizeof path, "/proc/self/task/%ld/stat", main_tid);
    read_with_open(path, main_line, sizeof main_line);
    stat_fields a = parse_stat(own), b = parse_stat(main_line);
    printf("thread: own stat names its tid: %s\n", verdict(strtol(own, NULL, 10) == tid));
    printf("thread: the main thread's stat names it: %s\n", verdict(strtol(main_line, NULL, 10) == main_tid));
    printf("thread: processor %ld %ld sched_getcpu %d, starttime %llu %llu\n", a.processor, b.processor,
           sched_getcpu(), a.starttime, b.starttime);
    return NULL;
}

int main(void) {
    volatile unsigned long x = 0;
    for (unsigned long i = 0; i < 30000000UL; i++) x += i * i; /* real CPU time the shim hides */
    sleep(1);

    unsigned cpu = 99, node = 99, scpu = 99, snode = 99;
    int gc = getcpu(&cpu, &node);
    long sc = syscall(SYS_getcpu, &scpu, &snode, NULL);
    int sched_cpu = sched_getcpu();
    printf("sched_getcpu %d getcpu %d cpu %u node %u syscall %ld cpu %u node %u\n", sched_cpu, gc, cpu, node,
           sc, scpu, snode);

    struct tms t;
    clock_t elapsed = times(&t);
    char line[2048];
    read_with_open("/proc/self/stat", line, sizeof line);
    stat_fields s = parse_stat(line);
    printf("times %ld utime %ld stime %ld cutime %ld cstime %ld\n", (long)elapsed, (long)t.tms_utime,
           (long)t.tms_stime, (long)t.tms_cutime, (long)t.tms_cstime);
    printf("stat utime %llu stime %llu cutime %llu cstime %llu starttime %llu processor %ld\n", s.utime, s.stime,
           s.cutime, s.cstime, s.starttime, s.processor);
    unsigned long long times_cpu = (unsigned long long)(t.tms_utime + t.tms_stime);
    unsigned long long stat_cpu = s.utime + s.stime;
    printf("stat cpu = times cpu: %s\n", verdict(s.ok && stat_cpu >= times_cpu && stat_cpu <= times_cpu + 1));
    printf("stat children = times children: %s\n",
           verdict(s.cutime == (unsigned long long)t.tms_cutime && s.cstime == (unsigned long long)t.tms_cstime));
    printf("stat processor = sched_getcpu: %s\n", verdict(s.processor == sched_cpu));

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long long ru_ticks = ((long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec) / 10000;
    printf("getrusage utime %ld.%06ld stime %ld.%06ld minflt %ld\n", (long)ru.ru_utime.tv_sec,
           (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec, ru.ru_minflt);
    printf("getrusage = stat: %s\n", verdict(ru_ticks >= (long long)s.utime && ru_ticks <= (long long)s.utime + 1));

    /* the same file under its other names, and through stdio */
    char path[128];
    const char *names[4];
    char pid_path[64], task_path[96];
    snprintf(pid_path, sizeof pid_path, "/proc/%ld/stat", (long)getpid());
    snprintf(task_path, sizeof task_path, "/proc/self/task/%ld/stat", (long)syscall(SYS_gettid));
    names[0] = pid_path;
    names[1] = "/proc/thread-self/stat";
    names[2] = task_path;
    names[3] = "/proc/self/stat (fopen)";
    for (int i = 0; i < 4; i++) {
        if (i < 3) {
            read_with_open(names[i], line, sizeof line);
        } else {
            read_with_fopen("/proc/self/stat", line, sizeof line);
        }
        stat_fields o = parse_stat(line);
        snprintf(path, sizeof path, "%s", i == 0 ? "/proc/<pid>/stat" : i == 2 ? "/proc/self/task/<tid>/stat" : names[i]);
        printf("%s utime %llu starttime %llu processor %ld: %s\n", path, o.utime, o.starttime, o.processor,
               verdict(o.ok && o.utime >= s.utime && o.utime <= s.utime + 1 && o.starttime == s.starttime &&
                       o.processor == s.processor));
    }

    /* schedstat: CPU ns, wait ns, slices; uptime: seconds since boot, idle */
    char sched[256], up[256];
    read_with_open("/proc/self/schedstat", sched, sizeof sched);
    unsigned long long run_ns = strtoull(sched, NULL, 10);
    printf("schedstat %s", sched);
    printf("schedstat = stat: %s\n", verdict(run_ns / 10000000 >= s.utime && run_ns / 10000000 <= s.utime + 1));
    read_with_open("/proc/uptime", up, sizeof up);
    double uptime = strtod(up, NULL);
    printf("uptime %s", up);
    double etime = uptime - (double)s.starttime / 100;
    printf("uptime - starttime = cpu: %s\n", verdict(etime * 100 >= (double)s.utime - 1 && etime * 100 <= (double)s.utime + 2));

    main_tid = (long)syscall(SYS_gettid);
    pthread_t th;
    if (pthread_create(&th, NULL, other_thread, NULL) != 0 || pthread_join(th, NULL) != 0) return 3;
    return 0;
}
