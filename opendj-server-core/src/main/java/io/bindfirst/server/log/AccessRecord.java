package io.bindfirst.server.log;

/**
 * One access-log line before formatting. Built on the worker from values the operation already has;
 * formatting happens on the log writer thread.
 *
 * @param epochMillis when the operation (or connection event) finished
 * @param kind {@code BIND}, {@code SEARCH}, {@code EXTENDED}, ..., or {@code CONNECT}/{@code DISCONNECT}
 * @param connectionId the connection number
 * @param operationId the operation number on the connection, -1 for connection events
 * @param messageId the LDAP message ID, -1 for connection events
 * @param dn the target DN (bind DN, search base, ...); never a password
 * @param resultCode the LDAP result code, -1 for connection events
 * @param etimeNanos elapsed time from decode to response
 * @param details further {@code key=value} pairs already formatted (e.g. {@code nentries=1}), or empty
 */
public record AccessRecord(long epochMillis, String kind, long connectionId, long operationId, int messageId,
                           String dn, int resultCode, long etimeNanos, String details) {

    public static AccessRecord connection(String kind, long connectionId, String details) {
        return new AccessRecord(System.currentTimeMillis(), kind, connectionId, -1, -1, null, -1, 0, details);
    }

    /**
     * {@code key="value"}, the value escaped as {@link #appendEscaped} does: how an operation writes a detail that
     * holds text a client chose (a DN, a filter), so that it cannot end the field or the line.
     */
    public static String quoted(String key, Object value) {
        String text = String.valueOf(value);
        if (!needsEscape(text)) {
            // The usual case (every bind's authDN): one concatenation makes the string's array once, where a
            // builder made one and its toString() a copy.
            return key + "=\"" + text + '"';
        }
        StringBuilder b = new StringBuilder(key.length() + text.length() + 8).append(key).append("=\"");
        appendEscaped(b, text);
        return b.append('"').toString();
    }

    private static boolean needsEscape(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (mustEscape(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean mustEscape(char c) {
        return c == '"' || c == '\\' || c < 0x20 || c == 0x7f;
    }

    /** Escapes quotes, backslashes ({@code \"}, {@code \\}) and control characters ({@code \0a}). */
    static void appendEscaped(StringBuilder b, String s) {
        // Runs of characters that need no escape are copied whole: almost every DN and filter is one such run,
        // and appending character by character was about 3% of a bind's server CPU in a profile (16 connections).
        int from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (mustEscape(c)) {
                b.append(s, from, i).append('\\');
                if (c == '"' || c == '\\') {
                    b.append(c);
                } else {
                    b.append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
                }
                from = i + 1;
            }
        }
        if (from == 0) {
            b.append(s);
        } else {
            b.append(s, from, s.length());
        }
    }

    /** What {@link #forEachDetail} hands each detail to. */
    interface DetailVisitor {
        /** @param quoted whether the value was written quoted (text, never a number) */
        void detail(String key, String value, boolean quoted);
    }

    /**
     * Reads {@code details} back into its {@code key=value} and {@code key="escaped value"} pairs, unescaped (the
     * JSON format's fields). Text that is not such a pair is handed over whole under the key {@code details}.
     */
    static void forEachDetail(String details, DetailVisitor visitor) {
        int i = 0;
        int n = details.length();
        while (i < n) {
            if (details.charAt(i) == ' ') {
                i++;
                continue;
            }
            int eq = details.indexOf('=', i);
            int space = details.indexOf(' ', i);
            if (eq < 0 || (space >= 0 && space < eq)) {
                visitor.detail("details", details.substring(i), true);
                return;
            }
            String key = details.substring(i, eq);
            i = eq + 1;
            if (i < n && details.charAt(i) == '"') {
                StringBuilder value = new StringBuilder();
                i++;
                while (i < n && details.charAt(i) != '"') {
                    char c = details.charAt(i);
                    if (c == '\\' && i + 1 < n) {
                        char next = details.charAt(i + 1);
                        if ((next == '"' || next == '\\')) {
                            value.append(next);
                            i += 2;
                            continue;
                        }
                        if (i + 2 < n && Character.digit(next, 16) >= 0
                                && Character.digit(details.charAt(i + 2), 16) >= 0) {
                            value.append((char) Integer.parseInt(details.substring(i + 1, i + 3), 16));
                            i += 3;
                            continue;
                        }
                    }
                    value.append(c);
                    i++;
                }
                i++; // the closing quote
                visitor.detail(key, value.toString(), true);
            } else {
                int end = details.indexOf(' ', i);
                end = end < 0 ? n : end;
                visitor.detail(key, details.substring(i, end), false);
                i = end;
            }
        }
    }
}
