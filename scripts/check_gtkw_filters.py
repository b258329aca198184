#!/usr/bin/python3
"""Checks that every value a filtered signal takes in a VCD has a name in its GTKWave translate
filter: a value without one would show as a bare number among names. For a process filter
(`sanvp fw symbolize`, pc as symbol+offset) it runs the filter on every value the signal takes,
as GTKWave does, and fails on a value it echoes back unnamed.

usage: check_gtkw_filters.py VIEW.gtkw...   (the VCD and filters are found relative to each view)
"""
import os
import re
import subprocess
import sys


def view_filters(gtkw):
    """{signal path without range: filter file, or ("proc", command)} and the VCD path."""
    base = os.path.dirname(os.path.abspath(gtkw))
    filters, vcd, pending = {}, None, None
    with open(gtkw) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("[dumpfile]"):
                vcd = os.path.join(base, line.split('"')[1])
            elif line.startswith("^1 "):
                pending = os.path.join(base, line[3:])
            elif line.startswith("^>1 "):
                pending = ("proc", line[4:])
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


def check_process(view, sig, command, values):
    """Runs a process filter on every value (8-digit hex, as GTKWave sends a 32-bit hex trace);
    1 when a value comes back unchanged (no symbol) or the filter fails."""
    if not values:
        return 0
    text = "".join(f"{v:08X}\n" for v in values)
    try:
        # As GTKWave starts it: the program, then everything after it as one argument.
        prog, _, rest = command.partition(" ")
        out = subprocess.run([prog] + ([rest] if rest else []), input=text, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"FAIL: {view}: {sig}: process filter '{command}' did not run: {e}")
        return 1
    lines = out.stdout.splitlines()
    if out.returncode != 0 or len(lines) != len(values):
        print(f"FAIL: {view}: {sig}: '{command}' exited {out.returncode} with {len(lines)} lines for {len(values)} values")
        return 1
    # An address comes back as hex when no symbol covers it. 0 is the pc's value before the core
    # starts (images begin at 0x100), not an address the firmware runs at.
    unnamed = [f"{v:08X}" for v, shown in zip(values, lines) if v != 0 and re.fullmatch(r"(0x)?[0-9A-Fa-f]+", shown.strip())]
    if unnamed:
        print(f"FAIL: {view}: {sig}: '{command}' names no symbol for {unnamed[:5]}")
        return 1
    return 0


def main():
    bad = 0
    for view in sys.argv[1:]:
        failed = bad
        vcd, filters = view_filters(view)
        vals = vcd_values(vcd, set(filters))
        for sig, filt in sorted(filters.items(), key=lambda kv: kv[0]):
            if isinstance(filt, tuple):
                bad |= check_process(view, sig, filt[1], sorted(vals.get(sig, set())))
                continue
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
