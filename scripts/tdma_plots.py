#!/usr/bin/python3
"""Draws the TDMA experiment (`sanvp tdma experiment`) as PNG.

  /usr/bin/python3 scripts/tdma_plots.py DIR

Reads DIR/results.json and writes DIR/utilization.png (Fig. 5.2 form: Eq. 5.1 with the tau the
thesis implies, with tau = T_setup, with the measured tau, the measured points, and the thesis's
own point "90 % at 3400 bytes" as "paper"), DIR/margin.png (blocked time and blocked packets vs
T_margin, the drift bound marked) and DIR/latency.png (per Appendix A point: the latency beyond
ideal clocks beside T_setup + T_maxdrift, and the thesis's 4 us as "paper").
`sanvp tdma experiment` calls it at the end.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def us(v):
    return v / 1e6


def eta(tau_ps, m, cp):
    return 0.0 if m <= 0 else 1.0 / (tau_ps / (m * cp) + 1.0)


def utilization(d, out):
    pts = [p for p in d["points"] if p["group"] == "utilization" and p["ok"]]
    a = d["analytic"]
    cp = a["eq44"]["cp_ps"]
    xs = list(range(16, 8193, 16))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(xs, [eta(a["eq51"]["tau_paper_ps"], m, cp) for m in xs], "-",
            label="Eq. 5.1, tau = %.2f us (from the thesis's 90 %% at 3400 B)" % us(a["eq51"]["tau_paper_ps"]))
    ax.plot(xs, [eta(a["eq44"]["t_setup_ps"], m, cp) for m in xs], ":",
            label="Eq. 5.1, tau = T_setup = %.0f us" % us(a["eq44"]["t_setup_ps"]))
    if pts:
        taus = [p["measured"]["tau_ps"] for p in pts]
        tau = sum(taus) / len(taus)
        ax.plot(xs, [eta(tau, m, cp) for m in xs], "--", label="Eq. 5.1, measured tau = %.3f us" % us(tau))
        ax.plot([p["payload"] for p in pts], [p["measured"]["eta"] for p in pts], "o", label="simulated (M x cp / latency)")
    pp = a["eq51"]["paper_point"]
    ax.plot([pp["bytes"]], [pp["eta"]], "k*", markersize=12, label="paper")
    ax.set_xlabel("packet size M (bytes)")
    ax.set_ylabel("channel utilization eta (fraction)")
    ax.set_ylim(0, 1.05)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("Utilization vs packet size (thesis Eq. 5.1, Fig. 5.2)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "utilization.png"), dpi=120)
    plt.close(fig)


def margin(d, out):
    pts = sorted([p for p in d["points"] if p["group"] == "margin" and p["ok"]], key=lambda p: p["margin_ps"])
    if not pts:
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = [us(p["margin_ps"]) for p in pts]
    ax.plot(xs, [us(p["measured"]["blocked_ps"]) for p in pts], "o-", label="blocked time of reserved packets")
    ax.set_xlabel("T_margin (us)")
    ax.set_ylabel("blocked time, total (us)")
    bound = us(pts[0]["derived"]["t_maxdrift_ps"] - pts[0]["derived"]["t_a_ps"])
    ax.axvline(bound, color="r", linestyle="--", label="T_maxdrift - T_a = %.3f us (safe at or above)" % bound)
    ax2 = ax.twinx()
    ax2.plot(xs, [p["measured"]["blocked_packets"] for p in pts], "s:", color="gray", label="blocked packets")
    ax2.set_ylabel("blocked reserved packets (count)")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8)
    ax.grid(True, alpha=0.3)
    ax.set_title("Blocking vs margin (early sending, n1 100 ppm slow, sync every 4 ms)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "margin.png"), dpi=120)
    plt.close(fig)


def latency(d, out):
    pts = [p for p in d["points"] if p["group"] == "appendix" and p["ok"] and "latency_excess_over_ideal_ps" in p["measured"]]
    if not pts:
        return
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = list(range(len(pts)))
    ax.bar([x - 0.2 for x in xs], [us(p["measured"]["latency_excess_over_ideal_ps"]) for p in pts], 0.4,
           label="simulated: worst latency beyond ideal clocks")
    ax.bar([x + 0.2 for x in xs], [us(p["derived"]["latency_bound_ps"]) for p in pts], 0.4,
           label="T_setup + T_maxdrift (this model)")
    ax.axhline(d["analytic"]["latency"]["paper_us"], color="k", linestyle="--", label="paper (3 us + 1 us)")
    ax.set_xticks(xs)
    ax.set_xticklabels([p["label"].replace(", ", "\n") for p in pts], fontsize=8)
    ax.set_ylabel("latency (us)")
    ax.legend(fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)
    ax.set_title("Worst-case latency, Appendix A on network A")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "latency.png"), dpi=120)
    plt.close(fig)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: tdma_plots.py DIR\n")
        return 2
    out = sys.argv[1]
    with open(os.path.join(out, "results.json")) as f:
        d = json.load(f)
    utilization(d, out)
    margin(d, out)
    latency(d, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
