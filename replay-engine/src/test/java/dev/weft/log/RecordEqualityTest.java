package dev.weft.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The records replay compares (the {@link Event} family, its outcomes and {@link VAddr}) write out equals/hashCode
 * so that no generated method is bootstrapped at run time. This pins that they still mean what a record's generated
 * ones mean: equal exactly when every component is equal ({@code ==} for primitives, {@code equals} otherwise, null
 * allowed), with equal hash codes for equal values. Components and record types are found by reflection, so a
 * component or an event kind added later is covered without touching this test.
 */
class RecordEqualityTest {

    /** Every record on the replay's comparison path: the permitted kinds of the sealed families, and VAddr. */
    private static List<Class<?>> comparedRecords() {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> family : List.of(Event.class, SendOutcome.class, RecvOutcome.class, TcpConnectOutcome.class,
                TcpAcceptOutcome.class, TcpSendOutcome.class, TcpRecvOutcome.class)) {
            for (Class<?> c : family.getPermittedSubclasses()) {
                out.add(c);
            }
        }
        out.add(VAddr.class);
        return out;
    }

    @Test
    void everyComparedRecordWritesOutEqualsAndHashCode() throws Exception {
        for (Class<?> c : comparedRecords()) {
            assertTrue(c.isRecord(), c + " is a record");
            // javac marks the generated (invokedynamic) equals/hashCode final; hand-written ones here are not.
            Method eq = c.getDeclaredMethod("equals", Object.class);
            Method hash = c.getDeclaredMethod("hashCode");
            assertFalse(Modifier.isFinal(eq.getModifiers()), c + ".equals is the generated one");
            assertFalse(Modifier.isFinal(hash.getModifiers()), c + ".hashCode is the generated one");
        }
    }

    @Test
    void equalExactlyWhenEveryComponentIsEqual() throws Exception {
        for (Class<?> c : comparedRecords()) {
            RecordComponent[] comps = c.getRecordComponents();
            Object a = build(c, comps, -1, 0);
            Object same = build(c, comps, -1, 0);
            assertEquals(a, same, c + ": same components");
            assertEquals(a.hashCode(), same.hashCode(), c + ": hash of equal values");
            assertNotEquals(null, a, c + ": equal to null");
            assertNotEquals(a, new Object(), c + ": equal to another type");
            for (int i = 0; i < comps.length; i++) {
                Object differs = build(c, comps, i, 1);
                assertNotEquals(a, differs, c + ": component " + comps[i].getName() + " ignored by equals");
                assertNotEquals(differs, a, c + ": component " + comps[i].getName() + " ignored (reversed)");
                if (!comps[i].getType().isPrimitive() && c != VAddr.class) {
                    Object withNull = build(c, comps, i, -1);
                    Object withNullToo = build(c, comps, i, -1);
                    assertEquals(withNull, withNullToo, c + ": null " + comps[i].getName() + " on both sides");
                    assertEquals(withNull.hashCode(), withNullToo.hashCode(), c + ": hash with null");
                    assertNotEquals(a, withNull, c + ": null " + comps[i].getName());
                    assertNotEquals(withNull, a, c + ": null " + comps[i].getName() + " (reversed)");
                }
            }
        }
    }

    @Test
    void hashCodesSpreadOverEachComponent() throws Exception {
        // Not required by the contract, but a hash that ignored a component would make hashed sets of events slow.
        for (Class<?> c : comparedRecords()) {
            RecordComponent[] comps = c.getRecordComponents();
            Object a = build(c, comps, -1, 0);
            for (int i = 0; i < comps.length; i++) {
                assertNotEquals(a.hashCode(), build(c, comps, i, 1).hashCode(),
                        c + ": hashCode ignores " + comps[i].getName());
            }
        }
    }

    /** An instance with every component at variant 0, except component {@code changed} at {@code variant}. */
    private static Object build(Class<?> c, RecordComponent[] comps, int changed, int variant) throws Exception {
        Class<?>[] types = new Class<?>[comps.length];
        Object[] args = new Object[comps.length];
        for (int i = 0; i < comps.length; i++) {
            types[i] = comps[i].getType();
            args[i] = sample(types[i], i == changed ? variant : 0);
        }
        Constructor<?> ctor = c.getDeclaredConstructor(types);
        ctor.setAccessible(true);
        return ctor.newInstance(args);
    }

    /** Two distinct values of a component type (variant 0 and 1), or null (variant -1) for a reference type. */
    private static Object sample(Class<?> type, int variant) throws Exception {
        if (variant < 0) return null;
        if (type == long.class) return variant == 0 ? 7L : 8L;
        if (type == int.class) return variant == 0 ? 7 : 8;
        if (type == boolean.class) return variant != 0;
        if (type == String.class) return variant == 0 ? "ab" : "cd";
        if (type == VAddr.class) return new VAddr(variant == 0 ? 2130706433L : 2130706434L, 9000);
        if (type == SendOutcome.class) return variant == 0 ? SendOutcome.DROPPED : new SendOutcome.Enqueued(1, 2, 3);
        if (type == RecvOutcome.class) {
            return variant == 0 ? RecvOutcome.EMPTY
                    : new RecvOutcome.Delivered(new VAddr(1, 2), new VAddr(3, 4), 5, 6, "ab");
        }
        if (type == TcpConnectOutcome.class) {
            return variant == 0 ? TcpConnectOutcome.PENDING : new TcpConnectOutcome.Established(5);
        }
        if (type == TcpAcceptOutcome.class) {
            return variant == 0 ? TcpAcceptOutcome.EMPTY : new TcpAcceptOutcome.Accepted(1, new VAddr(1, 2), new VAddr(3, 4), 5);
        }
        if (type == TcpSendOutcome.class) return variant == 0 ? TcpSendOutcome.FULL : new TcpSendOutcome.Segment(1, 2);
        if (type == TcpRecvOutcome.class) return variant == 0 ? TcpRecvOutcome.EMPTY : new TcpRecvOutcome.Data(1, 2, "ab");
        throw new AssertionError("no sample values for component type " + type + ": add them here");
    }
}
