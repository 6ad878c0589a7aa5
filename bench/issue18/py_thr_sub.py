# Threads that each start a subprocess and print its output plus their own randoms.
import threading, subprocess, random, sys
out = []
def worker(i):
    r = subprocess.run(["sh", "-c", "echo $$ $RANDOM; date +%s.%N"], capture_output=True, text=True).stdout.split()
    print(i, random.randint(0, 999), r, flush=True)
ts = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
[t.start() for t in ts]; [t.join() for t in ts]
