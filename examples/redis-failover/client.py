#!/usr/bin/env python3
"""A client of the Redis failover study (docs/case-studies/redis.md).

It adds distinct elements to one Redis set, one at a time, and prints every invocation and its outcome as a
history event (docs/history.md: `WEFT-HISTORY {json}` on stdout), so `weft run --record` collects them and
`weft check history --model set` can tell whether every acknowledged add is still there at the end. It finds the
primary by asking the Sentinels, as a real Sentinel-aware client does, and asks again only when its connection
fails. After ADD_SECONDS of adding it waits SETTLE_SECONDS and reads the whole set once, asking the Sentinels for
the primary up to READ_TRIES times (a client cut off from every Sentinel gives up after that).

Times are CLOCK_MONOTONIC, which under weft is the node's virtual clock.
"""
import json
import os
import socket
import sys
import time

SENTINELS = [("127.0.0.4", 26379), ("127.0.0.5", 26379), ("127.0.0.6", 26379)]
KEY = "weft-study"


def history(process, kind, f, value=None):
    event = {"process": process, "type": kind, "f": f}
    if value is not None:
        event["value"] = value
    event["time"] = time.monotonic_ns()
    sys.stdout.write("WEFT-HISTORY " + json.dumps(event, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def command(*words):
    out = "*%d\r\n" % len(words)
    for w in words:
        b = str(w)
        out += "$%d\r\n%s\r\n" % (len(b.encode()), b)
    return out.encode()


class Reply:
    """Reads one RESP reply from a socket (enough of RESP for SADD, SMEMBERS and SENTINEL replies)."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def read(self):
        line = self._line()
        kind, rest = line[:1], line[1:].decode()
        if kind == b"+":
            return rest
        if kind == b"-":
            raise RuntimeError(rest)
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            return None if n < 0 else self._exact(n).decode()
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise ConnectionError("not RESP: %r" % line)


def connect(addr, timeout):
    s = socket.create_connection(addr, timeout=timeout)
    s.settimeout(timeout)
    return s, Reply(s)


def find_primary(timeout):
    for addr in SENTINELS:
        try:
            s, r = connect(addr, timeout)
            try:
                s.sendall(command("SENTINEL", "get-master-addr-by-name", "mymaster"))
                answer = r.read()
            finally:
                s.close()
            if answer:
                return answer[0], int(answer[1])
        except (OSError, ConnectionError, RuntimeError):
            continue
    return None


def main():
    process = int(os.environ.get("CLIENT_ID", os.environ.get("WEFT_NODE_ID", "0")))
    add_seconds = float(os.environ.get("ADD_SECONDS", "30"))
    settle_seconds = float(os.environ.get("SETTLE_SECONDS", "15"))
    pause = float(os.environ.get("ADD_PAUSE_SECONDS", "0.1"))
    timeout = float(os.environ.get("CLIENT_TIMEOUT_SECONDS", "1"))
    read_tries = int(os.environ.get("READ_TRIES", "50"))
    start = time.monotonic()
    conn = None
    value = process * 1000000
    while time.monotonic() - start < add_seconds:
        if conn is None:
            primary = find_primary(timeout)
            if primary is None:
                time.sleep(pause)
                continue
            try:
                conn = connect(primary, timeout)
            except OSError:
                time.sleep(pause)
                continue
        value += 1
        history(process, "invoke", "add", value)
        try:
            conn[0].sendall(command("SADD", KEY, value))
            conn[1].read()
            history(process, "ok", "add", value)
        except RuntimeError:  # an error reply (READONLY from a demoted primary): the add did not happen
            history(process, "fail", "add", value)
            conn[0].close()
            conn = None
        except (OSError, ConnectionError):  # a timeout or a reset: it may or may not have happened
            history(process, "info", "add", value)
            conn[0].close()
            conn = None
        time.sleep(pause)
    if conn is not None:
        conn[0].close()
    time.sleep(settle_seconds)
    for _ in range(read_tries):
        primary = find_primary(timeout)
        if primary is not None:
            try:
                s, r = connect(primary, timeout)
                history(process, "invoke", "read")
                s.sendall(command("SMEMBERS", KEY))
                members = sorted(int(m) for m in r.read())
                history(process, "ok", "read", members)
                s.close()
                print("read %d element(s) from %s:%d" % (len(members), primary[0], primary[1]))
                return 0
            except (OSError, ConnectionError, RuntimeError):
                history(process, "info", "read")
        time.sleep(1)
    print("no primary to read from", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
