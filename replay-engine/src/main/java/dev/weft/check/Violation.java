package dev.weft.check;

import dev.weft.log.Event;

/** One raised violation: which invariant, at which op and virtual time, why, and the event that completed it. */
public record Violation(String invariant, long op, long vt, String message, Event event) {
}
