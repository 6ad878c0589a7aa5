# multiprocessing.Pool ended with terminate() while idle workers wait for tasks.
import multiprocessing as mp, random
def work(x):
    return (x, random.random())
if __name__ == "__main__":
    p = mp.Pool(2)
    print(p.map(work, range(4)))
    p.terminate()
    p.join()
    print("terminated")
