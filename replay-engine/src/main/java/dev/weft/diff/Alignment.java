package dev.weft.diff;

/** How two recordings are lined up before comparing them. */
public enum Alignment {
    /** Record k of one side against record k of the other: the first op whose canonical record differs. */
    OP,
    /**
     * Records grouped by virtual time: the first vt whose set of events (canonical form without the op number)
     * differs. Events at one vt recorded in another order, or shifted to other op numbers, count as the same.
     */
    VT
}
