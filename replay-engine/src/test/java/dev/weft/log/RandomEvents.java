package dev.weft.log;

import java.util.SplittableRandom;

/** Seeded generator of arbitrary (not necessarily plausible) events, with awkward strings and u64 extremes. */
final class RandomEvents {

    private static final String[] PIECES = {"a", "Z", "0", " ", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", "\u0000",
            "\u001b", "\u001f", "\u007f", "\u0080", "\u00e9", "\u2028", "\u2192", "\uFEFF", "\uD83D\uDE00", "\uFFFF", "{", "}",
            ",", ":", "\\u0041", "chain", "k"};

    private final SplittableRandom rnd;

    RandomEvents(long seed) {
        rnd = new SplittableRandom(seed);
    }

    long u64() {
        return switch (rnd.nextInt(6)) {
            case 0 -> 0;
            case 1 -> -1L; // 2^64 - 1
            case 2 -> rnd.nextLong();
            case 3 -> rnd.nextInt(1000);
            case 4 -> Long.MIN_VALUE + rnd.nextInt(3) - 1;
            default -> (long) Math.pow(10, rnd.nextInt(19)) - rnd.nextInt(2);
        };
    }

    long u32() {
        return rnd.nextBoolean() ? rnd.nextLong(0x1_0000_0000L) : (rnd.nextBoolean() ? 0 : 0xFFFF_FFFFL);
    }

    VAddr addr() {
        return new VAddr(u32(), rnd.nextBoolean() ? rnd.nextInt(0x10000) : (rnd.nextBoolean() ? 0 : 0xFFFF));
    }

    String text() {
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(8);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[rnd.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }

    String hex() {
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(40);
        for (int i = 0; i < 2 * n; i++) {
            sb.append("0123456789abcdefABCDEF".charAt(rnd.nextInt(rnd.nextInt(10) == 0 ? 22 : 16)));
        }
        return sb.toString();
    }

    Event event() {
        return switch (rnd.nextInt(8)) {
            case 0 -> new Event.Connect(u64());
            case 1 -> new Event.Hello(u64(), u32());
            case 2 -> new Event.Bind(u64(), addr());
            case 3 -> new Event.Send(u64(), addr(), addr(), u64(), u64(), hex(), switch (rnd.nextInt(3)) {
                case 0 -> SendOutcome.DROPPED;
                case 1 -> SendOutcome.NO_RECEIVER;
                default -> new SendOutcome.Enqueued(u64(), u64(), u64());
            });
            case 4 -> new Event.Recv(u64(), rnd.nextBoolean(), rnd.nextBoolean() ? RecvOutcome.EMPTY
                    : new RecvOutcome.Delivered(addr(), addr(), u64(), u64(), hex()));
            case 5 -> new Event.Disconnect(u64());
            case 6 -> new Event.Violation(text(), text());
            default -> new Event.End(u64(), u64(), u64());
        };
    }

    int nextInt(int bound) {
        return rnd.nextInt(bound);
    }
}
