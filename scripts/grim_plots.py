#!/usr/bin/python3
"""Draws the GRIM experiment (`sanvp grim experiment`) as PNG, the paper's values marked "paper".

  /usr/bin/python3 scripts/grim_plots.py DIR

Reads DIR/results.json and writes DIR/latency.png (one-way latency against message size),
DIR/bandwidth.png (round-trip bandwidth against message size, half-power points marked), DIR/fig3.png (injection overhead and gap against burst length,
optimistic against host credits, no loss) and DIR/fig3_loss.png (the gaps under every packet
loss rate run, with the damaged packets counted). Every figure that reproduces one of the paper's
has a legend entry "paper" with its values. `sanvp grim experiment` calls it at the end.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CONFIG_LABEL = {"paper": "48 KiB fragments (paper's)", "frag2k": "2 KiB fragments", "default": "4 KiB fragments (default)"}


def save(fig, out, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=90)
    plt.close(fig)
    print("wrote", os.path.join(out, name))


def bandwidth(res, out):
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    for i, cfg in enumerate(("paper", "frag2k", "default")):
        rows = sorted((b for b in res["bench"] if b["config"] == cfg and b["pingpong_MBps"] > 0), key=lambda b: b["size"])
        if not rows:
            continue
        ax.plot([b["size"] for b in rows], [b["pingpong_MBps"] for b in rows], marker="o", color=f"C{i}",
                label=f"{CONFIG_LABEL[cfg]} ({len(rows)} sizes, 8 round trips each)")
        t1 = next((t for t in res["table1"] if t["config"] == cfg), None)
        if t1 and t1["half_power_bytes"] > 0:
            ax.plot([t1["half_power_bytes"]], [t1["bandwidth_MBps"] / 2], marker="D", ms=9, color=f"C{i}", ls="none",
                    label=f"half power {t1['half_power_bytes'] / 1024:.1f} KiB")
    p = res["paper"]
    ax.axhline(p["bandwidth_MBps"], color="k", ls=":", lw=1)
    ax.plot([p["half_power_bytes"]], [p["bandwidth_MBps"] / 2], "k*", ms=13, ls="none",
            label=f"paper: {p['bandwidth_MBps']:.0f} MB/s, half power {p['half_power_bytes'] / 1024:.0f} KB")
    ax.set_xscale("log", base=2)
    ax.set(xlabel="message size (bytes)", ylabel="round-trip bandwidth, size / one-way time (MB/s)",
           title="GRIM Table 1: bandwidth against message size")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    save(fig, out, "bandwidth.png")


def latency(res, out):
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    for i, cfg in enumerate(("paper", "frag2k", "default")):
        rows = sorted((b for b in res["bench"] if b["config"] == cfg and b["latency_us"] > 0), key=lambda b: b["size"])
        if rows:
            ax.plot([b["size"] for b in rows], [b["latency_us"] for b in rows], marker="o", color=f"C{i}",
                    label=f"{CONFIG_LABEL[cfg]} ({len(rows)} sizes, 8 round trips each)")
    fast = [b for b in res["bench"] if b["config"] == "fast-core" and b["latency_us"] > 0]
    if fast:
        ax.plot([b["size"] for b in fast], [b["latency_us"] for b in fast], "v", color="C4", ls="none",
                label=f"4 KiB fragments, 1 GHz NIC core ({len(fast)} size)")
    p = res["paper"]
    ax.plot([4], [p["latency_us"]], "k*", ms=13, ls="none", label=f"paper: {p['latency_us']:.0f} \u00b5s for 4 B")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set(xlabel="message size (bytes)", ylabel="one-way latency, round trip / 2 (\u00b5s)", title="GRIM Table 1: latency against message size")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    save(fig, out, "latency.png")


def series(res, credits, loss, key, senders=1):
    rows = sorted((b for b in res["bursts"] if b["host_credits"] == credits and b["packet_loss"] == loss and b["senders"] == senders
                   and b["exit_code"] == 0 and b["run"].get(key, -1) >= 0), key=lambda b: b["burst"])
    return [b["burst"] for b in rows], [b["run"][key] for b in rows]


def paper_lines(ax, res):
    p = res["paper"]
    ax.axhline(p["gap_us"], color="k", ls="--", lw=1, label=f"paper: gap converges at {p['gap_us']:.0f} \u00b5s")
    ax.axhline(p["overhead_us"], color="k", ls=":", lw=1, label=f"paper: overhead about {p['overhead_us']:.0f} \u00b5s")


def fig3_panel(ax, res, senders, credits, title):
    for c, name, col in ((0, "optimistic (GRIM)", "C0"), (credits, f"host credits ({credits}/destination)", "C3")):
        x, y = series(res, c, 0, "gap_us", senders)
        ax.plot(x, y, marker="o", color=col, label=f"gap, {name} ({len(x)} bursts)")
        x, y = series(res, c, 0, "overhead_us", senders)
        ax.plot(x, y, marker="s", ls=":", color=col, label=f"overhead o_s, {name}")
    paper_lines(ax, res)
    ax.set_xscale("log", base=2)
    ax.set(xlabel="burst length per sender (messages of 4 B)", ylabel="time per message (\u00b5s)", title=title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)


def fig3(res, out):
    many = [b for b in res["bursts"] if b["senders"] > 1]
    fig, axes = plt.subplots(1, 2 if many else 1, figsize=(14 if many else 7.5, 4.8), squeeze=False)
    fig3_panel(axes[0][0], res, 1, res["paper"]["host_credits"], "GRIM Figure 3: n1 -> n0 of 16 nodes, no loss")
    if many:
        k = many[0]["senders"]
        fig3_panel(axes[0][1], res, k, res["limits"]["burst_pool"] // 16, f"many to one: n1..n{k} -> n0 at once, no loss")
    save(fig, out, "fig3.png")


def fig3_loss(res, out):
    losses = sorted({b["packet_loss"] for b in res["bursts"]})
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    credits = res["paper"]["host_credits"]
    for i, loss in enumerate(losses):
        for c, name, style in ((0, "optimistic", "-"), (credits, "host credits", "--")):
            x, y = series(res, c, loss, "gap_us")
            if x:
                rows = [b for b in res["bursts"] if b["host_credits"] == c and b["packet_loss"] == loss and b["senders"] == 1 and b["exit_code"] == 0]
                lost = sum(b["run"]["sender"]["firmware"]["bad_dropped"] + b["run"]["receiver"]["firmware"]["bad_dropped"] for b in rows)
                ax.plot(x, y, marker="o", ls=style, color=f"C{i}",
                        label=f"gap, {name}, packet loss {loss:g} ({len(x)} bursts, {lost} damaged packets dropped)")
    paper_lines(ax, res)
    ax.set_xscale("log", base=2)
    ax.set(xlabel="burst length (messages of 4 B)", ylabel="gap: injection time / burst length (\u00b5s)",
           title="GRIM Figure 3 under packet loss (go-back-N recovers every message)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    save(fig, out, "fig3_loss.png")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    latency(res, out)
    bandwidth(res, out)
    fig3(res, out)
    fig3_loss(res, out)


if __name__ == "__main__":
    main()
