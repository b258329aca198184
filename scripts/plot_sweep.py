#!/usr/bin/python3
"""Plots a `sanvp sweep` result (sweep.csv) as PNG files.

The first varied key is the x axis (numbers with units such as 150ns are plotted by their
number); when a second key was varied, each of its values is one line. Written next to the CSV
unless --out is given:
  latency_vs_<x>.png     latency created->tail: p50, p99 (and mean) per point
  throughput_vs_<x>.png  accepted throughput per node, and the busiest link's utilization
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

FIXED = {"point", "exit_code", "status", "packets_created", "packets_delivered", "latency_mean_ns", "latency_p50_ns",
         "latency_p99_ns", "latency_max_ns", "net_latency_p50_ns", "net_latency_p99_ns", "accepted_MBps_per_node",
         "offered_load", "max_link_utilization", "simulated_us"}


def number(text):
    m = re.match(r"\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)", text or "")
    return float(m.group(1)) if m else None


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
    group_keys = [k for k in keys if k != x]
    out = a.out or os.path.dirname(os.path.abspath(a.csv))
    os.makedirs(out, exist_ok=True)
    unit = re.sub(r"^[-+0-9.eE]+", "", rows[0][x])

    # Numbers (with units) are plotted by value; anything else (e.g. pattern names) by position.
    categories = [] if all(number(r[x]) is not None for r in rows) else list(dict.fromkeys(r[x] for r in rows))

    def xval(r):
        return categories.index(r[x]) if categories else number(r[x])

    series = {}
    for r in rows:
        label = ", ".join(f"{k}={r[k]}" for k in group_keys)
        series.setdefault(label, []).append(r)
    for s in series.values():
        s.sort(key=xval)

    def plot(name, ylabel, curves, title):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for label, rs in series.items():
            for col, style, what in curves:
                pts = [(xval(r), number(r[col])) for r in rs if number(r[col]) is not None and r["exit_code"] == "0"]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=" ".join(v for v in (what, label) if v))
                bad = [xval(r) for r in rs if r["exit_code"] != "0"]
                for b in bad:
                    ax.axvline(b, color="red", alpha=0.3)
        if categories:
            ax.set_xticks(range(len(categories)))
            ax.set_xticklabels(categories)
        ax.set_xlabel(f"{x}" + (f" ({unit})" if unit and not categories else ""))
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = os.path.join(out, name)
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print(path)

    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", x)
    plot(f"latency_vs_{safe}.png", "latency created->tail (ns)",
         [("latency_p50_ns", "o-", "p50"), ("latency_p99_ns", "s--", "p99"), ("latency_mean_ns", "^:", "mean")],
         "Packet latency (red lines: failed points)")
    fig_curves = [("accepted_MBps_per_node", "o-", "accepted MB/s per node")]
    plot(f"throughput_vs_{safe}.png", "MB/s per node", fig_curves, "Accepted throughput")
    plot(f"link_utilization_vs_{safe}.png", "busiest link utilization", [("max_link_utilization", "o-", "max link")],
         "Busiest link")


if __name__ == "__main__":
    main()
