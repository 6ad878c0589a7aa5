package dev.weft.net;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Natural logarithm of binary64, correctly rounded to nearest (ties cannot occur: ln of a double other than
 * 1 is irrational). The exponential latency multiplies ln(1-u) by means up to 10^12 ns and truncates, so the
 * last bit matters; glibc's log is correctly rounded in practice, Java's Math/StrictMath.log are not.
 *
 * <p>Fast path: ln x = e·ln2 + ln(c) + ln(m/c) evaluated in double-double arithmetic (about 2^-98 relative
 * error; x = 2^e·m, m in [√½, √2), c = m rounded to a multiple of 1/128 with ln(c) tabulated to 106 bits,
 * ln(m/c) = 2·atanh((m-c)/(m+c)) by its series). The rounding is decided from the double-double
 * unless it lies within 2^-85 (relative) of a rounding boundary; those cases (about one in 2^32 inputs) are
 * settled by a 90-digit BigDecimal evaluation, which is also the reference the tests compare against.
 */
public final class CorrectlyRoundedLog {

    private static final double SQRT_HALF_LIMIT = 1.4142135623730951; // first double above √2 is excluded from m
    private static final int TABLE_MIN = -38;                          // round((√½ - 1)·128)
    private static final int TABLE_MAX = 53;                           // round((√2 - 1)·128)
    private static final double UNCERTAINTY = 0x1p-85;
    private static final long MANTISSA_BITS = 0x000F_FFFF_FFFF_FFFFL;
    private static final long ONE_BITS = 0x3FF0_0000_0000_0000L;
    private static final double SPLITTER = 134217729.0;                // 2^27 + 1, Dekker's split

    private static final MathContext MC = new MathContext(90, RoundingMode.HALF_EVEN);
    private static final BigDecimal LN2_BIG = atanhTimesTwo(BigDecimal.ONE.divide(BigDecimal.valueOf(3), MC));

    private static final double LN2_HI = LN2_BIG.doubleValue();
    private static final double LN2_LO = LN2_BIG.subtract(new BigDecimal(LN2_HI)).doubleValue();
    private static final double THIRD_HI = 1.0 / 3;
    private static final double THIRD_LO = BigDecimal.ONE.divide(BigDecimal.valueOf(3), MC)
            .subtract(new BigDecimal(THIRD_HI)).doubleValue();
    private static final double FIFTH_HI = 1.0 / 5;
    private static final double FIFTH_LO = BigDecimal.ONE.divide(BigDecimal.valueOf(5), MC)
            .subtract(new BigDecimal(FIFTH_HI)).doubleValue();

    /** ln(1 + i/128) as double-double, index i - TABLE_MIN. */
    private static final double[] LNC_HI = new double[TABLE_MAX - TABLE_MIN + 1];
    private static final double[] LNC_LO = new double[TABLE_MAX - TABLE_MIN + 1];

    static {
        for (int i = TABLE_MIN; i <= TABLE_MAX; i++) {
            BigDecimal ln = lnOfMantissa(new BigDecimal(1 + i / 128.0));
            double hi = ln.doubleValue();
            LNC_HI[i - TABLE_MIN] = hi;
            LNC_LO[i - TABLE_MIN] = ln.subtract(new BigDecimal(hi)).doubleValue();
        }
    }

    private CorrectlyRoundedLog() {
    }

    /** The binary64 nearest to ln(x); NaN for NaN or x < 0, -Infinity for ±0, +Infinity for +Infinity. */
    public static double ln(double x) {
        if (!(x > 0) || x == Double.POSITIVE_INFINITY) return special(x);
        if (x == 1.0) return 0.0;
        double[] dd = new double[2];
        lnDoubleDouble(x, dd);
        double hi = dd[0];
        double lo = dd[1];
        if (lo == 0) return hi;
        double neighbour = lo > 0 ? Math.nextUp(hi) : Math.nextDown(hi);
        double halfGap = Math.abs(neighbour - hi) * 0.5;
        double margin = Math.abs(hi) * UNCERTAINTY;
        double off = Math.abs(lo);
        if (off < halfGap - margin) return hi;
        if (off > halfGap + margin) return neighbour;
        return reference(x);
    }

