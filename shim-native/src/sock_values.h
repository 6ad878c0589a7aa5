/*
 * sock_values.h - the values a program passes through the socket API and reads back, in the forms
 * both socket emulations use: an IPv4 address into the program's sockaddr, and the int and timeout
 * options of setsockopt/getsockopt. One definition for UDP (hook_net.c) and TCP (hook_tcp.c).
 * Nothing allocates; each returns as the real call would (-1 with errno on a bad length or value).
 */
#ifndef WEFT_SOCK_VALUES_H
#define WEFT_SOCK_VALUES_H

#include <stdint.h>
#include <sys/socket.h>

/* Writes AF_INET ip:port into a (truncated to *alen, as the kernel does) and sets *alen to its
 * full size; nothing when the program passed no address. */
void weft_fill_sockaddr(struct sockaddr *a, socklen_t *alen, uint32_t ip, uint16_t port);

/* SO_RCVTIMEO/SO_SNDTIMEO from setsockopt: the struct timeval at v as ns (0 = wait forever), or -1
 * with EINVAL (too short) or EDOM (microseconds out of range); *ns is changed only on success. */
int weft_timeout_opt_in(const void *v, socklen_t len, uint64_t *ns);

/* SO_RCVTIMEO/SO_SNDTIMEO for getsockopt: ns as a struct timeval at v, or -1 with EINVAL. */
int weft_timeout_opt_out(void *v, socklen_t *len, uint64_t ns);

/* An int option for getsockopt: x at v, or -1 with EINVAL when the room is smaller than an int. */
int weft_int_opt_out(void *v, socklen_t *len, int x);

#endif
