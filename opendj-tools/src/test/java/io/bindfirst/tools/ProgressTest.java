package io.bindfirst.tools;

import static org.testng.Assert.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;

import org.testng.annotations.Test;

public class ProgressTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    public void aLogGetsALineEveryTenSeconds() {
        AtomicLong now = new AtomicLong(5 * SECOND);
        StringWriter out = new StringWriter();
        Progress p = new Progress(new PrintWriter(out), false, 1_000, now::get);
        now.addAndGet(9 * SECOND);
        p.update(900, 90);
        assertEquals(out.toString(), "", "not yet ten seconds");
        now.addAndGet(SECOND);
        p.update(1_000, 250);
        assertEquals(out.toString(), " 25.0%  1,000 entries  100 entries/s  0:30 left\n");
        now.addAndGet(5 * SECOND);
        p.update(1_500, 400);
        assertEquals(out.toString().lines().count(), 1L);
        p.finish();
        assertEquals(out.toString().lines().count(), 1L, "nothing to clear in a log");
    }

    @Test
    public void aTerminalGetsOneLineRewrittenInPlace() {
        AtomicLong now = new AtomicLong();
        StringWriter out = new StringWriter();
        Progress p = new Progress(new PrintWriter(out), true, 0, now::get);
        now.addAndGet(SECOND);
        p.update(20_000, 0);
        now.addAndGet(SECOND);
        p.update(30_000, 0);
        assertEquals(out.toString(), "\r20,000 entries  20,000 entries/s\r30,000 entries  15,000 entries/s");
        p.finish();
        assertEquals(out.toString().substring(out.toString().lastIndexOf('\r') - 33),
                "\r" + " ".repeat(32) + "\r", "the line is cleared for the summary");
    }
}
