/**
 * The optional shared token of multi-host runs and the challenge/answer that proves it on a TCP connection before
 * the first frame (HMAC-SHA256, constant-time comparison).
 */
package dev.weft.broker.auth;
