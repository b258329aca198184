"""Shared by the plot scripts: units chosen for a range, a 95 % confidence interval over seeds,
and saving a figure with a JSON of its axes beside it (NAME.png -> NAME.axes.json: title, axis
labels, scales and legend entries of every axes), which tb/sweep/check_plot_axes.py checks.
"""
import json
import math
import os

# Two-sided 97.5 % quantiles of Student's t for 1..30 degrees of freedom (then the normal 1.96).
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
         2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_ci(values):
    """(mean, half-width of the 95 % confidence interval of the mean); half-width 0 for one value."""
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, 0.0
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    t = _T975[n - 2] if n - 1 <= len(_T975) else 1.96
    return m, t * sd / math.sqrt(n)


def time_unit(max_ns):
    """(unit label, factor from ns) so that values up to max_ns read as small numbers."""
    if max_ns >= 1e6:
        return "ms", 1e-6
    if max_ns >= 1e3:
        return "µs", 1e-3
    return "ns", 1.0


def _legend_entries(ax):
    leg = ax.get_legend()
    return [t.get_text() for t in leg.get_texts()] if leg else []


def _visible_ticks(ax):
    """How many labelled y ticks (major and minor) lie inside the y range."""
    lo, hi = sorted(ax.get_ylim())
    labels = ax.get_yticklabels() + ax.get_yticklabels(minor=True)
    return len([t for t in labels if t.get_text() and lo <= t.get_position()[1] <= hi])


def axes_description(fig):
    """Title, labels, scales and legend entries of every axes of fig that holds something."""
    out = []
    for ax in fig.get_axes():
        if not ax.get_visible() or not (ax.lines or ax.collections or ax.patches or ax.texts):
            continue
        out.append({"title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
                    "xscale": ax.get_xscale(), "yscale": ax.get_yscale(), "legend": _legend_entries(ax),
                    "yticklabels": _visible_ticks(ax),
                    "notes": [t.get_text() for t in ax.texts]})
    return {"suptitle": fig._suptitle.get_text() if fig._suptitle else "", "axes": out}


def save(fig, path, dpi=110):
    """Saves fig as PNG and its axes description beside it; returns the PNG path."""
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    with open(os.path.splitext(path)[0] + ".axes.json", "w") as f:
        json.dump(axes_description(fig), f, indent=1, ensure_ascii=False)
        f.write("\n")
    return path


def time_axis(ax, what):
    """Relabels a y axis drawn in ns in the unit its range needs: '<what> (µs)' above 1000 ns."""
    ys = [abs(float(y)) for line in ax.lines for y in line.get_ydata() if y is not None and y == y]
    unit, f = time_unit(max(ys) if ys else 0)
    if f != 1.0:
        for line in ax.lines:
            line.set_ydata([y * f if y is not None else None for y in line.get_ydata()])
        ax.relim()
        ax.autoscale_view()
    ax.set_ylabel(f"{what} ({unit})")


def readable_log_ticks(ax):
    """A log y axis labelled with plain numbers at the coarsest of 10^k, {1,2,5} x 10^k, ... that
    puts at least four labels inside its range (a range under a decade keeps several)."""
    from matplotlib.ticker import FixedLocator, FormatStrFormatter, MaxNLocator, NullFormatter
    lo, hi = ax.get_ylim()
    decades = range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)
    for subs in ((1,), (1, 2, 5), (1, 1.5, 2, 3, 5, 7), (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9)):
        ticks = [m * 10 ** e for e in decades for m in subs if lo <= m * 10 ** e <= hi]
        if len(ticks) >= 4:
            break
    else:  # a narrow range: evenly spaced round numbers
        ticks = [t for t in MaxNLocator(5).tick_values(lo, hi) if lo <= t <= hi]
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(NullFormatter())
