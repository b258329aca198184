#!/usr/bin/python3
"""Writes a GTKWave save file for a sanvp VCD: signals grouped by switch and port (nodes too).

usage: make_gtkw.py VCD|FST [OUT.gtkw] [--group TITLE=SIG,SIG,...]... [--marker TIME[=NAME]]...
                    [--symbols [NODE=]IMAGE]... [--sanvp PATH]
                    [--window FROM:TO] [--note TEXT]...
The save file names the VCD relative to its own folder, so `gtkwave waves/default.gtkw` opens
the waves produced by the README's main command. An FST (`--vcd FILE.fst`) is read through
GTKWave's fst2vcd and the view names the FST.

With --group, only the named signals are shown, in that order, one group per option (a signal
is its full path, e.g. n1.out.stop; one the VCD lacks is an error). --marker puts named markers
A, B, ... at times in ps, --window the view (ps), --note a comment line at the top. Example:
waves/fbs-figure1.gtkw (docs/fbs.md, "Figure 1 in the waves").

--symbols [NODE=]IMAGE shows the NICs' pc as symbol+offset through `sanvp fw symbolize IMAGE`, a
GTKWave process filter named by absolute path (docs/waves.md).

Rows are aliased by their path below the group ("in occupancy", "out kind"); a node's rows are
grouped by NIC engine (core, send DMA, receive DMA, host DMA).

Enumerations show names through GTKWave translate filters (waves/filters/: flit kinds, send and
receive DMA states), referenced relative to the save file. Without --group, signals that never
change in the VCD are left out and named in a comment line at the top (--keep-flat keeps them).
"""
import argparse
import io
import math
import os
import subprocess
import sys


def open_waves(path):
    """The waves as VCD text: a .fst (sanvp --vcd FILE.fst) through GTKWave's fst2vcd."""
    if not path.endswith(".fst"):
        return open(path)
    try:
        dump = subprocess.run(["fst2vcd", path], capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit(f"make_gtkw.py: reading {path} needs fst2vcd (Debian package gtkwave)")
    if dump.returncode != 0:
        sys.exit(f"make_gtkw.py: fst2vcd {path} failed: {dump.stderr.strip()}")
    return io.StringIO(dump.stdout)


def read_vars(path):
    """(scope, name, width) per signal, and the set of signals that change after $dumpvars."""
    scopes, vars_, ids = [], [], {}
    changing, defs, dump = set(), True, False
    span = {"first": None, "head": None, "last": 0}
    t_now, fst = 0, path.endswith(".fst")
    with open_waves(path) as f:
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
                    width, name = int(t[2]), t[4]
                    vars_.append((".".join(scopes), name, width))
                    ids.setdefault(t[3], []).append(vars_[-1])
                elif t[0] == "$enddefinitions":
                    defs = False
                continue
            if t[0][0] == "#":
                t_now = int(t[0][1:])
                span["last"] = t_now
            elif t[0] == "$dumpvars":
                dump = True
            elif t[0] == "$end":
                dump = False
            elif t[0][0] not in "#$":
                ident = t[1] if t[0][0] in "bBrR" else t[0][1:]
                if t[0][0] in "bB":  # fst2vcd pads vectors to their width: b01 is b1
                    t[0] = "b" + (t[0][1:].lstrip("0") or "0")
                # An FST keeps one value per instant: a change at time 0 is folded into $dumpvars.
                # sanvp's signals start at 0, so a value other than 0 there is such a change.
                value = t[0][1:] if t[0][0] in "bB" else t[0][0]
                if dump and not (fst and t_now == 0 and value.strip("0")):
                    continue
                sigs = ids.get(ident, [])
                changing.update(sigs)
                if sigs and span["first"] is None:
                    span["first"] = t_now
                if span["head"] is None and t[0] == "b1" and any(v[1] == "kind" for v in sigs):
                    span["head"] = t_now
    return vars_, changing, span


ORDER = {"pc": -3, "sleep": -2, "isr": -1, "occupancy": 0, "stop_sent": 1, "data": 2, "kind": 3, "packet": 4, "stop": 5, "owner": 6}
# Display flags of a trace: 0x28 binary, 0x22 hex, 0x24 decimal, 0x424 signed decimal (all
# right-justified); group begin/end and comment lines are blank traces.
HEX = {"data", "packet", "pc", "probe_tag", "isr"}  # ids, addresses and tags read better in hex
HEX_SELECTED = HEX
# Translate filters (waves/filters/), by (scope suffix, name); flag 0x2024 = decimal + filtered.
FILTERS = {("", "kind"): "flit_kind.txt", (".send", "state"): "send_state.txt", (".recv", "state"): "recv_state.txt"}
FILTER_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "waves", "filters")


def filter_for(scope, name):
    for (suffix, n), f in FILTERS.items():
        if n == name and scope.endswith(suffix):
            return f
    return None
SIGNED = {"slot"}  # nN.fbs.slot is all ones (-1) before slot 0


