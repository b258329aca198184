#!/usr/bin/python3
"""Runs the BTIN experiments (paper Section 5) with `sanvp btin experiment` and draws PNG plots.

  scripts/btin_experiments.py [--sanvp build/sanvp] [--out out/btin] [--runs 100] [--seed 1]

Configurations: 256 nodes / 75 switches and 1024 / 300 (8 ports, f = 0.75), group sizes 2..256
(and 1024); f = 0.5 / 0.7 / 0.9 on 256 / 75; the paper's parameters t_s = 2 us, t_p = 20 ns,
t_r = 300 ns with t_root = t_r (sanvp's default) and with t_root = 107 ns (the value the paper's
multicast figures imply). Then the same barriers with the Myrinet default parameters: BTIN and
the unicast scheme in the flit-level simulator (`sanvp btin flit`, real switches, --groups per
size on network seed 1), the multicast scheme on the model with Myrinet-derived t_p = link.ld,
t_r = switch.rd + switch.sd, t_root = one short worm on the root's link (19 flits x link.cp).
Writes fig6_latency.png, fig7_traffic.png, fig8_connectivity.png, fig9_myrinet.png, table.md
(next to the paper's numbers), myrinet.md and each run's CSV and JSON.
"""
import argparse
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_axes import readable_log_ticks, save  # noqa: E402

SIZES_256 = [2, 4, 8, 16, 32, 64, 128, 256]
SIZES_1024 = SIZES_256 + [512, 1024]


def run(args, name, nodes, switches, f, sizes, sets=()):
    base = os.path.join(args.out, name)
    cmd = [args.sanvp, "btin", "experiment", "--nodes", str(nodes), "--switches", str(switches), "--f", str(f),
           "--sizes", ",".join(map(str, sizes)), "--runs", str(args.runs), "--seed", str(args.seed),
           "--csv", base + ".csv", "--json", base + ".json"]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    if p.returncode not in (0, 2):
        sys.stderr.write(p.stderr)
        sys.exit(p.returncode)
    with open(base + ".json") as fh:
        return json.load(fh)


def series(j, key):
    return [s["size"] for s in j["sizes"]], [s[key]["mean"] for s in j["sizes"]]


