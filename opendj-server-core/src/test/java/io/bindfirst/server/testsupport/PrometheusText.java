package io.bindfirst.server.testsupport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The Prometheus text exposition format (version 0.0.4), parsed strictly for tests: the Prometheus Java client
 * writes it but has no parser. Every line must be a {@code # HELP}, a {@code # TYPE} given before its family's
 * samples, or a sample {@code name{label="value",...} value} whose name belongs to a typed family; a series may
 * not appear twice. Anything else fails with an {@link IllegalArgumentException} naming the line.
 */
public final class PrometheusText {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");
    /** The sample names a family of each type may have, by suffix. */
    private static final Map<String, List<String>> SUFFIXES = Map.of(
            "counter", List.of("", "_total", "_created"),
            "gauge", List.of(""),
            "untyped", List.of(""),
            "histogram", List.of("_bucket", "_count", "_sum", "_created"),
            "summary", List.of("", "_count", "_sum", "_created"));

    /** One sample: its name, its labels (sorted by name) and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final Map<String, String> types;
    private final List<Sample> samples;

    private PrometheusText(Map<String, String> types, List<Sample> samples) {
        this.types = types;
        this.samples = samples;
    }

    public static PrometheusText parse(String text) {
        Map<String, String> types = new HashMap<>();
        List<Sample> samples = new ArrayList<>();
        Set<String> series = new HashSet<>();
        if (!text.endsWith("\n")) {
            throw new IllegalArgumentException("the text does not end with a line feed");
        }
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        for (int n = 1; n <= lines.length; n++) {
            String line = lines[n - 1];
            try {
                if (line.startsWith("# HELP ")) {
                    name(line.substring(7).split(" ", 2)[0]);
                } else if (line.startsWith("# TYPE ")) {
                    String[] f = line.substring(7).split(" ");
                    if (f.length != 2 || !TYPES.contains(f[1])) {
                        throw new IllegalArgumentException("a TYPE line is a name and one of " + TYPES);
                    }
                    if (types.put(name(f[0]), f[1]) != null) {
                        throw new IllegalArgumentException("a second TYPE for " + f[0]);
                    }
                } else {
                    Sample s = sample(line);
                    if (family(s.name(), types) == null) {
                        throw new IllegalArgumentException("no TYPE before the sample " + s.name());
                    }
                    if (!series.add(s.name() + s.labels())) {
                        throw new IllegalArgumentException("the series appears twice");
                    }
                    samples.add(s);
                }
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                throw new IllegalArgumentException("line " + n + " (" + line + "): " + e.getMessage(), e);
            }
        }
        return new PrometheusText(types, List.copyOf(samples));
    }

    /** The family a sample name belongs to (the name of its TYPE line), or {@code null}. */
    private static String family(String sample, Map<String, String> types) {
        for (Map.Entry<String, String> t : types.entrySet()) {
            for (String suffix : SUFFIXES.get(t.getValue())) {
                if (sample.equals(t.getKey() + suffix)) {
                    return t.getKey();
                }
            }
        }
        return null;
    }

    private static String name(String s) {
        if (!NAME.matcher(s).matches()) {
            throw new IllegalArgumentException("'" + s + "' is not a metric name");
        }
        return s;
    }

    private static Sample sample(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        if (space < 0) {
            throw new IllegalArgumentException("a sample is a name and a value");
        }
        Map<String, String> labels = new TreeMap<>();
        String name;
        String rest;
        if (brace >= 0 && brace < space) {
            name = name(line.substring(0, brace));
            int i = brace + 1;
            while (line.charAt(i) != '}') {
                int eq = line.indexOf("=\"", i);
                if (eq < 0) {
                    throw new IllegalArgumentException("a label is name=\"value\"");
                }
                String label = line.substring(i, eq);
                if (!LABEL.matcher(label).matches()) {
                    throw new IllegalArgumentException("'" + label + "' is not a label name");
                }
                StringBuilder value = new StringBuilder();
                i = eq + 2;
                for (char c = line.charAt(i); c != '"'; c = line.charAt(i)) {
                    if (c == '\\') {
                        char e = line.charAt(++i);
                        value.append(e == 'n' ? '\n' : e);
                        if (e != 'n' && e != '\\' && e != '"') {
                            throw new IllegalArgumentException("the escape \\" + e + " is not allowed");
                        }
                    } else {
                        value.append(c);
                    }
                    i++;
                }
                if (labels.put(label, value.toString()) != null) {
                    throw new IllegalArgumentException("the label " + label + " appears twice");
                }
                i++;
                if (line.charAt(i) == ',') {
                    i++;
                } else if (line.charAt(i) != '}') {
                    throw new IllegalArgumentException("labels are separated by commas");
                }
            }
            if (line.charAt(i + 1) != ' ') {
                throw new IllegalArgumentException("a space after the labels");
            }
            rest = line.substring(i + 2);
        } else {
            name = name(line.substring(0, space));
            rest = line.substring(space + 1);
        }
        String[] f = rest.split(" ");
        if (f.length > 2) {
            throw new IllegalArgumentException("a sample is a value and an optional timestamp");
        }
        return new Sample(name, Map.copyOf(labels), value(f[0]));
    }

    private static double value(String s) {
        switch (s) {
            case "+Inf": return Double.POSITIVE_INFINITY;
            case "-Inf": return Double.NEGATIVE_INFINITY;
            case "NaN": return Double.NaN;
            default:
                try {
                    return Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + s + "' is not a value");
                }
        }
    }

    /** The type of the family {@code name}, or {@code null} when it has no TYPE line. */
    public String type(String name) {
        return types.get(name);
    }

    public List<Sample> samples() {
        return samples;
    }

    /**
     * The value of the one sample with this name and exactly these labels.
     *
     * @param labels label names and values, alternately
     * @throws AssertionError when there is no such sample
     */
    public double value(String name, String... labels) {
        Map<String, String> wanted = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        for (Sample s : samples) {
            if (s.name().equals(name) && s.labels().equals(wanted)) {
                return s.value();
            }
        }
        throw new AssertionError("no sample " + name + wanted + " among " + samples.size() + " samples");
    }

    /** Whether some sample has this name (whatever its labels). */
    public boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }
}
