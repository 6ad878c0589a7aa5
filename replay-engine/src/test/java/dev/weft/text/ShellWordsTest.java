package dev.weft.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.util.List;

class ShellWordsTest {

    @Test
    void safeWordsStayAsTheyAreEverythingElseIsSingleQuoted() {
        assertEquals("runs/CHORD_FIX=0/s1.weftlog", ShellWords.quote("runs/CHORD_FIX=0/s1.weftlog"));
        assertEquals("latency=uniform:1000-60000,loss=0.1%", ShellWords.quote("latency=uniform:1000-60000,loss=0.1%"));
        assertEquals("''", ShellWords.quote(""));
        assertEquals("'a b'", ShellWords.quote("a b"));
        assertEquals("'it'\\''s'", ShellWords.quote("it's"));
        assertEquals("'$HOME'", ShellWords.quote("$HOME"));
        assertEquals("'café'", ShellWords.quote("café"), "only ASCII is left bare");
    }

    @Test
    void joinQuotesEachWord() {
        assertEquals("weft run --seed 7 -- 'my prog' x", ShellWords.join(List.of("weft", "run", "--seed", "7", "--", "my prog", "x")));
        assertEquals("", ShellWords.join(List.of()));
    }
}