def at(j, size, key):
    for s in j["sizes"]:
        if s["size"] == size:
            return s[key]["mean"]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sanvp", default="build/sanvp")
    ap.add_argument("--out", default="out/btin")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--groups", type=int, default=5, help="flit-level groups per size (Myrinet defaults); 0: no flit-level runs")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    r = {}
    r["256"] = run(args, "n256_s75_f0.75", 256, 75, 0.75, SIZES_256)
    r["1024"] = run(args, "n1024_s300_f0.75", 1024, 300, 0.75, SIZES_1024)
    r["256c"] = run(args, "n256_s75_f0.75_troot107", 256, 75, 0.75, SIZES_256, ["btin.t_root=107ns"])
    r["1024c"] = run(args, "n1024_s300_f0.75_troot107", 1024, 300, 0.75, SIZES_1024, ["btin.t_root=107ns"])
    for f in (0.5, 0.7, 0.9):
        r[f"f{f}"] = run(args, f"n256_s75_f{f}", 256, 75, f, SIZES_256)
        r[f"f{f}c"] = run(args, f"n256_s75_f{f}_troot107", 256, 75, f, SIZES_256, ["btin.t_root=107ns"])
    myr = ["btin.t_p=17ns", "btin.t_r=102ns", "btin.t_root=118.75ns"]
    r["256m"] = run(args, "n256_s75_myrinet_model", 256, 75, 0.75, SIZES_256, myr)
    r["1024m"] = run(args, "n1024_s300_myrinet_model", 1024, 300, 0.75, SIZES_1024, myr)
    fl = {}
    for key, nodes, switches, sizes in (("256", 256, 75, SIZES_256), ("1024", 1024, 300, SIZES_1024)) if args.groups > 0 else ():
        base = os.path.join(args.out, f"flit_n{nodes}_s{switches}_myrinet")
        cmd = [args.sanvp, "btin", "flit", "--nodes", str(nodes), "--switches", str(switches), "--sizes",
               ",".join(map(str, sizes)), "--groups", str(args.groups), "--seed", str(args.seed), "--setup-once",
               "--json", base + ".json"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        sys.stdout.write(p.stdout)
        if p.returncode != 0:
            sys.stderr.write(p.stderr)
            sys.exit(p.returncode)
        with open(base + ".json") as fh:
            fl[key] = json.load(fh)

    fig6(r, args.out)
    fig7(r, args.out)
    fig8(r, args.out)
    fig9(r, fl, args.out)
    with open(os.path.join(args.out, "myrinet.md"), "w") as fh:
        fh.write("| network | n | BTIN flit us | unicast flit us | multicast model us | mc/BTIN | uc/BTIN |\n|---|---|---|---|---|---|---|\n")
        for key, lab in (("256", "256/75"), ("1024", "1024/300")) if fl else ():
            xs, b = flit_mean(fl[key], "flit_ps")
            _, u = flit_mean(fl[key], "unicast_ps")
            for n, bb, uu in zip(xs, b, u):
                mc = at(r[key + "m"], n, "multicast_us")
                fh.write(f"| {lab} | {n} | {bb:.3f} | {uu:.2f} | {mc:.2f} | {mc / bb:.2f} | {uu / bb:.2f} |\n")
    print(open(os.path.join(args.out, "myrinet.md")).read())

    def ratio(j, size, a, b):
        x, y = at(j, size, a), at(j, size, b)
        return "-" if x is None or y is None else f"{x / y:.2f}"

    rows = [
        ("mc/BTIN latency, n=256, (256,75)", "3.8", ratio(r["256"], 256, "multicast_us", "btin_us"),
         ratio(r["256c"], 256, "multicast_us", "btin_us")),
        ("mc/BTIN latency, n=256, (1024,300)", "3.3", ratio(r["1024"], 256, "multicast_us", "btin_us"),
         ratio(r["1024c"], 256, "multicast_us", "btin_us")),
        ("BTIN latency, n=1024, (1024,300), us", "11.5", f"{at(r['1024'], 1024, 'btin_us'):.2f}",
         f"{at(r['1024c'], 1024, 'btin_us'):.2f}"),
        ("multicast latency, n=1024, (1024,300), us", "120.5", f"{at(r['1024'], 1024, 'multicast_us'):.2f}",
         f"{at(r['1024c'], 1024, 'multicast_us'):.2f}"),
        ("BTIN(1024,300,n=1024) / BTIN(256,75,n=256)", "1.8", ratio_pair(r["1024"], 1024, r["256"], 256, "btin_us"), "-"),
        ("mc(1024,300,n=1024) / mc(256,75,n=256)", "3.3", ratio_pair(r["1024"], 1024, r["256"], 256, "multicast_us"),
         ratio_pair(r["1024c"], 1024, r["256c"], 256, "multicast_us")),
        ("mc/BTIN traffic, n=256, (256,75)", "46.8", ratio(r["256"], 256, "links_multicast", "links_btin"), "-"),
        ("mc/BTIN traffic, n=256, (1024,300)", "88.6", ratio(r["1024"], 256, "links_multicast", "links_btin"), "-"),
        ("mc/BTIN latency, n=256, f=0.5", "8.7", refused(r["f0.5"]) or ratio(r["f0.5"], 256, "multicast_us", "btin_us"), "-"),
        ("mc/BTIN latency, n=256, f=0.7", "4.1", ratio(r["f0.7"], 256, "multicast_us", "btin_us"),
         ratio(r["f0.7c"], 256, "multicast_us", "btin_us")),
        ("mc/BTIN latency, n=256, f=0.9", "3.2", ratio(r["f0.9"], 256, "multicast_us", "btin_us"),
         ratio(r["f0.9c"], 256, "multicast_us", "btin_us")),
        ("BTIN latency, n=256, f=0.7 / 0.75 / 0.9, us", "-", "/".join(f"{at(r[k], 256, 'btin_us'):.2f}" for k in ("f0.7", "256", "f0.9")), "-"),
        ("BTIN height, n=256, (256,75) [Thm 1]", "-", f"{at(r['256'], 256, 'height'):.2f}",
         f"Thm1 {r['256']['sizes'][-1]['theorem1_height']:.2f}"),
        ("BTIN height, n=1024, (1024,300) [Thm 1]", "-", f"{at(r['1024'], 1024, 'height'):.2f}",
         f"Thm1 {r['1024']['sizes'][-1]['theorem1_height']:.2f}"),
    ]
    with open(os.path.join(args.out, "table.md"), "w") as fh:
        fh.write(f"runs per point: {args.runs}, seed {args.seed}\n\n")
        fh.write("| quantity | paper | sanvp (t_root = t_r = 300 ns) | sanvp (t_root = 107 ns) |\n|---|---|---|---|\n")
        for row in rows:
            fh.write("| " + " | ".join(row) + " |\n")
    print(open(os.path.join(args.out, "table.md")).read())


# The paper's numbers (Section 5): absolute latencies where it prints them, ratios otherwise.
PAPER_1024 = {"btin_us": 11.5, "multicast_us": 120.5}      # n = 1024 on (1024, 300), f = 0.75
PAPER_MC_BTIN_256 = {"256": 3.8, "1024": 3.3}               # multicast / BTIN latency at n = 256
PAPER_TRAFFIC_256 = {"256": 46.8, "1024": 88.6}             # multicast / BTIN links at n = 256
PAPER_F_256 = {0.5: 8.7, 0.7: 4.1, 0.9: 3.2}                 # multicast / BTIN latency at n = 256, (256, 75)
NETS = (("256", "(256, 75)", "-"), ("1024", "(1024, 300)", "--"))


def flit_mean(j, field):
    by = {}
    for x in j["samples"]:
        by.setdefault(x["size"], []).append(x[field] / 1e6)
    xs = sorted(by)
    return xs, [sum(by[n]) / len(by[n]) for n in xs]


def size_axis(ax, ylabel):
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("group size n (nodes)")
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)