    /** ln(x) to 90 significant digits, correctly rounded to binary64: slow, for hard cases and tests. */
    static double reference(double x) {
        if (!(x > 0) || x == Double.POSITIVE_INFINITY) return special(x);
        return lnBig(x).doubleValue(); // BigDecimal.doubleValue rounds correctly to nearest
    }

    /** ln(x) as a BigDecimal with about 90 significant digits; x positive and finite. */
    static BigDecimal lnBig(double x) {
        int e = exponentOf(x);
        double m = mantissaOf(x, e);
        return BigDecimal.valueOf(e).multiply(LN2_BIG, MC).add(lnOfMantissa(new BigDecimal(m)), MC);
    }

    private static double special(double x) {
        if (Double.isNaN(x) || x < 0) return Double.NaN;
        if (x == 0) return Double.NEGATIVE_INFINITY;
        return Double.POSITIVE_INFINITY;
    }

    /** e such that x = 2^e·m with m in [√½, √2); x positive and finite. */
    private static int exponentOf(double x) {
        long bits = Double.doubleToRawLongBits(x);
        int adjust = 0;
        if (bits < 0x0010_0000_0000_0000L) { // subnormal: scale into the normal range first (exact)
            bits = Double.doubleToRawLongBits(x * 0x1p54);
            adjust = 54;
        }
        int e = (int) (bits >>> 52) - 1023 - adjust;
        double m = Double.longBitsToDouble((bits & MANTISSA_BITS) | ONE_BITS);
        return m > SQRT_HALF_LIMIT ? e + 1 : e;
    }

    /** m = x / 2^e, exact; e from {@link #exponentOf}. */
    private static double mantissaOf(double x, int e) {
        long bits = Double.doubleToRawLongBits(x);
        if (bits < 0x0010_0000_0000_0000L) bits = Double.doubleToRawLongBits(x * 0x1p54);
        double m = Double.longBitsToDouble((bits & MANTISSA_BITS) | ONE_BITS); // in [1, 2)
        return m > SQRT_HALF_LIMIT ? m * 0.5 : m;
    }

    /** ln(m) = 2·atanh((m-1)/(m+1)) in BigDecimal; m near 1. */
    private static BigDecimal lnOfMantissa(BigDecimal m) {
        return atanhTimesTwo(m.subtract(BigDecimal.ONE).divide(m.add(BigDecimal.ONE), MC));
    }

    private static BigDecimal atanhTimesTwo(BigDecimal z) {
        if (z.signum() == 0) return BigDecimal.ZERO;
        BigDecimal z2 = z.multiply(z, MC);
        BigDecimal power = z;
        BigDecimal sum = z;
        BigDecimal threshold = z.abs().movePointLeft(MC.getPrecision() + 5);
        for (int k = 3; ; k += 2) {
            power = power.multiply(z2, MC);
            BigDecimal term = power.divide(BigDecimal.valueOf(k), MC);
            if (term.abs().compareTo(threshold) < 0) break;
            sum = sum.add(term, MC);
        }
        return sum.multiply(BigDecimal.valueOf(2), MC);
    }

