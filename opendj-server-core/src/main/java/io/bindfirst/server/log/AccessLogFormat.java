package io.bindfirst.server.log;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * How an access record becomes a line ({@code ds-cfg-log-format}): OpenDJ's familiar text, or one JSON object per
 * line for log shippers. Both escape what a client sent (DNs, filters), so that no client can forge a line or a
 * field. Used by the log's writer thread only, with its {@link Clock}.
 */
public enum AccessLogFormat {
    /**
     * {@code [24/Nov/2026:07:05:31 +0000] BIND conn=3 op=0 msgID=1 dn="..." result=0 authDN="..." etime=0.052}.
     */
    TEXT {
        @Override
        void format(AccessRecord r, StringBuilder b, Clock clock) {
            b.append('[').append(clock.text(r.epochMillis())).append("] ")
                    .append(r.kind()).append(" conn=").append(r.connectionId());
            if (r.operationId() >= 0) {
                b.append(" op=").append(r.operationId()).append(" msgID=").append(r.messageId());
            }
            if (r.dn() != null) {
                b.append(" dn=\"");
                AccessRecord.appendEscaped(b, r.dn());
                b.append('"');
            }
            if (r.resultCode() >= 0) {
                b.append(" result=").append(r.resultCode());
            }
            if (r.details() != null && !r.details().isEmpty()) {
                b.append(' ').append(r.details());
            }
            if (r.operationId() >= 0) {
                b.append(" etime=");
                appendMillis(b, r.etimeNanos());
            }
            b.append('\n');
        }
    },

    /**
     * {@code {"time":"2026-11-24T07:05:31.123Z","type":"BIND","conn":3,"op":0,"msgID":1,"dn":"...","result":0,
     * "authDN":"...","etime":0.052}}: the text format's fields under the same names, each detail a field of its
     * own (a number when it is one), times in UTC with milliseconds.
     */
    JSON {
        @Override
        void format(AccessRecord r, StringBuilder b, Clock clock) {
            b.append("{\"time\":\"").append(ISO.format(Instant.ofEpochMilli(r.epochMillis())))
                    .append("\",\"type\":");
            appendJsonString(b, r.kind());
            b.append(",\"conn\":").append(r.connectionId());
            if (r.operationId() >= 0) {
                b.append(",\"op\":").append(r.operationId()).append(",\"msgID\":").append(r.messageId());
            }
            if (r.dn() != null) {
                b.append(",\"dn\":");
                appendJsonString(b, r.dn());
            }
            if (r.resultCode() >= 0) {
                b.append(",\"result\":").append(r.resultCode());
            }
            if (r.details() != null && !r.details().isEmpty()) {
                AccessRecord.forEachDetail(r.details(), (key, value, quoted) -> {
                    b.append(',');
                    appendJsonString(b, key);
                    b.append(':');
                    if (!quoted && isNumber(value)) {
                        b.append(value);
                    } else {
                        appendJsonString(b, value);
                    }
                });
            }
            if (r.operationId() >= 0) {
                b.append(",\"etime\":");
                appendMillis(b, r.etimeNanos());
            }
            b.append("}\n");
        }
    };

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_INSTANT;

    /** Appends the record as one line, ending with a newline. */
    abstract void format(AccessRecord r, StringBuilder b, Clock clock);

    /** The line that says records were dropped because the log's queue was full. */
    String dropped(long records) {
        if (this == JSON) {
            StringBuilder b = new StringBuilder(96).append("{\"time\":\"").append(ISO.format(Instant.now()))
                    .append("\",\"type\":\"DROPPED\",\"records\":").append(records)
                    .append(",\"reason\":\"access log queue full\"}\n");
            return b.toString();
        }
        return "[" + TIME.format(Instant.now()) + "] DROPPED records=" + records
                + " reason=\"access log queue full\"\n";
    }

    /** The value of {@code ds-cfg-log-format}, or {@code null} if it names no format. */
    public static AccessLogFormat named(String name) {
        for (AccessLogFormat f : values()) {
            if (f.name().equalsIgnoreCase(name.trim())) {
                return f;
            }
        }
        return null;
    }

    /** Milliseconds with microsecond precision, like OpenDJ's etime with nanosecond resolution off. */
    private static void appendMillis(StringBuilder b, long nanos) {
        long micros = nanos / 1_000;
        b.append(micros / 1000).append('.');
        long frac = micros % 1000;
        if (frac < 100) {
            b.append('0');
        }
        if (frac < 10) {
            b.append('0');
        }
        b.append(frac);
    }

    private static boolean isNumber(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** RFC 8259 string: quotes, backslashes and control characters escaped. */
    static void appendJsonString(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }

    /** The last second formatted for the text format: records come in bursts within one second. */
    static final class Clock {
        private long second = Long.MIN_VALUE;
        private String text;

        String text(long epochMillis) {
            long s = Math.floorDiv(epochMillis, 1000);
            if (s != second) {
                second = s;
                text = TIME.format(Instant.ofEpochMilli(epochMillis));
            }
            return text;
        }
    }
}
