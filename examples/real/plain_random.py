"""Single-threaded randomness and time: random, hash randomisation, uuid, urandom, clocks, PID."""
import os, random, time, uuid, tempfile
print(random.random(), random.randrange(10**9), hash("weft"), uuid.uuid4(), os.urandom(4).hex())
print(time.time(), time.monotonic(), os.getpid(), id(object()) % 4096, tempfile.mktemp())