    /**
     * ln(x) for positive finite x ≠ 1 as a normalised double-double (out[0] + out[1], |out[1]| ≤ ulp(out[0])/2),
     * relative error well below 2^-90.
     */
    static void lnDoubleDouble(double x, double[] out) {
        int e = exponentOf(x);
        double m = mantissaOf(x, e);
        int i = (int) Math.rint((m - 1) * 128); // m - 1 and ·128 are exact
        double c = 1 + i / 128.0;
        double d = m - c;                       // exact: both are multiples of 2^-53 and |d| ≤ 2^-8

        // s = t/(2+t) with t = d/c simplifies to d/(m+c); m+c as a double-double, then one division.
        double den = m + c;
        double denLo = twoSumErr(m, c, den);
        double q = d / den;
        double qp = q * den;
        double ql = (((d - qp) - twoProdErr(q, den, qp)) - q * denLo) / den; // d - qp is exact (Sterbenz)
        double sh = q + ql;
        double sl = fastTwoSumErr(q, ql, sh);

        // s² as double-double
        double s2h = sh * sh;
        double s2l = twoProdErr(sh, sh, s2h) + 2 * sh * sl;
        double s2n = s2h + s2l;
        s2l = fastTwoSumErr(s2h, s2l, s2n);
        s2h = s2n;

        // P = 1/3 + s²(1/5 + s²·tail), tail in plain double (it only affects bits beyond 2^-100)
        double tail = 1.0 / 7 + s2h * (1.0 / 9 + s2h * (1.0 / 11 + s2h * (1.0 / 13)));
        double w = s2h * tail;
        double ih = FIFTH_HI + w;
        double il = twoSumErr(FIFTH_HI, w, ih) + FIFTH_LO;
        double ihn = ih + il;
        il = fastTwoSumErr(ih, il, ihn);
        ih = ihn;
        // s² · inner
        double mh = s2h * ih;
        double ml = twoProdErr(s2h, ih, mh) + (s2h * il + s2l * ih);
        // P = 1/3 + that
        double ph = THIRD_HI + mh;
        double pl = twoSumErr(THIRD_HI, mh, ph) + (THIRD_LO + ml);
        double phn = ph + pl;
        pl = fastTwoSumErr(ph, pl, phn);
        ph = phn;

        // T = s · s² · P
        double ah = sh * s2h;
        double al = twoProdErr(sh, s2h, ah) + (sh * s2l + sl * s2h);
        double bh = ah * ph;
        double bl = twoProdErr(ah, ph, bh) + (ah * pl + al * ph);

        // ln(m/c) = 2(s + T)
        double uh = sh + bh;
        double ul = twoSumErr(sh, bh, uh) + (sl + bl);
        double uhn = uh + ul;
        ul = 2 * fastTwoSumErr(uh, ul, uhn);
        uh = 2 * uhn;

        // e·ln2 + ln(c) + ln(m/c), each a double-double
        double eh = e * LN2_HI;
        double el = twoProdErr(e, LN2_HI, eh) + e * LN2_LO;
        int k = i - TABLE_MIN;
        double vh = eh + LNC_HI[k];
        double vl = twoSumErr(eh, LNC_HI[k], vh) + (el + LNC_LO[k]);
        double vhn = vh + vl;
        vl = fastTwoSumErr(vh, vl, vhn);
        vh = vhn;
        double rh = vh + uh;
        double rl = twoSumErr(vh, uh, rh) + (vl + ul);
        double hi = rh + rl;
        out[0] = hi;
        out[1] = fastTwoSumErr(rh, rl, hi);
    }

    /** Error of s = fl(a + b), any magnitudes (Knuth's TwoSum). */
    private static double twoSumErr(double a, double b, double s) {
        double bb = s - a;
        return (a - (s - bb)) + (b - bb);
    }

    /** Error of s = fl(a + b) when |a| ≥ |b| or a = 0 (Dekker's FastTwoSum). */
    private static double fastTwoSumErr(double a, double b, double s) {
        return b - (s - a);
    }

    /** Error of p = fl(a·b), by Dekker's splitting (no FMA needed, exact for moderate magnitudes). */
    private static double twoProdErr(double a, double b, double p) {
        double ca = SPLITTER * a;
        double ah = ca - (ca - a);
        double al = a - ah;
        double cb = SPLITTER * b;
        double bh = cb - (cb - b);
        double bl = b - bh;
        return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    }
}
