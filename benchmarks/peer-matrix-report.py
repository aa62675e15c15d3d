#!/usr/bin/env python3
"""Summarizes the rows peer-matrix.sh appends to peer-matrix.csv (python3 standard library only).

    peer-matrix-report.py [--csv FILE] [--out DIR] [--run ID | --all]

Writes DIR/peer-matrix.md (settings, the commands to reproduce, medians per server/threads/pin,
ratios bindfirst/slapd and bindfirst/OpenDJ, memory, noise) and DIR/peer-matrix.svg (binds/s and
mean latency against client threads, one line per server, a row of panels per pinning; the whiskers
span min..max over the repetitions). Without --run it takes the latest run in the CSV; --all pools
every run (only sensible for runs with the same SECS/WARM).
"""
import argparse
import csv
import json
import math
import os
import statistics as st
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ORDER = ["bindfirst", "slapd", "opendj"]
LABEL = {"bindfirst": "bindfirst", "slapd": "OpenLDAP slapd 2.5", "opendj": "OpenDJ 5.0.3"}
SHORT = {"bindfirst": "bindfirst", "slapd": "slapd", "opendj": "OpenDJ"}
COLOR = {"bindfirst": "#d62728", "slapd": "#1f77b4", "opendj": "#2ca02c"}
PINS = ["pinned", "unpinned"]
PIN_TEXT = {"pinned": "pinned: server on CPU 0, client on CPU 1",
            "unpinned": "unpinned: server and client on both CPUs"}


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def vals(rows, key):
    return [x for x in (num(r[key]) for r in rows) if x is not None]


def med(rows, key):
    v = vals(rows, key)
    return st.median(v) if v else None


def f(x, p=0, thousands=False):
    if x is None:
        return "-"
    return f"{x:,.{p}f}" if thousands else f"{x:.{p}f}"


def ratio(a, b, p=2):
    return "-" if a is None or not b else f"{a / b:.{p}f}"


# ---------------------------------------------------------------------------------------------- SVG

def nice_step(span, n=5):
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def marker(server, x, y, color):
    if server == "slapd":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{color}"/>'
    if server == "opendj":
        return (f'<polygon points="{x:.1f},{y - 5:.1f} {x + 5:.1f},{y + 4:.1f} {x - 5:.1f},{y + 4:.1f}" '
                f'fill="{color}"/>')
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{color}"/>'


