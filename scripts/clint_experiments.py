#!/usr/bin/python3
"""Runs the Clint experiments with `sanvp clint` and draws the paper's figures as PNG.

  scripts/clint_experiments.py [--sanvp build/sanvp] [--out out/clint] [--cycles 1e7] [--seed 1]

Writes fig8_bulk_latency.png (B1-B4), fig9_quick_latency.png (Q1, Q2), fig10_collisions.png,
arbiters_b4.png (B4 with lcf / islip / maxsize), table2.md (side by side with the paper's
Table 2) and the raw JSON of every sweep.
"""
import argparse
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_axes import readable_log_ticks, save  # noqa: E402

PAPER_RATIO = {(0.1, False): "51", (0.1, True): "19", (0.3, False): "11", (0.3, True): "11"}  # as printed
PAPER_TABLE2 = {  # load -> (bulk smooth, bulk bursty, quick smooth, quick bursty), us; None = saturated
    0.1: (7.4, 21.0, 0.1, 1.1),
    0.3: (10.5, 32.9, 1.0, 2.8),
    0.5: (16.8, 53.5, None, None),
    0.7: (34.2, 103.7, None, None),
    0.9: (464.4, 1636.7, None, None),
}


def sweep(args, name, extra):
    path = os.path.join(args.out, name + ".json")
    cmd = [args.sanvp, "clint", "--cycles", args.cycles, "--seed", str(args.seed), "--json", path] + extra
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        return json.load(f)["points"]


def series(points, arch, bursty, key="mean_latency_us"):
    pts = sorted((p for p in points if p["arch"] == arch and p["bursty"] == bursty), key=lambda p: p["load"])
    return [p["load"] for p in pts], [p[key] for p in pts], [p["saturated"] for p in pts]


def paper_series(arch, bursty):
    """Table 2's values for B4 (bulk) or Q2 (quick): [(load, us)], saturated entries left out."""
    col = {("B4", False): 0, ("B4", True): 1, ("Q2", False): 2, ("Q2", True): 3}.get((arch, bursty))
    if col is None:
        return []
    return [(load, v[col]) for load, v in PAPER_TABLE2.items() if v[col] is not None]


