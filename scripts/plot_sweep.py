#!/usr/bin/python3
"""Plots a `sanvp sweep` result (sweep.csv) as PNG files.

The first varied key is the x axis (numbers with units such as 150ns are plotted by their
number); when a second key was varied, each of its values is one line. Several rows of one point
(one per seed, column `seed`, as `sanvp sweep --seeds N` writes them) are drawn as their mean with
a 95 % confidence band over the seeds. Written next to the CSV unless --out is given, each with a
NAME.axes.json of its labels and legend (scripts/plot_axes.py):
  latency_vs_<x>.png           latency created->tail: p50, p99 and mean per point, with sample counts
  throughput_vs_<x>.png        offered and accepted throughput per node (MB/s and flits per link.cp),
                               the link bandwidth, and the points the run judged saturated
  link_utilization_vs_<x>.png  the busiest link's utilization over the measurement window
Usage: /usr/bin/python3 scripts/plot_sweep.py SWEEP_DIR/sweep.csv [--out DIR] [--x KEY]
"""
import argparse
import csv
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")  # headless: CI has no display
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_axes import mean_ci, save, time_unit  # noqa: E402

FIXED = {"point", "exit_code", "status", "packets_created", "packets_delivered", "latency_mean_ns", "latency_p50_ns",
         "latency_p99_ns", "latency_max_ns", "net_latency_p50_ns", "net_latency_p99_ns", "accepted_MBps_per_node",
         "offered_load", "max_link_utilization", "simulated_us", "offered_MBps_per_node", "offered_flit_rate",
         "accepted_flit_rate", "samples", "backlog_start", "backlog_end", "saturated", "link_MBps", "seed"}
# Units of varied keys whose values carry none (a value such as 150ns names its own).
KEY_UNITS = {"traffic.load": "fraction of link bandwidth", "traffic.payload": "bytes", "traffic.burst": "packets",
             "traffic.hotspot_fraction": "fraction of packets", "switch.ports": "ports", "fc.bl": "flits", "fc.bh": "flits",
             "fc.size": "flits", "fault.drop": "probability per flit", "fault.corrupt": "probability per flit"}


def number(text):
    m = re.match(r"\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)", text or "")
    return float(m.group(1)) if m else None


def ok(r):
    return r["exit_code"] == "0"


class Sweep:
    """The rows of a sweep grouped into series (other varied keys) and points (x value), seeds merged."""

    def __init__(self, rows, x):
        self.x = x
        keys = [k for k in rows[0].keys() if k not in FIXED]
        self.group_keys = [k for k in keys if k != x]
        self.categories = [] if all(number(r[x]) is not None for r in rows) else list(dict.fromkeys(r[x] for r in rows))
        self.unit = re.sub(r"^[-+0-9.eE]+", "", rows[0][x]).strip()
        self.series = {}
        for r in rows:
            label = ", ".join(f"{k}={r[k]}" for k in self.group_keys)
            self.series.setdefault(label, {}).setdefault(self.xval(r), []).append(r)
        self.seeds = max(len(rs) for s in self.series.values() for rs in s.values())

    def xval(self, r):
        return self.categories.index(r[self.x]) if self.categories else number(r[self.x])

    def xlabel(self):
        if self.categories:
            return f"{self.x} (category)"
        unit = self.unit or KEY_UNITS.get(self.x, "value as set")
        return f"{self.x} ({unit})"

    def stats(self, label, col, scale=1.0):
        """[(x, mean, ci half-width, rows)] of the successful rows of one series."""
        out = []
        for xv in sorted(self.series[label]):
            rs = [r for r in self.series[label][xv] if ok(r) and number(r.get(col)) is not None]
            if rs:
                m, ci = mean_ci([number(r[col]) * scale for r in rs])
                out.append((xv, m, ci, rs))
        return out

    def failed(self):
        return sorted({self.xval(r) for s in self.series.values() for rs in s.values() for r in rs if not ok(r)})


def draw(ax, sw, label, col, style, what, scale=1.0, color=None):
    """Mean line of one column with its 95 % band over seeds; returns the line."""
    pts = sw.stats(label, col, scale)
    if not pts:
        return None
    xs = [p[0] for p in pts]
    (line,) = ax.plot(xs, [p[1] for p in pts], style, color=color, label=" ".join(v for v in (what, label) if v))
    if sw.seeds > 1:
        ax.fill_between(xs, [p[1] - p[2] for p in pts], [p[1] + p[2] for p in pts], color=line.get_color(), alpha=0.2, lw=0)
    return line


def finish(ax, sw, title, notes=()):
    """x axis, failed points (only when there are some), seeds, grid and legend."""
    if sw.categories:
        ax.set_xticks(range(len(sw.categories)))
        ax.set_xticklabels(sw.categories)
    ax.set_xlabel(sw.xlabel())
    for i, b in enumerate(sw.failed()):
        ax.axvline(b, color="red", alpha=0.3, label="failed point (no result)" if i == 0 else None)
    if sw.seeds > 1:
        ax.fill_between([], [], [], color="gray", alpha=0.2, label=f"95 % confidence band over {sw.seeds} seeds")
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    for n in notes:
        ax.text(0.01, 0.99, n, transform=ax.transAxes, fontsize=7, va="top")


