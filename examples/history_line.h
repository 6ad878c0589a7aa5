/* history_line.h: one history event per line on stdout, for weft run to collect into the history
 * beside the recording (docs/history.md): "WEFT-HISTORY {json}". The time is the caller's
 * CLOCK_MONOTONIC, which under the shim is the node's virtual clock. Each line goes out in one
 * write(2), so lines of concurrent threads never interleave and none waits in a stdio buffer. */
#ifndef HISTORY_LINE_H
#define HISTORY_LINE_H

#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* type: "invoke", "ok", "fail" or "info"; f: "read", "write", "cas", "add" or "append";
 * value_json: the value as JSON text, or NULL for none. */
static inline void history_event(int process, const char *type, const char *f, const char *value_json) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long t = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
    char line[512];
    int n = snprintf(line, sizeof line, "WEFT-HISTORY {\"process\":%d,\"type\":\"%s\",\"f\":\"%s\"%s%s,\"time\":%llu}\n",
                     process, type, f, value_json ? ",\"value\":" : "", value_json ? value_json : "", t);
    if (n <= 0 || n >= (int)sizeof line) return;
    for (int off = 0; off < n;) {
        ssize_t w = write(1, line + off, (size_t)(n - off));
        if (w <= 0) return;
        off += (int)w;
    }
}

#endif
