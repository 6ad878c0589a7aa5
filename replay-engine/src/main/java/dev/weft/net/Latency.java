package dev.weft.net;

/** A latency distribution of the network spec (net-and-fault-model.md §3.4); all values in ns, u64. */
public sealed interface Latency {

    /** The delay for the deviate u in [0, 1). */
    long sample(double u);

    /** The smallest delay this distribution can produce (§3.5, used by the windowed broker). */
    long minDelay();

    record Fixed(long ns) implements Latency {
        public long sample(double u) {
            return ns;
        }

        public long minDelay() {
            return ns;
        }
    }

    /** lo + f2u(double(hi - lo) * u); the parser guarantees hi >= lo (unsigned). */
    record Uniform(long lo, long hi) implements Latency {
        public long sample(double u) {
            long span = Long.compareUnsigned(hi, lo) >= 0 ? hi - lo : 0;
            return lo + Unsigned.fromDouble(Unsigned.toDouble(span) * u); // wrapping add, as the reference
        }

        public long minDelay() {
            return lo;
        }
    }

    /** min(f2u(-mean * ln(1 - u)), mean *sat 20), with a correctly rounded ln. */
    record Exponential(long mean) implements Latency {
        public long sample(double u) {
            double x = (-Unsigned.toDouble(mean)) * CorrectlyRoundedLog.ln(1.0 - u);
            return Unsigned.min(Unsigned.fromDouble(x), Unsigned.saturatingMul(mean, 20));
        }

        public long minDelay() {
            return 0;
        }
    }
}
