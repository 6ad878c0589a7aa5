# A child holds a multiprocessing.Lock while a threaded parent waits for it: issue 18, class 1.
import multiprocessing as mp, threading, time
def child(lock, ev):
    with lock:
        ev.set()
        time.sleep(0.5)
        print("child released", flush=True)
if __name__ == "__main__":
    lock, ev = mp.Lock(), mp.Event()
    t = threading.Thread(target=lambda: print("thread ticks", flush=True))
    t.start()
    c = mp.Process(target=child, args=(lock, ev))
    c.start()
    ev.wait()
    with lock:
        print("parent got lock", time.time(), flush=True)
    c.join(); t.join()
    print("exit", c.exitcode)
