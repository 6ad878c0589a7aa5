/*
 * sock_values.c - see sock_values.h. The same conversions the UDP and the TCP emulation each had.
 */
#include "sock_values.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/time.h>

void weft_fill_sockaddr(struct sockaddr *a, socklen_t *alen, uint32_t ip, uint16_t port) {
    if (!a || !alen) return;
    struct sockaddr_in in = {.sin_family = AF_INET, .sin_port = htons(port)};
    in.sin_addr.s_addr = htonl(ip);
    socklen_t n = *alen < (socklen_t)sizeof in ? *alen : (socklen_t)sizeof in;
    memcpy(a, &in, n);
    *alen = sizeof in;
}

static int fail(int e) { errno = e; return -1; }

int weft_timeout_opt_in(const void *v, socklen_t len, uint64_t *ns) {
    if (len < (socklen_t)sizeof(struct timeval)) return fail(EINVAL);
    const struct timeval *tv = v;
    if (tv->tv_usec < 0 || tv->tv_usec >= 1000000) return fail(EDOM);
    /* a negative timeout is no timeout, as the kernel reads it */
    *ns = tv->tv_sec < 0 ? 0 : (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000ULL;
    return 0;
}

int weft_timeout_opt_out(void *v, socklen_t *len, uint64_t ns) {
    if (*len < (socklen_t)sizeof(struct timeval)) return fail(EINVAL);
    struct timeval tv = {(time_t)(ns / 1000000000ULL), (suseconds_t)(ns % 1000000000ULL / 1000)};
    memcpy(v, &tv, sizeof tv);
    *len = sizeof tv;
    return 0;
}

int weft_int_opt_out(void *v, socklen_t *len, int x) {
    if (*len < (socklen_t)sizeof(int)) return fail(EINVAL);
    memcpy(v, &x, sizeof x);
    *len = sizeof x;
    return 0;
}