def panel(out, x0, y0, w, h, title, threads, series, ylabel, logy, yall):
    """series: {server: [(threads, median, lo, hi), ...]}; x is log-scaled client threads; yall: every value
    of this metric in the whole chart, so that the pinned and unpinned panels share their y scale."""
    left, right, top, bottom = 64, 12, 26, 40
    px0, px1, py0, py1 = x0 + left, x0 + w - right, y0 + top, y0 + h - bottom
    out.append(f'<text x="{x0 + w / 2:.1f}" y="{y0 + 16}" text-anchor="middle" font-weight="bold">{esc(title)}</text>')
    out.append(f'<rect x="{px0}" y="{py0}" width="{px1 - px0}" height="{py1 - py0}" fill="none" stroke="#888"/>')
    ys = [v for v in yall if v is not None and v > 0]
    if not series or not ys or not threads:
        out.append(f'<text x="{(px0 + px1) / 2:.1f}" y="{(py0 + py1) / 2:.1f}" text-anchor="middle">no data</text>')
        return
    lx = [math.log(t) for t in threads]
    lo_x, hi_x = min(lx), max(lx)
    if hi_x - lo_x < 1e-9:
        lo_x, hi_x = lo_x - 1, hi_x + 1
    pad = 0.06 * (hi_x - lo_x)
    lo_x, hi_x = lo_x - pad, hi_x + pad

    def sx(t):
        return px0 + (math.log(t) - lo_x) / (hi_x - lo_x) * (px1 - px0)

    if logy:
        lo_y = 10 ** math.floor(math.log10(min(ys)))
        hi_y = 10 ** math.ceil(math.log10(max(ys)))
        if hi_y <= lo_y:
            hi_y = lo_y * 10

        def sy(v):
            return py1 - (math.log10(v) - math.log10(lo_y)) / (math.log10(hi_y) - math.log10(lo_y)) * (py1 - py0)
        ticks, t = [], lo_y
        while t <= hi_y * 1.0001:
            ticks.append(t)
            t *= 10
        for t in ticks:  # minor grid at 2x and 5x
            for m in (2, 5):
                if t * m < hi_y:
                    out.append(f'<line x1="{px0}" x2="{px1}" y1="{sy(t * m):.1f}" y2="{sy(t * m):.1f}" stroke="#eee"/>')
    else:
        lo_y = 0
        step = nice_step(max(ys) * 1.08)
        hi_y = step * math.ceil(max(ys) * 1.08 / step)

        def sy(v):
            return py1 - (v - lo_y) / (hi_y - lo_y) * (py1 - py0)
        ticks = [i * step for i in range(int(round(hi_y / step)) + 1)]
    for t in ticks:
        y = sy(t)
        out.append(f'<line x1="{px0}" x2="{px1}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        lab = f"{t:g}" if logy else (f"{t / 1000:g}k" if t >= 1000 else f"{t:g}")
        out.append(f'<text x="{px0 - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{lab}</text>')
    for t in threads:
        x = sx(t)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{py0}" y2="{py1}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{py1 + 15}" text-anchor="middle" font-size="11">{t}</text>')
    out.append(f'<text x="{(px0 + px1) / 2:.1f}" y="{py1 + 32}" text-anchor="middle" font-size="11">'
               f'client threads = binding connections (log scale)</text>')
    out.append(f'<text transform="translate({x0 + 14},{(py0 + py1) / 2:.1f}) rotate(-90)" text-anchor="middle" '
               f'font-size="11">{esc(ylabel)}</text>')
    names = [s for s in ORDER if s in series]
    for i, s in enumerate(names):
        dx = (i - (len(names) - 1) / 2) * 5  # spread whiskers a little so they do not hide each other
        pts = [(sx(t) + dx, sy(m), sy(lo), sy(hi)) for t, m, lo, hi in series[s] if m and m > 0]
        c = COLOR[s]
        if len(pts) > 1:
            out.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
                c, " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in pts)))
        for x, y, ylo, yhi in pts:
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{ylo:.1f}" y2="{yhi:.1f}" stroke="{c}" stroke-width="1.2"/>')
            out.append(marker(s, x, y, c))


def svg(groups, threads, pins, servers, title, subtitle):
    pw, ph = 470, 300
    width, height = 2 * pw + 20, 70 + len(pins) * (ph + 24) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">{esc(title)}</text>',
           f'<text x="{width / 2}" y="38" text-anchor="middle" font-size="11" fill="#444">{esc(subtitle)}</text>']
    lx = 20
    for s in [s for s in ORDER if s in servers]:  # legend
        out.append(f'<line x1="{lx}" x2="{lx + 24}" y1="56" y2="56" stroke="{COLOR[s]}" stroke-width="2"/>')
        out.append(marker(s, lx + 12, 56, COLOR[s]))
        out.append(f'<text x="{lx + 30}" y="60">{esc(LABEL[s])}</text>')
        lx += 40 + 7 * len(LABEL[s])
    out.append(f'<text x="{lx + 10}" y="60" fill="#444" font-size="11">point = median, whisker = min..max</text>')
    for row, pin in enumerate(pins):
        y0 = 70 + row * (ph + 24)
        for col, (key, ylabel, logy) in enumerate([("binds_per_s", "binds/s", False),
                                                   ("mean_ms", "mean latency, ms (log scale)", True)]):
            yall = [v for rs in groups.values() for v in vals(rs, key)]
            series = {}
            for s in servers:
                pts = []
                for t in threads:
                    v = vals(groups.get((pin, t, s), []), key)
                    if v:
                        pts.append((t, st.median(v), min(v), max(v)))
                if pts:
                    series[s] = pts
            name = "Throughput" if col == 0 else "Mean latency"
            panel(out, 10 + col * (pw + 0), y0, pw, ph, f"{name}, {PIN_TEXT[pin]}", threads, series, ylabel, logy, yall)
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------------------- markdown

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", default=os.path.join(HERE, "peer-results", "peer-matrix.csv"))
    ap.add_argument("--out", default=os.path.join(HERE, "peer-results"))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--run", help="run id (first CSV column); default: the latest")
    g.add_argument("--all", action="store_true", help="pool every run in the CSV")
    a = ap.parse_args()

    with open(a.csv, newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        sys.exit(f"no rows in {a.csv}")
    runs = sorted({r["run"] for r in rows})
    if a.all:
        chosen = runs
    else:
        run = a.run or runs[-1]
        if run not in runs:
            sys.exit(f"run {run} is not in {a.csv} (runs: {' '.join(runs)})")
        chosen = [run]
    rows = [r for r in rows if r["run"] in chosen]
    metas = {}
    mpath = os.path.join(os.path.dirname(os.path.abspath(a.csv)), "peer-matrix-runs.jsonl")
    if os.path.exists(mpath):
        for line in open(mpath):
            if line.strip():
                m = json.loads(line)
                metas[m.get("run")] = m
    meta = metas.get(chosen[-1], {})

    groups = defaultdict(list)
    for r in rows:
        groups[(r["pin"], int(r["threads"]), r["server"])].append(r)
    threads = sorted({k[1] for k in groups})
    pins = [p for p in PINS if any(k[0] == p for k in groups)]
    servers = [s for s in ORDER if any(k[2] == s for k in groups)]
    reps = max(int(r["rep"]) for r in rows)
    secs = sorted({r["secs"] for r in rows})
    warm = sorted({r["warm"] for r in rows})

    # Written for a reader with their own clone: the checkout's location on the measuring machine means nothing there.
    script = "<checkout>/benchmarks/peer-matrix.sh"
    env = []
    for k, d in (("reps", "3"), ("secs", "30"), ("warm", "10"), ("threads", "1 16 200"),
                 ("pins", "pinned unpinned"), ("servers", "bindfirst slapd opendj"), ("prewarm", "20")):
        v = meta.get(k)
        if v is not None and v != d:
            env.append(f'{k.upper()}="{v}"' if " " in v else f"{k.upper()}={v}")
    md = []
    md.append("# Bind throughput and latency: bindfirst, OpenLDAP slapd, OpenDJ 5.0.3 (side by side)\n")
    md.append(f"Run {', '.join(chosen)}" + (f", {meta['start']} .. {meta.get('end', '?')}" if meta.get("start") else "")
              + f"; {len(rows)} runs, {reps} repetition(s) per cell, {'/'.join(secs)} s measured after "
              f"{'/'.join(warm)} s warm-up each. Generated by `benchmarks/peer-matrix-report.py` from "
              f"`peer-matrix.csv` (raw rows, one per run).\n")
    short = reps < 3 or any(int(x) < 30 for x in secs)
    if short:
        md.append(f"**A short verification run ({reps} repetition(s), {'/'.join(secs)} s windows): it checks that the "
                  f"script works, its figures are not results to quote.**\n")
    md.append("To reproduce (as root, from a scratch folder outside the checkout; the peer servers' files go to `./.peers/`):\n")
    md.append("```sh")
    md.append("mkdir -p ~/peerwork && cd ~/peerwork")
    md.append(f"{' '.join(env) + ' ' if env else ''}{script}")
    if env:
        md.append(f"# the full matrix (REPS=3, SECS=30, WARM=10, threads 1 16 200, pinned and unpinned): {script}")
    md.append(f"# the tables and chart again, from the CSV:")
    md.append(f"python3 <checkout>/benchmarks/peer-matrix-report.py --run {chosen[-1]}")
    md.append("```\n")
    md.append("It starts what is not running (`bin/start-ds --port 1391`; `benchmarks/peers/setup-slapd.sh`, which "
              "installs Debian's slapd; `benchmarks/peers/setup-opendj.sh`, which installs OpenDJ from Maven Central "
              "into `./.peers/opendj` once) and stops only what it started. "
              "Load: `benchmarks/peers/authrate.sh` = UnboundID AuthRate 7.0.5 `--bindOnly`, each thread re-binding "
              "on one persistent connection as a random `uid=user.[0-4999],ou=People,dc=example,dc=com` "
              "(AuthRate also opens one idle connection per thread: 200 threads = 400 TCP connections). "
              "Servers run back to back within each cell, the first one rotating with the repetition. "
              "Pinned: `taskset -a -p -c 0 <server pid>`, client `taskset -c 1`; unpinned: server on all CPUs. "
              "CPU and RSS are sampled from `/proc` over the measured window.\n")
    if meta:
        srv = []
        if "bindfirst" in servers:
            srv.append(f"bindfirst: JVM `{meta.get('bindfirst_jvm') or '-'}`, access loggers "
                       f"{meta.get('bindfirst_logs') or '?'}, 10,000 users (its default data)")
        if "slapd" in servers:
            srv.append(f"{meta.get('slapd') or 'slapd'}: back-mdb, loglevel {meta.get('slapd_loglevel') or '?'}, 5,000 users")
        if "opendj" in servers:
            srv.append(f"OpenDJ: JVM `{meta.get('opendj_jvm') or '-'}` (default heap), access loggers "
                       f"{meta.get('opendj_logs') or '?'}, 5,000 users")
        md.append(f"Machine: {meta.get('ncpu', '?')} vCPU ({meta.get('cpu', '?')}), {meta.get('mem_gib', '?')} GiB, "
                  f"kernel {meta.get('kernel', '?')}, {meta.get('java', '')}. Load average (1/5/15 min) at start "
                  f"{meta.get('load_start', '?')}, at end {meta.get('load_end', '?')}. Started by the script: "
                  f"{meta.get('started') or 'none'}.\n")
        md.append("Servers as configured: " + "; ".join(srv) + ". The load binds as uid=user.0..user.4999 everywhere.\n")

    md.append("## Medians per server, connections and pinning\n")
    md.append("Server/client CPU in cores (of 2); µs/bind = CPU-seconds per bind; other = CPU used by everything "
              "else on the machine during the window (noise; max over the runs); RSS and TCP connections at the end "
              "of the window (max over runs).\n")
    md.append("| pinning | threads | server | n | binds/s median (min..max) | mean ms | server µs/bind | "
              "client µs/bind | server CPU | client CPU | other CPU max | RSS MiB | TCP conns | errors/s |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for pin in pins:
        for t in threads:
            for s in servers:
                rs = groups.get((pin, t, s))
                if not rs:
                    continue
                b = vals(rs, "binds_per_s")
                o = vals(rs, "other_cpu")
                rss = vals(rs, "server_rss_mib")
                nc = vals(rs, "server_conns")
                err = vals(rs, "errors_per_s")
                rng = f"{st.median(b):,.0f} ({min(b):,.0f}..{max(b):,.0f})" if b else "failed"
                md.append(f"| {pin} | {t} | {SHORT[s]} | {len(b)}/{len(rs)} | {rng} | {f(med(rs, 'mean_ms'), 3)} | "
                          f"{f(med(rs, 'server_us_per_bind'))} | {f(med(rs, 'client_us_per_bind'))} | "
                          f"{f(med(rs, 'server_cpu'), 2)} | {f(med(rs, 'client_cpu'), 2)} | "
                          f"{f(max(o) if o else None, 2)} | {f(max(rss) if rss else None)} | "
                          f"{f(max(nc) if nc else None)} | {f(max(err) if err else None, 1)} |")

    others = [s for s in ("slapd", "opendj") if s in servers]
    if "bindfirst" in servers and others:
        md.append("\n## Ratios (bindfirst / peer, ratio of medians)\n")
        md.append("Throughput above 1 and latency or CPU per bind below 1 favour bindfirst.\n")
        head = "| pinning | threads |"
        for p in others:
            head += f" binds/s vs {SHORT[p]} | mean ms vs {SHORT[p]} | server µs/bind vs {SHORT[p]} |"
        md.append(head)
        md.append("|---|---|" + "---|---|---|" * len(others))
        for pin in pins:
            for t in threads:
                bf = groups.get((pin, t, "bindfirst"))
                if not bf:
                    continue
                line = f"| {pin} | {t} |"
                for p in others:
                    pr = groups.get((pin, t, p), [])
                    line += (f" {ratio(med(bf, 'binds_per_s'), med(pr, 'binds_per_s'))} |"
                             f" {ratio(med(bf, 'mean_ms'), med(pr, 'mean_ms'))} |"
                             f" {ratio(med(bf, 'server_us_per_bind'), med(pr, 'server_us_per_bind'))} |")
                md.append(line)

    md.append("\n## Memory\n")
    for s in servers:
        by_t = []
        for t in threads:
            rs = [r for pin in pins for r in groups.get((pin, t, s), [])]
            rss, nc = vals(rs, "server_rss_mib"), vals(rs, "server_conns")
            if rss:
                by_t.append(f"{t} thread{'s' if t != 1 else ''}: {st.median(rss):.0f} MiB (max {max(rss):.0f})"
                            + (f" with {max(nc):.0f} TCP connections open" if nc else ""))
        if by_t:
            md.append(f"* {LABEL[s]}: " + "; ".join(by_t) + ".")
    md.append("\nRSS is resident memory under load at the end of each measured window, median over both pinnings "
              "and all repetitions. For the JVM servers it is mostly heap the JVM chose to grow into, bounded by "
              "their flags above.\n")

    o = vals(rows, "other_cpu")
    if o:
        noisy = sum(1 for x in o if x > 0.3)
        md.append("## Noise\n")
        md.append(f"\"Other\" CPU over the {len(o)} measured windows: min {min(o):.2f}, median {st.median(o):.2f}, "
                  f"max {max(o):.2f} cores; {noisy} run(s) had more than 0.3 cores of foreign load. "
                  f"Compare ratios within a run rather than absolute numbers across runs.\n")

    md.append("## Chart\n")
    md.append("![binds/s and mean latency against client threads, pinned and unpinned](peer-matrix.svg)\n")

    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "peer-matrix.md"), "w") as fh:
        fh.write("\n".join(md))
    sub = (f"UnboundID AuthRate --bindOnly, {'/'.join(secs)} s after {'/'.join(warm)} s warm-up, "
           f"{reps} rep(s), {meta.get('ncpu', '?')} vCPU, loopback; run {', '.join(chosen)}")
    with open(os.path.join(a.out, "peer-matrix.svg"), "w") as fh:
        fh.write(svg(groups, threads, pins, servers, "Simple binds: bindfirst vs OpenLDAP slapd vs OpenDJ", sub))
    print("\n".join(md))
    print(f"\nwrote {os.path.join(a.out, 'peer-matrix.md')} and {os.path.join(a.out, 'peer-matrix.svg')}")


if __name__ == "__main__":
    main()