def style_legend(ax, schemes, nets=NETS, extra=(), what="network "):
    """One entry per colour (scheme) and one per line style (network), not one per combination."""
    h = [Line2D([], [], color=c, marker=m, label=lab) for lab, c, m in schemes]
    h += [Line2D([], [], color="gray", ls=ls, label=f"{what}{lab}") for _, lab, ls in nets]
    h += list(extra)
    ax.legend(handles=h, fontsize=7)


def ratio_text(j, size, a="multicast_us", b="btin_us"):
    x, y = at(j, size, a), at(j, size, b)
    return "-" if x is None or y is None else f"{x / y:.1f}"


def fig6(r, out):
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    schemes = (("btin_us", "BTIN", "C0", "o"), ("multicast_us", "multicast", "C1", "s"), ("unicast_us", "unicast", "C2", "^"))
    for key, lab, ls in NETS:
        for scheme, _, col, m in schemes:
            x, y = series(r[key], scheme)
            ax.plot(x, y, ls, color=col, marker=m, ms=3)
        x, y = series(r[key + "c"], "multicast_us")
        ax.plot(x, y, ls, color="C3", marker="x", ms=4)
    paper = ax.plot([1024, 1024], [PAPER_1024["btin_us"], PAPER_1024["multicast_us"]], "k*", ms=12, ls="none",
                    label="paper: BTIN 11.5 µs, multicast 120.5 µs (n = 1024, (1024, 300))")[0]
    size_axis(ax, "synchronization latency (µs)")
    style_legend(ax, [(n, c, m) for _, n, c, m in schemes] + [("multicast, t_root = 107 ns", "C3", "x")], extra=[paper])
    ax.set_title("Synchronization latency, f=0.75, t_s=2 µs, t_p=20 ns, t_r=300 ns")
    ax.text(0, -0.14, f"paper multicast/BTIN at n=256: {PAPER_MC_BTIN_256['256']} (256, 75), {PAPER_MC_BTIN_256['1024']} (1024, 300); "
            f"sanvp: {ratio_text(r['256'], 256)}, {ratio_text(r['1024'], 256)}", transform=ax.transAxes, fontsize=7, va="top")
    save(fig, os.path.join(out, "fig6_latency.png"), dpi=120)
    plt.close(fig)


