package io.bindfirst.tools;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * What a long run says while it works: on a terminal, one line rewritten in place (done, rate, estimated
 * time left); otherwise (a log, a pipe) a plain line every ten seconds. Measured in units of work whose
 * total is known up front (bytes of the LDIF file for an import, entries for an export).
 */
final class Progress {
    private static final long TERMINAL_EVERY_NANOS = 500_000_000L;
    private static final long PLAIN_EVERY_NANOS = 10_000_000_000L;

    private final PrintWriter out;
    private final boolean terminal;
    private final long total;
    private final LongSupplier nanoClock;
    private final long start;
    private long lastShown;
    private int lastWidth;

    Progress(PrintWriter out, boolean terminal, long total, LongSupplier nanoClock) {
        this.out = out;
        this.terminal = terminal;
        this.total = total;
        this.nanoClock = nanoClock;
        this.start = nanoClock.getAsLong();
        this.lastShown = start;
    }

    /** Shows progress if it is time to: cheap enough to call for every entry. */
    void update(long entries, long done) {
        long now = nanoClock.getAsLong();
        if (now - lastShown < (terminal ? TERMINAL_EVERY_NANOS : PLAIN_EVERY_NANOS)) {
            return;
        }
        lastShown = now;
        String line = line(entries, done, now);
        if (terminal) {
            out.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
            lastWidth = line.length();
        } else {
            out.println(line);
        }
        out.flush();
    }

    /** Ends the updating line, so what follows starts on a line of its own. */
    void finish() {
        if (terminal && lastWidth > 0) {
            out.print("\r" + " ".repeat(lastWidth) + "\r");
            out.flush();
        }
    }

    double seconds() {
        return (nanoClock.getAsLong() - start) / 1e9;
    }

    String line(long entries, long done, long now) {
        double seconds = (now - start) / 1e9;
        double rate = seconds > 0 ? entries / seconds : 0;
        StringBuilder b = new StringBuilder();
        if (total > 0) {
            double fraction = Math.min(1.0, (double) done / total);
            b.append(String.format(Locale.ROOT, "%5.1f%%  ", fraction * 100));
            if (fraction > 0) {
                long left = Math.round(seconds * (1 - fraction) / fraction);
                b.append(String.format(Locale.ROOT, "%,d entries  %,.0f entries/s  %d:%02d left", entries, rate,
                        left / 60, left % 60));
                return b.toString();
            }
        }
        b.append(String.format(Locale.ROOT, "%,d entries  %,.0f entries/s", entries, rate));
        return b.toString();
    }
}
