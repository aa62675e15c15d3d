package io.bindfirst.server.testsupport;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import org.testng.annotations.Test;

public class PrometheusTextTest {
    private static final String TEXT = """
            # HELP ops_total Operations, by type
            # TYPE ops_total counter
            ops_total{type="bind"} 5.0
            ops_total{type="search",zone="a \\"b\\" \\\\ c\\nd"} 3
            # TYPE up gauge
            up 1 1700000000000
            # TYPE t_seconds histogram
            t_seconds_bucket{le="0.5"} 1
            t_seconds_bucket{le="+Inf"} 2
            t_seconds_count 2
            t_seconds_sum 0.75
            """;

    @Test
    public void readsSamplesWithLabelsEscapesAndTypes() {
        PrometheusText p = PrometheusText.parse(TEXT);
        assertEquals(p.value("ops_total", "type", "bind"), 5.0);
        assertEquals(p.value("ops_total", "zone", "a \"b\" \\ c\nd", "type", "search"), 3.0);
        assertEquals(p.value("up"), 1.0);
        assertEquals(p.value("t_seconds_bucket", "le", "+Inf"), 2.0);
        assertEquals(p.value("t_seconds_sum"), 0.75);
        assertEquals(p.type("ops_total"), "counter");
        assertEquals(p.type("t_seconds"), "histogram");
        assertEquals(p.samples().size(), 7);
        assertTrue(p.has("t_seconds_count"));
        assertFalse(p.has("t_seconds"));
    }

    @Test
    public void aSampleIsFoundByItsExactLabels() {
        PrometheusText p = PrometheusText.parse(TEXT);
        expectThrows(AssertionError.class, () -> p.value("ops_total"));
        expectThrows(AssertionError.class, () -> p.value("ops_total", "type", "add"));
    }

    @Test
    public void refusesWhatTheFormatDoesNotAllow() {
        String[] bad = {
            "up 1\n", // no TYPE
            "# TYPE up gauge\nup\n", // no value
            "# TYPE up gauge\nup one\n", // not a number
            "# TYPE up gauge\nup{a=\"1\" 1\n", // unclosed labels
            "# TYPE up gauge\nup{a=1} 1\n", // unquoted value
            "# TYPE up gauge\nup{a=\"1\",a=\"2\"} 1\n", // label twice
            "# TYPE up gauge\nup{a=\"\\t\"} 1\n", // unknown escape
            "# TYPE up gauge\nup 1\nup 2\n", // series twice
            "# TYPE up gauge\n# TYPE up gauge\n", // TYPE twice
            "# TYPE up meter\n", // no such type
            "# TYPE up gauge\nup_total 1\n", // a gauge has no _total
            "# TYPE up gauge\n\nup 1\n", // empty line
            "# TYPE up gauge\nup 1", // no final line feed
            "# TYPE 1up gauge\n", // bad name
        };
        for (String text : bad) {
            expectThrows(IllegalArgumentException.class, () -> PrometheusText.parse(text));
        }
    }
}
