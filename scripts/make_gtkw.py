#!/usr/bin/python3
"""Writes a GTKWave save file for a sanvp VCD: signals grouped by switch and port (nodes too).

usage: make_gtkw.py VCD [OUT.gtkw]
The save file names the VCD relative to its own folder, so `gtkwave waves/default.gtkw` opens
the waves produced by the README's main command.
"""
import os
import sys


def read_vars(path):
    scopes, vars_ = [], []
    with open(path) as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            if t[0] == "$scope":
                scopes.append(t[2])
            elif t[0] == "$upscope":
                scopes.pop()
            elif t[0] == "$var":
                width, name = int(t[2]), t[4]
                vars_.append((".".join(scopes), name, width))
            elif t[0] == "$enddefinitions":
                break
    return vars_


ORDER = {"occupancy": 0, "stop_sent": 1, "data": 2, "kind": 3, "packet": 4, "stop": 5, "owner": 6}


def main():
    vcd = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.splitext(vcd)[0] + ".gtkw"
    vars_ = read_vars(vcd)
    groups = {}
    for scope, name, width in vars_:
        parts = scope.split(".")
        top = ".".join(parts[:2]) if parts[0].startswith("sw") and len(parts) > 1 else parts[0]
        groups.setdefault(top, []).append((scope, name, width))

    def key(g):
        parts = g.replace("sw", "").replace("n", "").replace("p", "").split(".")
        return (0 if g.startswith("sw") else 1, [int(x) if x.isdigit() else 0 for x in parts])

    rel = os.path.relpath(os.path.abspath(vcd), os.path.dirname(os.path.abspath(out)))
    lines = ["[*] sanvp waves: one group per switch port and per node",
             f'[dumpfile] "{rel}"', "[timestart] 0", "[size] 1600 900", "[pos] -1 -1",
             "*-22.000000 0 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
             "[sst_width] 260", "[signals_width] 240", "[sst_expanded] 1", "[sst_vpaned_height] 300"]
    for g in sorted(groups, key=key):
        lines += ["@800200", f"-{g}"]
        for scope, name, width in sorted(groups[g], key=lambda v: (v[0], ORDER.get(v[1], 9))):
            full = f"{scope}.{name}" + (f"[{width - 1}:0]" if width > 1 else "")
            lines += ["@28" if width == 1 else ("@22" if name == "data" else "@24"), full]
        lines += ["@1000200", f"-{g}"]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {out} ({len(vars_)} signals in {len(groups)} groups)")


if __name__ == "__main__":
    main()