def latency_plot(points, archs, title, path, paper_arch=None):
    """Mean latency per architecture; a saturated point has no steady-state latency (it grows with
    the run), so it is drawn as an x at the top edge, not at a latency; Table 2 drawn as 'paper'."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    for ax, bursty in zip(axes, (False, True)):
        sat_drawn = False
        for i, arch in enumerate(archs):
            x, y, sat = series(points, arch, bursty)
            xs = [a for a, s in zip(x, sat) if not s]
            ys = [b for b, s in zip(y, sat) if not s]
            (line,) = ax.plot(xs, ys, marker="o", label=arch)
            xo = [a for a, s in zip(x, sat) if s]
            if xo:
                # One row per architecture at the top, so coinciding loads stay visible.
                ax.plot(xo, [0.97 - 0.045 * i] * len(xo), marker="x", ms=8, mew=2, linestyle="none", color=line.get_color(),
                        transform=ax.get_xaxis_transform(), clip_on=False)
                sat_drawn = True
        if sat_drawn:
            ax.plot([], [], "x", color="k", mew=2, label="saturated: source backlog grows, no steady latency (x at top, colour = arch)")
        if paper_arch:
            pp = paper_series(paper_arch, bursty)
            ax.plot([p[0] for p in pp], [p[1] for p in pp], "k*", ms=11, ls="none", label=f"paper (Table 2, {paper_arch})")
        n = min((p.get("latency_samples", p.get("completed", 0)) for p in points if p["bursty"] == bursty and not p["saturated"]), default=0)
        ax.set_yscale("log")
        ax.set_xlabel("offered load (fraction of link bandwidth)")
        ax.set_title(("bursty (bursts of 1..5)" if bursty else "non-bursty") + f"; >= {n} packets per point")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")  # latency grows with load: that corner is empty
        ax.set_ylabel("mean latency (µs)")
        readable_log_ticks(ax)
    fig.suptitle(title)
    save(fig, path)
    plt.close(fig)


def collision_plot(points, path):
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for arch, bursty, style in (("Q1", False, "-"), ("Q2", False, "--")):
        x, y, _ = series(points, arch, bursty, "collision_rate")
        ax.plot(x, y, style, marker="o", label=f"{arch}: all collisions")
        if arch == "Q1":
            x, y, _ = series(points, arch, bursty, "ack_collision_rate")
            ax.plot(x, y, ":", marker="s", label="Q1: collisions with acks")
    ax.set_xlabel("offered qreq load (fraction of link bandwidth)")
    ax.set_ylabel("collision rate (dropped / transmitted qreq)")
    ax.set_title("Quick-channel collision rates (non-bursty)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    save(fig, path)
    plt.close(fig)


def fmt(v, sat):
    return "saturated" if sat else f"{v:.1f}"


def table2(points, path):
    def get(arch, load, bursty):
        for p in points:
            if p["arch"] == arch and abs(p["load"] - load) < 1e-9 and p["bursty"] == bursty:
                return p["mean_latency_us"], p["saturated"]
        return None, True

    lines = ["| load | traffic | bulk B4 paper [us] | bulk B4 sanvp [us] | quick Q2 paper [us] | quick Q2 sanvp [us] | ratio paper (printed) | ratio sanvp |",
             "|---|---|---|---|---|---|---|---|"]
    for load, (bs, bb, qs, qb) in PAPER_TABLE2.items():
        for bursty, pb, pq in ((False, bs, qs), (True, bb, qb)):
            b, bsat = get("B4", load, bursty)
            q, qsat = get("Q2", load, bursty)
            rp = PAPER_RATIO.get((load, bursty), "")
            rs = f"{b / q:.0f}" if (b and q and not qsat and not bsat) else ""
            lines.append(f"| {load} | {'bursty' if bursty else 'non-bursty'} | {pb} | {fmt(b, bsat)} | "
                         f"{pq if pq is not None else 'saturated'} | {fmt(q, qsat)} | {rp} | {rs} |")
    text = "\n".join(lines) + "\n"
    with open(path, "w") as f:
        f.write(text)
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sanvp", default="build/sanvp")
    ap.add_argument("--out", default="out/clint")
    ap.add_argument("--cycles", default="1e7")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not os.path.exists(args.sanvp):
        sys.exit(f"error: {args.sanvp} not found (build with: cmake --build build --target sanvp)")
    os.makedirs(args.out, exist_ok=True)
    bulk = sweep(args, "fig8", ["--preset", "fig8"])
    quick = sweep(args, "fig9", ["--preset", "fig9"])
    latency_plot(bulk, ["B1", "B2", "B3", "B4"], "Bulk channel latency vs load (16 hosts)", os.path.join(args.out, "fig8_bulk_latency.png"), "B4")
    latency_plot(quick, ["Q1", "Q2"], "Quick channel latency vs load (16 hosts)", os.path.join(args.out, "fig9_quick_latency.png"), "Q2")
    collision_plot(quick, os.path.join(args.out, "fig10_collisions.png"))
    arb = []
    for name in ("lcf", "islip", "maxsize"):
        pts = sweep(args, f"b4_{name}", ["--arch", "B4", "--loads", "0.5,0.6,0.7,0.8,0.85,0.9,0.95", "--bursty", "both",
                                          "--set", f"clint.arbiter={name}"])
        for p in pts:
            p["arch"] = f"B4-{name}"
        arb += pts
    latency_plot(arb, ["B4-lcf", "B4-islip", "B4-maxsize"], "Scheduled bulk channel (B4) by arbiter", os.path.join(args.out, "arbiters_b4.png"))
    t2 = sweep(args, "table2", ["--preset", "table2"])
    print(table2(t2, os.path.join(args.out, "table2.md")))
    print(f"plots and tables in {args.out}/")


if __name__ == "__main__":
    main()
