#!/usr/bin/env python3
"""A dashboard-style chart of a soak.sh run, from the server's own /metrics scrapes.

    benchmarks/soak-chart.py DIR [-o FILE.png]

DIR is a soak.sh output folder: metrics.txt (the /metrics scrapes, each after a "# soak t=SECONDS" line),
samples.csv (the heap after each forced full GC, and the RSS) and summary.txt. Draws four panels over the
run's time: operations per second by type (ldap_operations_total, all results), bind latency p50 and p99
per scrape interval (ldap_bind_duration_seconds buckets, every scheme and outcome together, interpolated
within a bucket as Prometheus's histogram_quantile does), connections open, and the heap (used, from
jvm_memory_used_bytes, and after a full GC, from samples.csv) with the RSS. Writes DIR/soak.png unless -o.
Needs matplotlib (Debian: apt-get install python3-matplotlib). Exit: 0 drawn; 1 no usable scrape; 2 usage.
"""
import argparse
import csv
import math
import os
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
TYPES = ["bind", "search", "modify", "compare", "add", "delete", "modify_dn", "extended"]


def read_scrapes(path):
    """[(t, [(name, labels, value)])] in file order; a failed scrape is left out."""
    scrapes, current = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# soak t="):
                current = (int(line.split("=", 1)[1]), [])
                scrapes.append(current)
            elif current is not None and line and not line.startswith("#"):
                m = SAMPLE.match(line)
                if m:
                    try:
                        value = float(m.group(3))
                    except ValueError:
                        continue
                    current[1].append((m.group(1), dict(LABEL.findall(m.group(2) or "")), value))
    return [s for s in scrapes if s[1]]


def total(samples, name, **want):
    return sum(v for n, labels, v in samples
               if n == name and all(labels.get(k) == w for k, w in want.items()))


def buckets(samples):
    """Cumulative bind-time bucket counts by upper bound (seconds), every scheme and outcome summed."""
    out = {}
    for n, labels, v in samples:
        if n == "ldap_bind_duration_seconds_bucket":
            le = float("inf") if labels["le"] == "+Inf" else float(labels["le"])
            out[le] = out.get(le, 0) + v
    return out


def quantile(q, cumulative):
    """histogram_quantile over {upper bound: cumulative count}: linear within the bucket that holds q."""
    bounds = sorted(cumulative)
    count = cumulative[bounds[-1]] if bounds else 0
    if count <= 0:
        return math.nan
    rank, lower, below = q * count, 0.0, 0.0
    for b in bounds:
        if cumulative[b] >= rank:
            if math.isinf(b):
                return lower  # beyond the last finite bound: that bound is all we know
            inside = cumulative[b] - below
            return lower + (b - lower) * ((rank - below) / inside if inside > 0 else 1)
        lower, below = b, cumulative[b]
    return lower


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir")
    p.add_argument("-o", "--output")
    a = p.parse_args()
    scrapes = read_scrapes(os.path.join(a.dir, "metrics.txt"))
    if len(scrapes) < 3:
        print("soak-chart.py: fewer than 3 scrapes in %s/metrics.txt" % a.dir, file=sys.stderr)
        return 1
    try:
        import matplotlib
    except ImportError:
        print("soak-chart.py: matplotlib is missing (Debian: apt-get install python3-matplotlib, then run it"
              " with /usr/bin/python3)", file=sys.stderr)
        return 2
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [t / 60 for t, _ in scrapes]
    mid = [(minutes[i] + minutes[i - 1]) / 2 for i in range(1, len(scrapes))]
    fig, ax = plt.subplots(2, 2, figsize=(12, 7.2), sharex=True)
    ops, lat, conns, heap = ax[0][0], ax[0][1], ax[1][0], ax[1][1]

    for kind in TYPES:
        counts = [total(s, "ldap_operations_total", type=kind) for _, s in scrapes]
        if counts[-1] - counts[0] <= 0:
            continue
        rates = [(counts[i] - counts[i - 1]) / max(1, scrapes[i][0] - scrapes[i - 1][0])
                 for i in range(1, len(scrapes))]
        ops.plot(mid, rates, label=kind, linewidth=1.2)
    ops.set_title("operations/s by type (ldap_operations_total)")
    ops.legend(loc="lower right", fontsize=8)
    ops.set_ylim(bottom=0)

    p50, p99 = [], []
    for i in range(1, len(scrapes)):
        now, before = buckets(scrapes[i][1]), buckets(scrapes[i - 1][1])
        delta = {b: now[b] - before.get(b, 0) for b in now}
        p50.append(quantile(0.50, delta) * 1000)
        p99.append(quantile(0.99, delta) * 1000)
    lat.plot(mid, p99, label="p99", color="tab:red", linewidth=1.2)
    lat.plot(mid, p50, label="p50", color="tab:blue", linewidth=1.2)
    lat.set_title("bind latency, ms, log scale (ldap_bind_duration_seconds)")
    lat.legend(loc="upper right", fontsize=8)
    lat.set_yscale("log")  # p50 and p99 are often two orders of magnitude apart

    conns.plot(minutes, [total(s, "ldap_connections_open") for _, s in scrapes], color="tab:green")
    conns.set_title("connections open (ldap_connections_open)")
    conns.set_ylim(bottom=0)
    conns.set_xlabel("minutes")

    mib = 1024 * 1024
    heap.plot(minutes, [total(s, "jvm_memory_used_bytes", area="heap") / mib for _, s in scrapes],
              color="tab:gray", linewidth=0.8, label="heap used (jvm_memory_used_bytes)")
    samples_csv = os.path.join(a.dir, "samples.csv")
    if os.path.exists(samples_csv):
        with open(samples_csv, encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        t = [int(r["t_s"]) / 60 for r in rows]
        heap.plot(t, [int(r["heap_after_gc_bytes"]) / mib for r in rows], "o-", color="tab:purple",
                  markersize=3, label="heap after full GC")
        heap.plot(t, [int(r["rss_bytes"]) / mib for r in rows], "s-", color="tab:orange", markersize=3,
                  label="RSS")
    heap.set_title("memory, MiB")
    heap.legend(loc="center right", fontsize=8)
    heap.set_ylim(bottom=0)
    heap.set_xlabel("minutes")
    for axis in (ops, lat, conns, heap):
        axis.grid(alpha=0.3)

    title = "soak run"
    summary = os.path.join(a.dir, "summary.txt")
    if os.path.exists(summary):
        with open(summary, encoding="utf-8") as f:
            line = next((l for l in f if l.startswith("SOAK")), "")
        fields = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
        if fields:
            title = "soak: %s connections, %s min, %s ops/s offered, %s errors" % (
                fields.get("connections"), fields.get("minutes"), fields.get("rate"), fields.get("errors"))
    fig.suptitle(title)
    fig.tight_layout()
    out = a.output or os.path.join(a.dir, "soak.png")
    fig.savefig(out, dpi=100)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
