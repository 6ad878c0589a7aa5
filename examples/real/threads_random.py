"""Threads that sleep and draw random numbers; prints the interleaving it observed.

Under `weft run` the output is a function of the seed: the sleeps are virtual-time waits, the
random module is seeded from the shim's getrandom stream, and the scheduler decides which thread
runs after each wait.  Run natively it differs from run to run.
"""
import os
import random
import threading
import time
import uuid

events = []
lock = threading.Lock()


def worker(name, rounds):
    for k in range(rounds):
        time.sleep(random.random() / 50)
        with lock:
            events.append("%s:%d:%d" % (name, k, random.randrange(1000)))


threads = [threading.Thread(target=worker, args=("t%d" % i, 4)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(" ".join(events))
print("uuid", uuid.uuid4(), "urandom", os.urandom(4).hex(), "time", repr(time.time()))
