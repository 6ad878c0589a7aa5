/* sfagent: the guest's PID 1 after /init. It reads the seed-derived choice plan from the kernel command
 * line (sf.seed, sf.req, sf.pace, sf.kill, sf.restart, sf.salt), starts the echo server and the workload
 * client, kills the server (SIGKILL) sf.kill ms after the client started, restarts it sf.restart ms after
 * it died, runs the checker when the client is done, reports every step as an event and powers off.
 * Guest time is virtual (QEMU icount), so the sleeps below land on the same instruction in a replay. */
#include "sfevent.h"
#include <signal.h>
#include <stdlib.h>
#include <sys/reboot.h>
#include <sys/wait.h>

static const char *plan_keys[] = {"seed", "req", "pace", "kill", "restart", "salt"};
enum { SEED, REQ, PACE, KILL, RESTART, SALT, NKEYS };

static void power_off(void) {
    sf_emit("agent", "\"e\":\"end\"");
    sync();
    reboot(RB_POWER_OFF);
    for (;;) pause();
}

/* Parses "sf.KEY=DIGITS" words of /proc/cmdline into plan[]; returns how many keys were found. */
static int read_plan(unsigned long long plan[NKEYS]) {
    char buf[2048];
    FILE *f = fopen("/proc/cmdline", "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    int found = 0;
    for (char *w = strtok(buf, " \n"); w; w = strtok(NULL, " \n")) {
        if (strncmp(w, "sf.", 3) != 0) continue;
        for (int k = 0; k < NKEYS; k++) {
            size_t kl = strlen(plan_keys[k]);
            if (strncmp(w + 3, plan_keys[k], kl) == 0 && w[3 + kl] == '=') {
                plan[k] = strtoull(w + 4 + kl, NULL, 10);
                found |= 1 << k;
            }
        }
    }
    return __builtin_popcount((unsigned)found);
}

/* Forks and execs argv; for the server, waits for its ready byte on a pipe wired to its fd 3. */
static pid_t spawn(char *const argv[], int wait_ready) {
    int p[2] = {-1, -1};
    if (wait_ready && pipe(p) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        if (wait_ready) {
            close(p[0]);
            dup2(p[1], 3);
            close(p[1]);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    if (wait_ready) {
        close(p[1]);
        char b;
        if (read(p[0], &b, 1) != 1) pid = -pid; /* died before listening */
        close(p[0]);
    }
    return pid;
}

static void report_exit(const char *target, int gen, pid_t pid) {
    int st = 0;
    if (waitpid(pid, &st, 0) != pid) {
        sf_emit("agent", "\"e\":\"exit\",\"target\":\"%s\",\"gen\":%d,\"lost\":true", target, gen);
    } else if (WIFSIGNALED(st)) {
        sf_emit("agent", "\"e\":\"exit\",\"target\":\"%s\",\"gen\":%d,\"signal\":%d", target, gen, WTERMSIG(st));
    } else {
        sf_emit("agent", "\"e\":\"exit\",\"target\":\"%s\",\"gen\":%d,\"status\":%d", target, gen, WEXITSTATUS(st));
    }
}

int main(void) {
    unsigned long long plan[NKEYS] = {0};
    if (read_plan(plan) != NKEYS) {
        sf_emit("agent", "\"e\":\"plan_error\",\"reason\":\"missing sf.* keys on the kernel command line\"");
        power_off();
    }
    sf_emit("agent", "\"e\":\"boot\",\"seed\":%llu,\"req\":%llu,\"pace_ms\":%llu,\"kill_at_ms\":%llu,"
            "\"restart_after_ms\":%llu", plan[SEED], plan[REQ], plan[PACE], plan[KILL], plan[RESTART]);

    char *server1[] = {"/bin/sfserver", "1", NULL};
    pid_t server = spawn(server1, 1);
    if (server <= 0) {
        sf_emit("agent", "\"e\":\"start_failed\",\"target\":\"server\",\"gen\":1");
        power_off();
    }
    sf_emit("agent", "\"e\":\"started\",\"target\":\"server\",\"gen\":1");

    char req[24], pace[24], salt[24];
    snprintf(req, sizeof req, "%llu", plan[REQ]);
    snprintf(pace, sizeof pace, "%llu", plan[PACE]);
    snprintf(salt, sizeof salt, "%llu", plan[SALT]);
    char *client_argv[] = {"/bin/sfclient", req, pace, salt, NULL};
    pid_t client = spawn(client_argv, 0);
    sf_emit("agent", "\"e\":\"started\",\"target\":\"client\",\"gen\":1");

    /* The planned failure. */
    sf_sleep_ms((long)plan[KILL]);
    kill(server, SIGKILL);
    sf_emit("agent", "\"e\":\"kill\",\"target\":\"server\",\"gen\":1,\"signal\":9");
    report_exit("server", 1, server);
    sf_sleep_ms((long)plan[RESTART]);
    char *server2[] = {"/bin/sfserver", "2", NULL};
    server = spawn(server2, 1);
    if (server <= 0) {
        sf_emit("agent", "\"e\":\"start_failed\",\"target\":\"server\",\"gen\":2");
    } else {
        sf_emit("agent", "\"e\":\"restart\",\"target\":\"server\",\"gen\":2");
    }

    report_exit("client", 1, client);
    char *check_argv[] = {"/bin/sfcheck", req, NULL};
    pid_t checker = spawn(check_argv, 0);
    report_exit("checker", 1, checker);
    if (server > 0) {
        kill(server, SIGTERM);
        report_exit("server", 2, server);
    }
    power_off();
}