def fig7(r, out):
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    schemes = (("links_btin", "BTIN", "C0", "o"), ("links_multicast", "multicast", "C1", "s"), ("links_unicast", "unicast", "C2", "^"))
    for key, lab, ls in NETS:
        for scheme, _, col, m in schemes:
            x, y = series(r[key], scheme)
            ax.plot(x, y, ls, color=col, marker=m, ms=3)
    size_axis(ax, "links traversed per barrier (links)")
    style_legend(ax, [(n, c, m) for _, n, c, m in schemes])
    ax.set_title("Network traffic, f=0.75")
    ax.text(0, -0.14, f"paper multicast/BTIN links at n=256: {PAPER_TRAFFIC_256['256']} (256, 75), {PAPER_TRAFFIC_256['1024']} (1024, 300); "
            f"sanvp: {ratio_text(r['256'], 256, 'links_multicast', 'links_btin')}, "
            f"{ratio_text(r['1024'], 256, 'links_multicast', 'links_btin')}", transform=ax.transAxes, fontsize=7, va="top")
    save(fig, os.path.join(out, "fig7_traffic.png"), dpi=120)
    plt.close(fig)


def fig8(r, out):
    """Connectivity: f = 0.7 and 0.75 nearly coincide, so each f has its own marker and width;
    a configuration the generator refuses (f = 0.5) is named on the figure."""
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    fs = [(0.5, "C3", "D", 1.0), (0.7, "C0", "o", 3.0), (0.75, "C1", "s", 1.5), (0.9, "C2", "^", 1.0)]
    drawn, missing = [], []
    for f, col, m, lw in fs:
        j = r["256"] if f == 0.75 else r[f"f{f}"]
        if refused(j):
            missing.append(f"f = {f} not drawn: {refused(j)}")
            continue
        for scheme, ls in (("btin_us", "-"), ("multicast_us", "--")):
            x, y = series(j, scheme)
            ax.plot(x, y, ls, color=col, marker=m, ms=4, lw=lw, mfc="none" if f == 0.7 else col)
        drawn.append((f"f = {f}", col, m))
    size_axis(ax, "synchronization latency (µs)")
    readable_log_ticks(ax)
    style_legend(ax, drawn, nets=(("", "BTIN", "-"), ("", "multicast", "--")), what="")
    ax.set_title("Effect of connectivity, 256 nodes / 75 switches")
    note = "paper multicast/BTIN at n=256: " + ", ".join(f"f={f} {v}" for f, v in PAPER_F_256.items())
    note += "; sanvp: " + ", ".join(f"f={f} {ratio_text(r['256'] if f == 0.75 else r[f'f{f}'], 256)}" for f in (0.7, 0.75, 0.9))
    ax.text(0, -0.14, "\n".join([note] + missing), transform=ax.transAxes, fontsize=7, va="top")
    save(fig, os.path.join(out, "fig8_connectivity.png"), dpi=120)
    plt.close(fig)


def fig9(r, fl, out):
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for key, lab, ls in NETS:
        if fl:
            x, y = flit_mean(fl[key], "flit_ps")
            ax.plot(x, y, ls, color="C0", marker="o", ms=3)
            x, y = flit_mean(fl[key], "unicast_ps")
            ax.plot(x, y, ls, color="C2", marker="^", ms=3)
        x, y = series(r[key + "m"], "multicast_us")
        ax.plot(x, y, ls, color="C1", marker="x", ms=3)
    size_axis(ax, "synchronization latency (µs)")
    schemes = ([("BTIN flit-level", "C0", "o"), ("unicast flit-level", "C2", "^")] if fl else []) + [("multicast model", "C1", "x")]
    style_legend(ax, schemes)
    if not fl:
        ax.text(0, -0.14, "flit-level BTIN and unicast not run (--groups 0)", transform=ax.transAxes, fontsize=7, va="top")
    ax.set_title("Myrinet defaults (link 17 ns, 6.25 ns/flit, rd 100 ns, unit 10 ns), t_s = 2 µs")
    save(fig, os.path.join(out, "fig9_myrinet.png"), dpi=120)
    plt.close(fig)


def refused(j):
    """'refused (...)' with the generator's minimum f, or '' if the configuration ran."""
    if "error" not in j:
        return ""
    e = j["error"]
    i = e.find("(f >=")
    return "refused: generator " + (e[i:] if i >= 0 else "error")


def ratio_pair(ja, sa, jb, sb, key):
    a, b = at(ja, sa, key), at(jb, sb, key)
    return "-" if a is None or b is None else f"{a / b:.2f}"


if __name__ == "__main__":
    main()
