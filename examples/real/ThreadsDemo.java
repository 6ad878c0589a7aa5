import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Three threads sleep and draw random numbers into a shared list; prints the interleaving, a
 * UUID, the wall clock, a nanoTime difference and an identity hash. Under `weft run` all of it is
 * a function of the seed.
 */
public class ThreadsDemo {
    public static void main(String[] args) throws Exception {
        List<String> events = new ArrayList<>();
        Random shared = new Random();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String name = "t" + i;
            Thread t = new Thread(() -> {
                for (int k = 0; k < 4; k++) {
                    try {
                        Thread.sleep(ThreadLocalRandom.current().nextInt(20));
                    } catch (InterruptedException e) {
                        return;
                    }
                    synchronized (events) {
                        events.add(name + ":" + k + ":" + shared.nextInt(1000));
                    }
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long t0 = System.nanoTime();
        System.out.println(String.join(" ", events));
        System.out.println("uuid " + UUID.randomUUID() + " millis " + System.currentTimeMillis()
                + " nanos " + (System.nanoTime() - t0) + " hash " + System.identityHashCode(new Object()));
    }
}
