package io.bindfirst.server.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of a {@code config.ldif}, edited for a test that must go through the file: a server in a child
 * JVM, or a test of the configuration loader's own messages. Tests of an in-process server set typed
 * values on {@code ServerConfig} instead.
 *
 * <p>Every edit fails with an {@link AssertionError} naming what it looked for when that is not in the
 * text exactly once. {@link String#replace} would leave the text unchanged when a shipped default changes,
 * and the test would go on testing the default.
 */
public final class ConfigText {
    private final String text;

    private ConfigText(String text) {
        this.text = text;
    }

    public static ConfigText read(Path file) throws IOException {
        return new ConfigText(Files.readString(file));
    }

    public static ConfigText of(String text) {
        return new ConfigText(text);
    }

    /** Replaces {@code from}, which must occur exactly once. */
    public ConfigText replace(String from, String to) {
        int at = text.indexOf(from);
        if (at < 0) {
            throw new AssertionError("config.ldif does not contain the text to replace: " + from);
        }
        if (text.indexOf(from, at + 1) >= 0) {
            throw new AssertionError("config.ldif contains the text to replace more than once: " + from);
        }
        return new ConfigText(text.substring(0, at) + to + text.substring(at + from.length()));
    }

    /**
     * Sets an attribute of one entry: its single line {@code attribute: ...} (with any continuation lines)
     * becomes {@code attribute: value}, whatever the value was.
     *
     * @param dn the entry's DN as its {@code dn:} line spells it
     */
    public ConfigText set(String dn, String attribute, String value) {
        int[] bounds = entry(dn);
        int start = bounds[0];
        int end = bounds[1];
        String entry = text.substring(start, end);
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(attribute) + ":.*$(\\n .*$)*").matcher(entry);
        int lines = 0;
        while (line.find()) {
            lines++;
        }
        if (lines != 1) {
            throw new AssertionError("entry " + dn + " of config.ldif has " + lines + " '" + attribute
                    + "' lines; set needs exactly one");
        }
        String edited = line.replaceFirst(Matcher.quoteReplacement(attribute + ": " + value));
        return new ConfigText(text.substring(0, start) + edited + text.substring(end));
    }

    /** Adds the line {@code attribute: value} at the end of one entry (beside any values it has). */
    public ConfigText add(String dn, String attribute, String value) {
        int end = entry(dn)[1];
        return new ConfigText(text.substring(0, end) + "\n" + attribute + ": " + value + text.substring(end));
    }

    /** Where the entry {@code dn} starts (its {@code dn:} line) and ends (before the blank line after it). */
    private int[] entry(String dn) {
        Matcher entryStart = Pattern.compile("(?m)^dn: " + Pattern.quote(dn) + "$").matcher(text);
        if (!entryStart.find()) {
            throw new AssertionError("config.ldif has no entry dn: " + dn);
        }
        int end = text.indexOf("\n\n", entryStart.end());
        return new int[] {entryStart.start(), end < 0 ? text.length() : end};
    }

    public void write(Path file) throws IOException {
        Files.writeString(file, text);
    }

    @Override
    public String toString() {
        return text;
    }
}
