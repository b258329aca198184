#!/usr/bin/python3
"""Checks the figures a plot script wrote: every PNG in DIR has its NAME.axes.json
(scripts/plot_axes.py), and every axes in it has a title, an x and a y label each ending in a unit
in parentheses, a legend, and at least two labelled y ticks. --expect NAME:TEXT requires TEXT in
some label, title, legend entry or note of NAME.png (e.g. a unit or "paper"); --absent NAME:TEXT
requires it nowhere.

  check_plot_axes.py DIR [--expect fig.png:µs ...] [--absent fig.png:failed]   exit 0: all good; 1: the problems, listed
"""
import argparse
import glob
import json
import os
import re
import sys

UNIT = re.compile(r"\(([^()]+)\)\s*$")


def problems_of(png):
    side = os.path.splitext(png)[0] + ".axes.json"
    name = os.path.basename(png)
    if not os.path.exists(side):
        return [f"{name}: no {os.path.basename(side)}"], ""
    with open(side) as f:
        d = json.load(f)
    out, text = [], d.get("suptitle", "")
    if not d["axes"]:
        out.append(f"{name}: no axes with data")
    for i, ax in enumerate(d["axes"]):
        where = f"{name} axes {i} ({ax['title'] or 'untitled'})"
        if not ax["title"] and not d.get("suptitle"):
            out.append(f"{where}: no title")
        for k in ("xlabel", "ylabel"):
            if not UNIT.search(ax[k]):
                out.append(f"{where}: {k} '{ax[k]}' has no unit in parentheses")
        if not ax["legend"]:
            out.append(f"{where}: no legend")
        if ax["yticklabels"] < 2:
            out.append(f"{where}: {ax['yticklabels']} labelled y tick(s)")
        text += " ".join([ax["title"], ax["xlabel"], ax["ylabel"]] + ax["legend"] + ax["notes"]) + " "
    return out, text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--expect", action="append", default=[], help="NAME.png:TEXT")
    ap.add_argument("--absent", action="append", default=[], help="NAME.png:TEXT")
    a = ap.parse_args()
    pngs = sorted(glob.glob(os.path.join(a.dir, "*.png")))
    if not pngs:
        sys.exit(f"{a.dir}: no PNG")
    problems, texts = [], {}
    for p in pngs:
        pr, texts[os.path.basename(p)] = problems_of(p)
        problems += pr
    for e in a.expect:
        name, _, want = e.partition(":")
        if name not in texts:
            problems.append(f"{name}: not written")
        elif want not in texts[name]:
            problems.append(f"{name}: '{want}' appears in no label, title, legend entry or note")
    for e in a.absent:
        name, _, bad = e.partition(":")
        if bad in texts.get(name, ""):
            problems.append(f"{name}: '{bad}' should not appear")
    for p in problems:
        print(p)
    print(f"{len(pngs)} figures, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
