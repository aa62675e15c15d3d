package io.bindfirst.server.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes and durations as OpenDJ's configuration writes them: a whole number, a space (optional) and a unit,
 * {@code 100 mb}, {@code 512 kib}, {@code 1 d}, {@code 30 minutes}. {@code 0} alone needs no unit.
 */
final class ConfigUnits {
    private static final Pattern AMOUNT = Pattern.compile("(\\d{1,18})\\s*([a-z]*)");
    private static final Map<String, Long> BYTES = Map.ofEntries(
            Map.entry("b", 1L), Map.entry("bytes", 1L),
            Map.entry("kb", 1_000L), Map.entry("kilobytes", 1_000L), Map.entry("kib", 1L << 10),
            Map.entry("mb", 1_000_000L), Map.entry("megabytes", 1_000_000L), Map.entry("mib", 1L << 20),
            Map.entry("gb", 1_000_000_000L), Map.entry("gigabytes", 1_000_000_000L), Map.entry("gib", 1L << 30));
    private static final Map<String, Duration> TIME = Map.ofEntries(
            Map.entry("ms", Duration.ofMillis(1)), Map.entry("milliseconds", Duration.ofMillis(1)),
            Map.entry("s", Duration.ofSeconds(1)), Map.entry("seconds", Duration.ofSeconds(1)),
            Map.entry("m", Duration.ofMinutes(1)), Map.entry("minutes", Duration.ofMinutes(1)),
            Map.entry("h", Duration.ofHours(1)), Map.entry("hours", Duration.ofHours(1)),
            Map.entry("d", Duration.ofDays(1)), Map.entry("days", Duration.ofDays(1)),
            Map.entry("w", Duration.ofDays(7)), Map.entry("weeks", Duration.ofDays(7)));

    private ConfigUnits() {
    }

    /**
     * @param where the entry and attribute, for the error message
     * @return the size in bytes
     */
    static long bytes(String where, String value) throws ConfigException {
        Matcher m = match(where, value, "a size such as 100 mb (units: b, kb, kib, mb, mib, gb, gib)");
        long unit = m.group(2).isEmpty() && m.group(1).equals("0") ? 1 : BYTES.getOrDefault(m.group(2), -1L);
        if (unit < 0) {
            throw new ConfigException(where + ": '" + value + "' is not a size such as 100 mb "
                    + "(units: b, kb, kib, mb, mib, gb, gib)");
        }
        try {
            return Math.multiplyExact(Long.parseLong(m.group(1)), unit);
        } catch (ArithmeticException e) {
            throw new ConfigException(where + ": '" + value + "' is too large");
        }
    }

    /** @param where the entry and attribute, for the error message */
    static Duration duration(String where, String value) throws ConfigException {
        Matcher m = match(where, value, "a duration such as 1 d (units: ms, s, m, h, d, w)");
        if (m.group(2).isEmpty() && m.group(1).equals("0")) {
            return Duration.ZERO;
        }
        Duration unit = TIME.get(m.group(2));
        if (unit == null) {
            throw new ConfigException(where + ": '" + value + "' is not a duration such as 1 d "
                    + "(units: ms, s, m, h, d, w)");
        }
        try {
            return unit.multipliedBy(Long.parseLong(m.group(1)));
        } catch (ArithmeticException e) {
            throw new ConfigException(where + ": '" + value + "' is too large");
        }
    }

    private static Matcher match(String where, String value, String expected) throws ConfigException {
        Matcher m = AMOUNT.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new ConfigException(where + ": '" + value + "' is not " + expected);
        }
        return m;
    }
}
