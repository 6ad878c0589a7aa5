# multiprocessing.Pool used with `with` (exit terminates the pool): issue 18, class 1.
import multiprocessing as mp, random, os
def work(x):
    return (x, x * x, random.random())
if __name__ == "__main__":
    with mp.Pool(2) as p:
        print(p.map(work, range(6)))