def trace_lines(scope, name, width, hex_names=HEX, out_dir=".", alias=None, symbols=None):
    """The save-file lines of one row: display flags, filter, optional alias, the signal."""
    full = f"{scope}.{name}" + (f"[{width - 1}:0]" if width > 1 else "")
    row = (f"+{{{alias}}} " if alias else "") + full
    filt = filter_for(scope, name)
    if filt:
        # GTKWave resolves the filter's path relative to the save file, like the VCD's.
        return ["@2024", "^1 " + os.path.relpath(os.path.join(FILTER_DIR, filt), out_dir), row]
    if name == "pc" and symbols:
        # 0x4022: hex, right-justified, process-translated: the command prints symbol+offset.
        return ["@4022", "^>1 " + symbols, row]
    if width == 1:
        flag = "@28"
    elif name in SIGNED:
        flag = "@424"
    else:
        flag = "@22" if name in hex_names else "@24"
    return [flag, row]


# A node's signals by the engine that drives them (scope below the node: regs.pc -> core).
ENGINES = [("core", ("regs", "sys")), ("send DMA", ("send", "out")), ("receive DMA", ("recv", "in")),
           ("host DMA", ("hdma",))]


def engine_of(rest):
    head = rest.split(".")[0]
    for title, heads in ENGINES:
        if head in heads:
            return title
    return head  # a protocol's own signals (e.g. fbs): their scope names them


def group_of(scope):
    parts = scope.split(".")
    return ".".join(parts[:2]) if parts[0].startswith("sw") and len(parts) > 1 else parts[0]


def default_groups(vars_):
    """[(title, [(subtitle or None, [(scope, name, width, alias)])])]: one group per switch port
    and per node; a node's rows in one subgroup per engine. Aliases are the path below the group
    ("in occupancy", "out kind", "send state"), so no two rows of a group look alike."""
    groups = {}
    for scope, name, width in vars_:
        g = group_of(scope)
        rest = scope[len(g) + 1:]
        # GTKWave shows an alias's last dotted part only: words apart by spaces stay whole.
        groups.setdefault(g, []).append((scope, name, width, f"{rest.replace('.', ' ')} {name}" if rest else name))

    def key(g):
        parts = g.replace("sw", "").replace("n", "").replace("p", "").split(".")
        return [int(x) if x.isdigit() else 0 for x in parts]

    def order(v):  # an engine's state first, then its link, each scope in signal order
        return (v[1] != "state", v[0], ORDER.get(v[1], 9))

    nodes = sorted((g for g in groups if not g.startswith("sw")), key=key)
    ports = sorted((g for g in groups if g.startswith("sw")), key=key)
    out_nodes = []
    nic = {"regs", "send", "recv", "hdma"}
    for g in nodes:
        rows = sorted(groups[g], key=order)
        if not any(v[0][len(g) + 1:].split(".")[0] in nic for v in rows):
            out_nodes.append((g, [(None, rows)]))  # a traffic endpoint: its links only
            continue
        subs = {}
        for v in rows:
            subs.setdefault(engine_of(v[0][len(g) + 1:]), []).append(v)
        known = [t for t, _ in ENGINES if t in subs] + sorted(t for t in subs if t not in dict(ENGINES))
        out_nodes.append((g, [(t, subs[t]) for t in known]))
    out_ports = [(g, [(None, sorted(groups[g], key=order))]) for g in ports]
    # The groups a view is about first: NIC engines make it a node view, else a switch view.
    engines = any(t in dict(ENGINES) for _, subs in out_nodes for t, _ in subs)
    return out_nodes + out_ports if engines else out_ports + out_nodes


def symbol_commands(specs, sanvp):
    """{node or "": process-filter command} from --symbols [NODE=]IMAGE options. GTKWave runs a
    process filter relative to its own working folder, not the save file's, so the command names
    the binary by its absolute path: a view with symbols belongs to the machine that made it."""
    if not specs:
        return {}
    exe = os.path.abspath(sanvp or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "sanvp"))
    if not os.access(exe, os.X_OK):
        sys.exit(f"make_gtkw.py: --symbols needs the sanvp binary: {exe} is not executable (give --sanvp PATH)")
    cmds = {}
    for spec in specs:
        node, _, image = spec.rpartition("=")
        if " " in exe or " " in image:
            sys.exit("make_gtkw.py: --symbols: GTKWave splits a filter command at spaces; the path must have none")
        cmds[node] = f"{exe} fw symbolize {image}"
    return cmds


def symbols_for(cmds, scope):
    node = scope.split(".")[0]
    return cmds.get(node, cmds.get(""))


def chosen_groups(vars_, specs):
    by_path = {f"{scope}.{name}": (scope, name, width) for scope, name, width in vars_}
    out = []
    for spec in specs:
        title, _, names = spec.partition("=")
        sigs = []
        for n in filter(None, (x.strip() for x in names.split(","))):
            if n not in by_path:
                sys.exit(f"make_gtkw.py: --group {title}: the VCD has no signal {n}")
            scope, name, width = by_path[n]
            sigs.append((scope, name, width, n.replace(".", " ")))
        out.append((title, [(None, sigs)]))
    return out


