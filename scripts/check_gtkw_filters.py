#!/usr/bin/python3
"""Checks that every value a filtered signal takes in a VCD has a name in its GTKWave translate
filter: a value without one would show as a bare number among names.

usage: check_gtkw_filters.py VIEW.gtkw...   (the VCD and filters are found relative to each view)
"""
import os
import re
import sys


def view_filters(gtkw):
    """{signal path without range: filter file} and the VCD path, relative to the view."""
    base = os.path.dirname(os.path.abspath(gtkw))
    filters, vcd, pending = {}, None, None
    with open(gtkw) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("[dumpfile]"):
                vcd = os.path.join(base, line.split('"')[1])
            elif line.startswith("^1 "):
                pending = os.path.join(base, line[3:])
            elif pending and re.match(r"^(\+\{[^}]*\} )?[A-Za-z_][\w.]*(\[\d+:\d+\])?$", line):
                filters[re.sub(r"^\+\{[^}]*\} ", "", line).split("[")[0]] = pending
                pending = None
    return vcd, filters


def vcd_values(vcd, wanted):
    """{signal path: set of decimal values} for the wanted signals."""
    scopes, ids, vals, defs = [], {}, {}, True
    with open(vcd) as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            if defs:
                if t[0] == "$scope":
                    scopes.append(t[2])
                elif t[0] == "$upscope":
                    scopes.pop()
                elif t[0] == "$var":
                    path = ".".join(scopes + [t[4]])
                    if path in wanted:
                        ids.setdefault(t[3], []).append(path)
                elif t[0] == "$enddefinitions":
                    defs = False
                continue
            if t[0][0] in "bB" and len(t) > 1 and t[1] in ids:
                for p in ids[t[1]]:
                    vals.setdefault(p, set()).add(int(t[0][1:], 2))
            elif t[0][0] in "01" and t[0][1:] in ids:
                for p in ids[t[0][1:]]:
                    vals.setdefault(p, set()).add(int(t[0][0]))
    return vals


def main():
    bad = 0
    for view in sys.argv[1:]:
        failed = bad
        vcd, filters = view_filters(view)
        vals = vcd_values(vcd, set(filters))
        for sig, filt in sorted(filters.items()):
            names = set()
            with open(filt) as f:
                for line in f:
                    if line.strip() and not line.startswith("#"):
                        names.add(int(line.split()[0]))
            missing = sorted(vals.get(sig, set()) - names)
            if missing:
                print(f"FAIL: {view}: {sig} takes {missing}, which {os.path.basename(filt)} does not name")
                bad = 1
        if bad == failed:
            print(f"ok: {view}: {len(filters)} filtered signals, every value named")
    return bad


if __name__ == "__main__":
    sys.exit(main())
