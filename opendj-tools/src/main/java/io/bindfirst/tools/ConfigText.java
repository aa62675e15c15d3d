package io.bindfirst.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text of a {@code config.ldif}, edited line by line so that everything not changed, comments included,
 * stays as shipped. An entry is the lines from its {@code dn:} line to the next blank line; the shipped file
 * has no folded lines, and an edit to one that has any is refused rather than half done.
 */
final class ConfigText {
    private final List<String> lines;

    ConfigText(List<String> lines) {
        this.lines = new ArrayList<>(lines);
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    /** Replaces every value of {@code attribute} in the entry with {@code values} (none: removes it). */
    ConfigText set(String dn, String attribute, String... values) throws ToolException {
        int[] range = entry(dn);
        int at = -1;
        String prefix = attribute.toLowerCase(Locale.ROOT) + ":";
        for (int i = range[1] - 1; i >= range[0]; i--) {
            if (lines.get(i).toLowerCase(Locale.ROOT).startsWith(prefix)) {
                if (i + 1 < lines.size() && lines.get(i + 1).startsWith(" ")) {
                    throw new ToolException(dn + ": " + attribute + " is folded over several lines; setup edits "
                            + "only the shipped config/config.ldif (restore it from git)");
                }
                lines.remove(i);
                at = i;
            }
        }
        if (at < 0) {
            at = range[1];
        }
        for (int v = values.length - 1; v >= 0; v--) {
            lines.add(at, attribute + ": " + values[v]);
        }
        return this;
    }

    /** Gives the entry {@code dn} the name {@code newDn}. */
    ConfigText rename(String dn, String newDn) throws ToolException {
        lines.set(entry(dn)[0], "dn: " + newDn);
        return this;
    }

    /** Puts {@code comment} (a line starting with #) first. */
    ConfigText header(String comment) {
        lines.add(0, comment);
        return this;
    }

    /** [index of the dn line, index after the entry's last line]. */
    private int[] entry(String dn) throws ToolException {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equalsIgnoreCase("dn: " + dn)) {
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).isBlank()) {
                    end++;
                }
                return new int[] {i, end};
            }
        }
        throw new ToolException("The configuration has no entry " + dn + "; setup needs the shipped "
                + "config/config.ldif (restore it from git)");
    }
}