def marker_line(markers, window):
    # "*zoom primary-marker A B ... Z": times in ps, -1 = unset; the zoom is chosen so that the
    # window fills the wave pane (about 1050 pixels at [size] 1600 900).
    if not markers and not window:
        return "*-22.000000 0 " + " ".join(["-1"] * 19)  # what the plain layout always wrote
    zoom = -22.0
    if window:
        span = max(1, window[1] - window[0])
        # Measured on GTKWave 3.3.118 (VCD timescale 1 ps): zoom z shows about 2^-z / 200 ps per
        # pixel.
        zoom = -math.log2(span / 1050 * 200)
    times = [str(t) for t, _ in markers] + ["-1"] * (26 - len(markers))
    return f"*{zoom:.6f} -1 " + " ".join(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("vcd")
    ap.add_argument("out", nargs="?")
    ap.add_argument("--group", action="append", default=[], help="TITLE=SIG,SIG,...")
    ap.add_argument("--marker", action="append", default=[], help="TIME_PS[=NAME]")
    ap.add_argument("--window", help="FROM_PS:TO_PS")
    ap.add_argument("--note", action="append", default=[], help="comment line above the groups")
    ap.add_argument("--keep-flat", action="store_true", help="keep signals that never change")
    ap.add_argument("--symbols", action="append", default=[],
                    help="[NODE=]IMAGE: show NODE's pc (every node's without NODE=) as symbol+offset "
                         "through `sanvp fw symbolize IMAGE` (a GTKWave process filter)")
    ap.add_argument("--sanvp", default=None, help="the sanvp binary the process filter runs "
                    "(default: build/sanvp of this checkout; written as an absolute path)")
    a = ap.parse_args()
    vcd = a.vcd
    out = a.out or os.path.splitext(vcd)[0] + ".gtkw"
    vars_, changing, span = read_vars(vcd)
    flat = [] if a.group or a.keep_flat else [v for v in vars_ if v not in changing]
    groups = chosen_groups(vars_, a.group) if a.group else default_groups([v for v in vars_ if v not in flat])
    if flat:  # a short row (a long one widens the name pane); the full list in the header
        a.note.insert(0, f"{len(flat)} flat signals left out")
    markers = []
    for m in a.marker:
        t, _, name = m.partition("=")
        markers.append((int(t), name))
    window = tuple(int(x) for x in a.window.split(":")) if a.window else None
    if not window and not a.group and span["first"] is not None and span["last"] > span["first"]:
        # Open on what the trace holds: from just before the first activity to its end, with a
        # marker at the first packet's head.
        # GTKWave pulls a view that would run past the trace's end back to start earlier, so the
        # zoom leaves the last quarter off-screen rather than lose the start (the zoom formula
        # below is good to about 15 %).
        lead = (span["last"] - span["first"]) // 50
        start = max(0, span["first"] - lead)
        window = (start, start + (span["last"] - start) * 3 // 4)
        if span["head"] is not None and not markers:
            markers.append((span["head"], "first head"))

    rel = os.path.relpath(os.path.abspath(vcd), os.path.dirname(os.path.abspath(out)))
    title = "selected signals" if a.group else "one group per switch port and per node"
    lines = [f"[*] sanvp waves: {title}",
             # [savefile] beside [dumpfile]: GTKWave then finds the VCD relative to the save file,
             # so the view opens from any folder, not only from the save file's own.
             f'[dumpfile] "{rel}"', f'[savefile] "{os.path.basename(out)}"', f"[timestart] {window[0] if window else 0}", "[size] 1600 900", "[pos] -1 -1",
             marker_line(markers, window),
             f"[sst_width] {40 if a.group else 260}", "[signals_width] 240", f"[sst_expanded] {0 if a.group else 1}", "[sst_vpaned_height] 300"]
    if flat:
        lines.insert(1, "[*] never change in this VCD, left out: " + ", ".join(f"{sc}.{n}" for sc, n, _ in flat))
    for i, (_, name) in enumerate(markers):
        if name:
            lines.append(f"[markername] {chr(ord('A') + i)}{name}")
    for note in a.note:
        lines += ["@200", f"-{note}"]
    out_dir = os.path.dirname(os.path.abspath(out))
    symbols = symbol_commands(a.symbols, a.sanvp)
    hexes = HEX_SELECTED if a.group else HEX
    for g, subs in groups:
        lines += ["@800200", f"-{g}"]
        for sub, sigs in subs:
            if sub:
                lines += ["@800200", f"-{sub}"]
            for scope, name, width, alias in sigs:
                lines += trace_lines(scope, name, width, hexes, out_dir, alias, symbols_for(symbols, scope))
            if sub:
                lines += ["@1000200", f"-{sub}"]
        lines += ["@1000200", f"-{g}"]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    nsig = sum(len(sigs) for _, subs in groups for _, sigs in subs)
    print(f"wrote {out} ({nsig} signals in {len(groups)} groups)")


if __name__ == "__main__":
    main()
