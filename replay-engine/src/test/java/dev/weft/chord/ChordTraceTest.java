package dev.weft.chord;

import static dev.weft.chord.TestRecords.chord;
import static dev.weft.chord.TestRecords.delivered;
import static dev.weft.chord.TestRecords.send;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChordTraceTest {

    @Test
    void printsChangesOnlyWithTheRingAndTheBreakPoint() {
        var records = List.of(
                send(0, chord(1, 1, 1, 43, -1, -1)),
                send(1, chord(43, 1, 1, 1, -1, -1)),
                send(2, chord(43, 2, 1, 1, -1, -1)),      // same pointers, newer date: no line
                delivered(3, chord(43, 3, 1, 7, -1, -1)),  // deliveries are not traced
                send(4, chord(1, 2, 1, 43, 43, -1)),
                send(5, chord(43, 4, 0, 1, -1, -1)),      // dies: ring gone
                send(6, chord(1, 3, 1, 1, -1, -1)),       // self loop: ring [1] again
                send(7, chord(1, 4, 1, 43, -1, -1)));     // broken again, for good
        String out = ChordTrace.trace(records, "chord/x.weftlog", TestRecords.header(9, "latency=fixed:1"));
        assertEquals("""
                === CHORD STATE TRACE: chord/x.weftlog (seed 9) ===
                op     0 node   1  succ= 43 succ2= -1 prdc= -1  ring=[]
                op     1 node  43  succ=  1 succ2= -1 prdc= -1  ring=[1, 43]
                op     4 node   1  succ= 43 succ2= 43 prdc= -1  ring=[1, 43]
                op     5 node  43  *** FAILED ***  ring=[]
                op     6 node   1  succ=  1 succ2= -1 prdc= -1  ring=[1]
                op     7 node   1  succ= 43 succ2= -1 prdc= -1  ring=[]
                --- final ---
                ring members: []
                  node   1: succ= 43 succ2= -1 prdc= -1 bestSucc= -1 [appendage]
                  node  43: FAILED
                AtLeastOneRing broke permanently at op 7 and never recovered through the quiescent tail.
                """, out);
    }

    @Test
    void noBreakLineWhileARingExists() {
        var records = List.of(send(0, chord(1, 1, 1, 1, -1, -1)));
        String out = ChordTrace.trace(records, "x", TestRecords.header(0, ""));
        assertEquals("""
                === CHORD STATE TRACE: x (seed 0) ===
                op     0 node   1  succ=  1 succ2= -1 prdc= -1  ring=[1]
                --- final ---
                ring members: [1]
                  node   1: succ=  1 succ2= -1 prdc= -1 bestSucc=  1 [ring]
                """, out);
    }
}
