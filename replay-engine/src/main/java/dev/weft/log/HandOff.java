package dev.weft.log;

/**
 * A unit of work a reader helper thread fills and hands to the consumer through a queue (a block of lines, a batch
 * of records). The last unit of a stream says so, and carries the error that ended reading, if one did: the consumer
 * sees everything before the failure first, then the failure at its exact position.
 */
abstract class HandOff {

    /** No unit follows this one. */
    boolean last;
    /** Why reading ended early, or null (a clean end of input, or not the last unit). */
    WeftLogException error;

    /** Marks this the last unit, ended by {@code e}. */
    final void failWith(WeftLogException e) {
        error = e;
        last = true;
    }

}