def latency_plot(sw, path):
    cols = [("latency_p50_ns", "o-", "p50"), ("latency_p99_ns", "s--", "p99"), ("latency_mean_ns", "^:", "mean")]
    top = max((number(r[c]) or 0) for s in sw.series.values() for rs in s.values() for r in rs for c, _, _ in cols if ok(r))
    unit, f = time_unit(top)
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    few = sat_done = False
    for label in sw.series:
        for col, style, what in cols:
            draw(ax, sw, label, col, style, what, f)
        # p99 of fewer than 100 samples is the maximum: marked, and every point's count written.
        for xv, m, _, rs in sw.stats(label, "latency_p99_ns", f):
            n = min(int(number(r["samples"]) or 0) for r in rs) if "samples" in rs[0] else None
            if n is not None:
                ax.annotate(f"n={n}", (xv, m), textcoords="offset points", xytext=(3, 4), fontsize=6)
                if n < 100:
                    ax.plot([xv], [m], "o", mfc="none", mec="k", ms=10, label="p99 of < 100 samples (= max)" if not few else None)
                    few = True
        sat = [(xv, m) for xv, m, _, rs in sw.stats(label, "latency_p50_ns", f) if any(r.get("saturated") == "yes" for r in rs)]
        if sat:
            ax.plot([p[0] for p in sat], [p[1] for p in sat], "x", color="red", ms=10, mew=2,
                    label=None if sat_done else "saturated (p50): latency grows with the run, not a steady value")
            sat_done = True
    ax.set_ylabel(f"latency created->tail ({unit})")
    n_what = "fewest samples over the seeds" if sw.seeds > 1 else "samples"
    finish(ax, sw, f"Latency of the packets created in the measurement window (n = {n_what})")
    return save(fig, path)


def throughput_plot(sw, path):
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    link = [number(r.get("link_MBps")) for s in sw.series.values() for rs in s.values() for r in rs if number(r.get("link_MBps"))]
    for ax, (off, acc, unit) in zip(axes, (("offered_MBps_per_node", "accepted_MBps_per_node", "MB/s per node"),
                                            ("offered_flit_rate", "accepted_flit_rate", "flits per link.cp per node"))):
        marked = False
        one = len(sw.series) == 1  # one series: a colour per quantity; several: a colour per series
        for k, label in enumerate(sw.series):
            line = draw(ax, sw, label, off, "o--", "offered", color="C0" if one else f"C{k}")
            draw(ax, sw, label, acc, "s-", "accepted", color="C1" if one else line.get_color() if line else None)
            sat = [(xv, m) for xv, m, _, rs in sw.stats(label, acc) if any(r.get("saturated") == "yes" for r in rs)]
            if sat:
                ax.plot([p[0] for p in sat], [p[1] for p in sat], "x", color="red", ms=11, mew=2,
                        label=None if marked else "saturated: accepted < offered beyond the margin, or source queues grow")
                marked = True
        bw = 1.0 if "flit" in unit else (max(link) if link else None)
        if bw:
            what = "1 flit per link.cp" if "flit" in unit else f"{bw:g} MB/s, route, header and CRC bytes included"
            ax.axhline(bw, color="k", lw=1, ls="-.", label=f"link bandwidth ({what})")
        ax.set_ylabel(f"throughput ({unit})")
        ax.set_ylim(bottom=0)
        finish(ax, sw, f"Offered and accepted throughput ({unit.split(' per node')[0]})")
    return save(fig, path)


def utilization_plot(sw, path):
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    for label in sw.series:
        draw(ax, sw, label, "max_link_utilization", "o-", "busiest link")
    ax.set_ylabel("utilization (fraction of link bandwidth)")
    ax.set_ylim(0, 1.05)
    finish(ax, sw, "Busiest link over the measurement window")
    return save(fig, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--out", help="folder for the PNG files (default: the CSV's folder)")
    ap.add_argument("--x", help="varied key for the x axis (default: the first one)")
    a = ap.parse_args()
    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"error: {a.csv}: no rows")
    keys = [k for k in rows[0].keys() if k not in FIXED]
    if not keys:
        sys.exit(f"error: {a.csv}: no varied key column")
    x = a.x or keys[0]
    if x not in keys:
        sys.exit(f"error: --x {x}: not a varied key ({', '.join(keys)})")
    out = a.out or os.path.dirname(os.path.abspath(a.csv))
    os.makedirs(out, exist_ok=True)
    sw = Sweep(rows, x)
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", x)
    if any(ok(r) for r in rows):
        print(latency_plot(sw, os.path.join(out, f"latency_vs_{safe}.png")))
    print(throughput_plot(sw, os.path.join(out, f"throughput_vs_{safe}.png")))
    print(utilization_plot(sw, os.path.join(out, f"link_utilization_vs_{safe}.png")))


if __name__ == "__main__":
    main()
