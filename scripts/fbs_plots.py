#!/usr/bin/python3
"""Draws the FBS experiment (`sanvp fbs experiment`) as PNG: the paper's value, the analytic skew
in both GAP3 readings, the model-consistent bound and the simulated skew of every point.

  /usr/bin/python3 scripts/fbs_plots.py DIR

Reads DIR/fbs_experiment.json and writes DIR/table3.png, table4.png, fig4.png, fig5.png and
fig6.png (for the groups the experiment ran). `sanvp fbs experiment` calls it at the end.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_axes  # noqa: E402


def ns(v):
    return None if v is None or v < 0 else v / 1000.0


def sim(p, key="skew_worst_ps"):
    s = p.get("simulated")
    return ns(s.get(key)) if s else None


def model(p):
    s = p.get("simulated")
    return ns(s.get("model_bound_ps")) if s else None


def line(ax, xs, ys, **kw):
    pts = [(x, y) for x, y in zip(xs, ys) if y is not None]
    if pts:
        ax.plot([x for x, _ in pts], [y for _, y in pts], **kw)


def skew_lines(ax, pts, x, label="", tree=False, style="-"):
    """Analytic (both readings), model bound, simulated and paper for one series of points."""
    xs = [x(p) for p in pts]
    a = "analytic_simulated_network" if tree else "analytic"
    line(ax, xs, [ns(p[a]["bound_bl_minus_ks_ps"]) for p in pts], ls=style, marker="^", color="C0", label=f"bl-ks (paper's reading){label}")
    line(ax, xs, [ns(p[a]["bound_printed_ps"]) for p in pts], ls=style, marker="v", color="C1", label=f"bl-kg (printed){label}")
    line(ax, xs, [model(p) for p in pts], ls=style, marker="s", color="C2", label=f"model bound ({'chain of dead zones' if tree else 'dead zone'} + drift){label}")
    line(ax, xs, [sim(p) for p in pts], ls=style, marker="o", color="C3", lw=2, label=f"simulated{label}")
    if tree:
        line(ax, xs, [ns(p["analytic"]["bound_bl_minus_ks_ps"]) for p in pts], ls=":", marker="^", color="C4", label=f"bl-ks, paper's 4 levels{label}")
    paper = [(x(p), ns(p["paper"].get("skew_ps"))) for p in pts if "skew_ps" in p["paper"]]
    if paper and "paper" not in [ln.get_label() for ln in ax.lines]:  # once per axes: both series share it
        ax.plot([q[0] for q in paper], [q[1] for q in paper], "k*", ms=12, ls="none", label="paper")


def save(fig, out, name):
    plot_axes.save(fig, os.path.join(out, name), dpi=90)
    plt.close(fig)
    print("wrote", os.path.join(out, name))


def tables(points, out, group, ports, title, tree):
    pts = [p for p in points if p["group"] == group]
    if not pts:
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4))
    drift = lambda p: p["inputs"]["drift_ppm"]  # noqa: E731
    for i, k in enumerate(ports):
        row = [p for p in pts if p["analytic"]["network_args"][1] == f"ports={k}"]
        c = f"C{i}"
        a = "analytic_simulated_network" if tree else "analytic"
        line(axes[0], [drift(p) for p in row], [ns(p[a]["bound_bl_minus_ks_ps"]) for p in row], ls="--", color=c, label=f"{k}-port bl-ks")
        line(axes[0], [drift(p) for p in row], [model(p) for p in row], ls=":", color=c, label=f"{k}-port model bound")
        line(axes[0], [drift(p) for p in row], [sim(p) for p in row], marker="o", color=c, label=f"{k}-port simulated")
        ov = lambda p, key: p[key] / 100.0 if p.get(key, -1) is not None and p.get(key, -1) >= 0 else None  # noqa: E731
        line(axes[1], [drift(p) for p in row], [ov(p["paper"], "overhead_hundredths") for p in row], ls="none", marker="*", ms=10, color=c, label=f"{k}-port paper")
        line(axes[1], [drift(p) for p in row], [ov(p["analytic"], "overhead_eq12_bl_minus_ks_hundredths") for p in row], ls="--", color=c, label=f"{k}-port Eq. 12 (bl-ks)")
        line(axes[1], [drift(p) for p in row], [ov(p["simulated"] or {}, "overhead_eq12_from_skew_hundredths") for p in row], marker="o", color=c, label=f"{k}-port from simulated skew")
    axes[0].set(xlabel="drift (ppm)", title=title + ": skew")
    plot_axes.time_axis(axes[0], "skew after a round")
    axes[1].set(xlabel="drift (ppm)", ylabel="overhead (%)", title=title + ": Eq. 12 overhead")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    save(fig, out, group + ".png")


def fig4(points, out):
    pts = [p for p in points if p["group"] == "fig4"]
    if not pts:
        return
    fig, ax = plt.subplots(figsize=(7, 4.4))
    skew_lines(ax, pts, lambda p: p["inputs"]["rd_ps"] / 1000.0)
    ax.set(xlabel="routing delay rd (ns)", title="Fig. 4: SSS, 8-port switch, vs routing delay")
    plot_axes.time_axis(ax, "skew")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    save(fig, out, "fig4.png")


def gbps(p):
    return 8.0 / (p["inputs"]["cp_ps"] / 1000.0)


def fig5(points, out):
    pts = [p for p in points if p["group"] == "fig5"]
    if not pts:
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4))
    for ax, axis, x, xl in ((axes[0], "cp", gbps, "link bandwidth (Gb/s)"), (axes[1], "bl", lambda p: p["inputs"]["bl"], "bl (flits)")):
        for how, style, lab in (("rule", "-", ""), ("paper ks/kg", "--", ", paper ks/kg")):
            skew_lines(ax, [p for p in pts if p["series"] == f"{axis}, {how}"], x, lab, style=style)
        ax.set(xlabel=xl, title=f"Fig. 5: SSS vs {axis} (solid: rule, dashed: paper ks/kg)")
        plot_axes.time_axis(ax, "skew")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    save(fig, out, "fig5.png")


def fig6(points, out):
    pts = [p for p in points if p["group"] == "fig6"]
    if not pts:
        return
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    for how, style, lab in (("rule", "-", ""), ("paper ks/kg", "--", ", paper ks/kg")):
        skew_lines(ax, [p for p in pts if p["series"] == how], gbps, lab, tree=True, style=style)
    net = pts[0]["analytic_simulated_network"]["network"]
    ax.set(xlabel="link bandwidth (Gb/s)", title=f"Fig. 6: HSS vs link bandwidth (simulated: {net})")
    plot_axes.time_axis(ax, "skew")
    ax.set_yscale("log")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)
    save(fig, out, "fig6.png")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    with open(os.path.join(out, "fbs_experiment.json")) as f:
        points = json.load(f)["points"]
    tables(points, out, "table3", (4, 8, 16), "Table 3 (SSS)", False)
    tables(points, out, "table4", (4, 8), "Table 4 (HSS)", True)
    fig4(points, out)
    fig5(points, out)
    fig6(points, out)


if __name__ == "__main__":
    main()
