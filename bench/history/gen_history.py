#!/usr/bin/env python3
"""Writes a register/kv history for bench/history-bench.sh: a real register per key whose every operation takes
effect at a seeded random instant between its invocation and its completion (so it is linearizable), optionally
with indeterminate (info) writes and, with --stale, one stale read appended at the end (not linearizable).
Usage: gen_history.py OUT OPS CLIENTS KEYS SEED [--info PERMILLE] [--stale]"""
import random
import sys


def main():
    out, ops, clients, keys, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    info = int(sys.argv[sys.argv.index("--info") + 1]) if "--info" in sys.argv else 0
    rnd = random.Random(seed)
    state = {}
    phase = [0] * clients  # 0 idle, 1 invoked, 2 took effect
    op = [None] * clients
    started, t, nxt = 0, 0, 1
    busy = set()
    lines = []

    def ev(c, typ, f, key, value, time):
        k = "" if keys == 1 else ',"key":"k%d"' % key
        v = "" if value is None else ',"value":%s' % value
        lines.append('{"process":%d,"type":"%s","f":"%s"%s%s,"time":%d}\n' % (c, typ, f, k, v, time))

    while started < ops or busy:
        t += 1 + rnd.randrange(3)
        c = rnd.randrange(clients)
        if phase[c] == 0:
            if started == ops:
                continue
            started += 1
            key = rnd.randrange(keys)
            write = rnd.random() < 0.5
            value = str(nxt) if write else None
            nxt += write
            indeterminate = write and info and rnd.randrange(1000) < info
            # an indeterminate write took effect or not (a timeout after, or before, the write landed)
            op[c] = [write, key, value, indeterminate, not indeterminate or rnd.random() < 0.5]
            ev(c, "invoke", "write" if write else "read", key, value, t)
            phase[c] = 1
            busy.add(c)
        elif phase[c] == 1:
            write, key, value, indeterminate, effect = op[c]
            if write:
                if effect:
                    state[key] = value
            else:
                op[c][2] = state.get(key, "null")
            phase[c] = 2
        else:
            write, key, value, indeterminate, effect = op[c]
            if indeterminate:
                ev(c, "info", "write", key, None, t)
            else:
                ev(c, "ok", "write" if write else "read", key, None if write else value, t)
            phase[c] = 0
            busy.discard(c)
    if "--stale" in sys.argv:
        t += 10
        ev(0, "invoke", "write", 0, '"last"', t); ev(0, "ok", "write", 0, None, t + 5)
        ev(1, "invoke", "read", 0, None, t + 10); ev(1, "ok", "read", 0, "1", t + 15)
    with open(out, "w") as f:
        f.writelines(lines)


main()
