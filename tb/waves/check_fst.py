#!/usr/bin/python3
"""Checks `--vcd FILE.fst` (hw/base/trace.cpp): FST through GTKWave's vcd2fst.

usage: check_fst.py SANVP SCRATCH CASE
  run, msg, clint  the command writes an FST whose fst2vcd dump has the same signal declarations
                   and the same value changes as the VCD of the same run, no temporary is left,
                   and make_gtkw.py makes the same view from either (naming the .fst)
  determinism      two runs give byte-identical .fst files
  gtkwave          headless GTKWave shows every signal of the shipped waves/default.gtkw on the
                   FST of its documented run, and of a view make_gtkw.py made from that FST
  bad-path         a bad .fst path gives the error a bad .vcd path gives (exit 2, nothing written)
  no-tool          without vcd2fst on PATH: exit 2 before the run, naming the package gtkwave
  failed-tool      a vcd2fst that fails: exit 3, the report is still written and the waves are
                   kept as VCD (FILE.fst.vcd), equal to a plain VCD run's
Exit 0 when the case holds; prints what differs otherwise.
"""
import json
import os
import re
import shutil
import subprocess
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# Short windows keep each case to a few seconds; the traffic still moves in each of them.
COMMANDS = {
    "run": ["run", "--trace-window", "0:20us", "--report", "{report}"],
    "msg": ["msg", "--sizes", "4,4K", "--iterations", "1", "--trace-window", "0:2ms", "--report", "{report}"],
    "clint": ["clint", "--arch", "B4", "--loads", "0.5", "--cycles", "20000", "--json", "{report}"],
}


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def sanvp(binary, case, waves, report, env=None):
    args = [a.format(report=report) for a in COMMANDS[case]]
    return subprocess.run([binary] + args + ["--vcd", waves], capture_output=True, text=True, env=env)


def parse_vcd(text):
    """(declarations, changes, end): declarations [(scope, name, width)] in file order; changes
    [(time, scope.name, value)]: per instant, each signal's settled value where it differs from
    the one before (the first instant's values all count), by name within an instant; end the
    last timestamp. Identifier codes, vector padding, the order within an instant and whether a
    change at the $dumpvars instant is written inside it or after it (an FST holds one value per
    instant) are the writer's, not the waves', so they are normalised away."""
    decls, ids, scopes, end, values, changes, instant = [], {}, [], None, {}, [], {}

    def settle():
        for name in sorted(instant):
            if values.get(name) != instant[name]:
                values[name] = instant[name]
                changes.append((end, name, instant[name]))
        instant.clear()

    lines = iter(text.splitlines())
    for line in lines:
        t = line.split()
        if not t:
            continue
        if t[0] in ("$date", "$version", "$timescale", "$comment"):
            while "$end" not in t:  # a header block, on one line or several
                t = next(lines).split()
        elif t[0] == "$scope":
            scopes.append(t[2])
        elif t[0] == "$upscope":
            scopes.pop()
        elif t[0] == "$var":
            decls.append((".".join(scopes), t[4], int(t[2])))
            ids[t[3]] = ".".join(scopes + [t[4]])
        elif t[0][0] == "#":
            settle()
            end = int(t[0][1:])
        elif t[0] not in ("$dumpvars", "$end", "$enddefinitions"):
            code, raw = (t[1], t[0][1:]) if t[0][0] in "bB" else (t[0][1:], t[0][0])
            instant[ids[code]] = int(raw, 2)
    settle()
    return decls, changes, end


def timescale(text):
    words = text.split()
    i = words.index("$timescale")
    return "".join(words[i + 1:words.index("$end", i)])


def compare(vcd_path, fst_path):
    with open(vcd_path) as f:
        vcd = f.read()
    dump = subprocess.run(["fst2vcd", fst_path], capture_output=True, text=True, check=True).stdout
    (d1, c1, e1), (d2, c2, e2) = parse_vcd(vcd), parse_vcd(dump)
    if timescale(vcd) != timescale(dump):
        fail(f"timescale {timescale(vcd)} in the VCD, {timescale(dump)} in the FST")
    if d1 != d2:
        fail(f"declarations differ: {len(d1)} in the VCD, {len(d2)} in the FST; first difference "
             f"{next((a, b) for a, b in zip(d1 + [None], d2 + [None]) if a != b)}")
    if c1 != c2:
        first = next((a, b) for a, b in zip(c1 + [None], c2 + [None]) if a != b)
        fail(f"value changes differ: {len(c1)} in the VCD, {len(c2)} in the FST; first difference {first}")
    if e1 != e2:
        fail(f"the VCD ends at {e1} ps, the FST at {e2} ps")
    changed = {n for t, n, _ in c1 if t != c1[0][0]}
    if len(c1) <= len(d1) or not changed:
        fail(f"the waves hold no activity ({len(c1)} changes of {len(d1)} signals): the comparison proves nothing")
    return len(d1), len(c1), e1


def leftovers(folder, keep):
    return sorted(set(os.listdir(folder)) - set(keep))


def case_same_waves(binary, work, case):
    for ext in ("vcd", "fst"):
        r = sanvp(binary, case, os.path.join(work, f"x.{ext}"), os.path.join(work, f"r.{ext}.json"))
        if r.returncode != 0:
            fail(f"sanvp {case} --vcd x.{ext}: exit {r.returncode}\n{r.stderr}")
    with open(os.path.join(work, "x.fst"), "rb") as f:
        if f.read(1) != b"\x00":  # FST's first block is a header block, type 0; a VCD starts with '$'
            fail("x.fst is not an FST file")
    n, changes, end = compare(os.path.join(work, "x.vcd"), os.path.join(work, "x.fst"))
    extra = leftovers(work, ["x.vcd", "x.fst", "r.vcd.json", "r.fst.json"])
    if extra:
        fail(f"files left beside the waves: {extra}")
    # The view generator reads either format and names the file it read.
    views = {}
    for ext in ("vcd", "fst"):
        out = os.path.join(work, f"x-{ext}.gtkw")
        subprocess.run(["/usr/bin/python3", os.path.join(SRC, "scripts", "make_gtkw.py"), os.path.join(work, f"x.{ext}"), out],
                       check=True, capture_output=True)
        with open(out) as f:
            views[ext] = f.read()
    if '[dumpfile] "x.fst"' not in views["fst"]:
        fail("the view made from x.fst does not name x.fst as its dump file")
    if views["fst"].replace('"x.fst"', '"x.vcd"').replace("x-fst.gtkw", "x-vcd.gtkw") != views["vcd"]:
        fail("make_gtkw.py makes another view from the FST than from the VCD")
    sizes = [os.path.getsize(os.path.join(work, f"x.{e}")) for e in ("vcd", "fst")]
    print(f"ok: {case}: {n} signals, {changes} value changes up to {end} ps are equal; VCD {sizes[0]} B, FST {sizes[1]} B")


def case_determinism(binary, work):
    data = []
    for i in range(2):
        r = sanvp(binary, "run", os.path.join(work, f"d{i}.fst"), os.path.join(work, f"r{i}.json"))
        if r.returncode != 0:
            fail(f"run {i}: exit {r.returncode}\n{r.stderr}")
        with open(os.path.join(work, f"d{i}.fst"), "rb") as f:
            data.append(f.read())
    if data[0] != data[1]:
        fail(f"two runs gave different FST files ({len(data[0])} and {len(data[1])} bytes)")
    print(f"ok: two runs gave byte-identical FST files ({len(data[0])} bytes)")


def gtkwave_shows(folder, args, listed):
    """Opens GTKWave headless in `folder` with `args`; fails unless it loads and shows `listed` signals."""
    tcl = os.path.join(folder, "quit.tcl")
    with open(tcl, "w") as f:
        f.write('puts "sanvp-displayed [llength [gtkwave::getDisplayedSignals]]"\ngtkwave::/File/Quit\n')
    r = subprocess.run(["timeout", "120", "xvfb-run", "-a", "-s", "-screen 0 1600x900x24", "gtkwave", "-S", tcl] + args,
                       cwd=folder, capture_output=True, text=True)
    out = r.stdout + r.stderr
    shown = [line.split()[1] for line in out.splitlines() if line.startswith("sanvp-displayed ")]
    bad = [line for line in out.splitlines() if "could not" in line.lower() or "error" in line.lower()]
    if r.returncode != 0 or bad or shown != [str(listed)]:
        fail(f"gtkwave {' '.join(args)}: exit {r.returncode}, shows {shown} of {listed} signals\n" + "\n".join(bad[:5]))


def listed_signals(view):
    """The signal rows of a save file (as scripts/check_gtkw.sh counts them)."""
    row = re.compile(r"^(\+\{[^}]*\} )?[A-Za-z_][A-Za-z0-9_.]*(\[[0-9]+:[0-9]+\])?$")
    with open(view) as f:
        return sum(1 for line in f if row.match(line.rstrip("\n")))


def case_gtkwave(binary, work):
    waves = os.path.join(work, "waves")
    shutil.copytree(os.path.join(SRC, "waves", "filters"), os.path.join(waves, "filters"))
    shutil.copy(os.path.join(SRC, "waves", "default.gtkw"), waves)
    r = subprocess.run([binary, "run", "--vcd", "waves/default.fst", "--trace-window", "0:50us", "--report", "r.json"],
                       cwd=work, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"sanvp run --vcd waves/default.fst: exit {r.returncode}\n{r.stderr}")
    gtkwave_shows(waves, ["default.fst", "default.gtkw"], listed_signals(os.path.join(waves, "default.gtkw")))
    view = os.path.join(waves, "fst.gtkw")
    subprocess.run(["/usr/bin/python3", os.path.join(SRC, "scripts", "make_gtkw.py"), os.path.join(waves, "default.fst"), view],
                   check=True, capture_output=True)
    gtkwave_shows(waves, ["fst.gtkw"], listed_signals(view))
    print("ok: GTKWave shows every signal of waves/default.gtkw on the FST, and of a view made from the FST")


def case_bad_path(binary, work):
    errors = {}
    for ext in ("vcd", "fst"):
        for what, path in (("no folder", os.path.join(work, "missing", f"x.{ext}")), ("a folder", os.path.join(work, f"dir.{ext}"))):
            if what == "a folder":
                os.makedirs(path, exist_ok=True)
            r = sanvp(binary, "run", path, os.path.join(work, "r.json"))
            if r.returncode != 2:
                fail(f"--vcd {path} ({what}): exit {r.returncode}, expected 2\n{r.stderr}")
            errors[(ext, what)] = r.stderr.replace(f".{ext}", ".EXT")
    for what in ("no folder", "a folder"):
        if errors[("vcd", what)] != errors[("fst", what)] or "--vcd" not in errors[("fst", what)]:
            fail(f"{what}: the .fst error differs from the .vcd one:\n{errors[('vcd', what)]}{errors[('fst', what)]}")
    extra = leftovers(work, ["dir.vcd", "dir.fst"])
    if extra:
        fail(f"a refused run wrote {extra}")
    print("ok: a bad .fst path gives the error of a bad .vcd path:", errors[("fst", "no folder")].strip())


def fake_tool(work, script):
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    if script:
        tool = os.path.join(bin_dir, "vcd2fst")
        with open(tool, "w") as f:
            f.write(script)
        os.chmod(tool, 0o755)
    return dict(os.environ, PATH=bin_dir)


def case_no_tool(binary, work):
    env = fake_tool(work, None)  # PATH holds only an empty folder
    r = sanvp(binary, "run", os.path.join(work, "x.fst"), os.path.join(work, "r.json"), env)
    if r.returncode != 2 or "vcd2fst" not in r.stderr or "gtkwave" not in r.stderr:
        fail(f"without vcd2fst: exit {r.returncode} (expected 2, an error naming vcd2fst and gtkwave)\n{r.stderr}")
    if leftovers(work, ["bin"]):
        fail(f"a refused run wrote {leftovers(work, ['bin'])}")
    print("ok: without vcd2fst:", r.stderr.strip())


def case_failed_tool(binary, work, case):
    env = fake_tool(work, "#!/bin/sh\necho 'vcd2fst: simulated failure' >&2\nexit 5\n")
    report = os.path.join(work, "r.json")
    r = sanvp(binary, case, os.path.join(work, "x.fst"), report, env)
    if r.returncode != 3 or "exited with status 5" not in r.stderr + r.stdout or "x.fst.vcd" not in r.stderr + r.stdout:
        fail(f"a failing vcd2fst: exit {r.returncode} (expected 3, naming its status and the kept VCD)\n{r.stdout}{r.stderr}")
    with open(report) as f:
        json.load(f)  # whole, not cut short
    plain = sanvp(binary, case, os.path.join(work, "plain.vcd"), os.path.join(work, "plain.json"))
    if plain.returncode != 0:
        fail(f"the plain VCD run: exit {plain.returncode}\n{plain.stderr}")
    with open(os.path.join(work, "x.fst.vcd")) as a, open(os.path.join(work, "plain.vcd")) as b:
        if a.read() != b.read():
            fail("the kept VCD differs from the plain run's VCD")
    extra = leftovers(work, ["bin", "r.json", "x.fst.vcd", "plain.vcd", "plain.json"])
    if extra:
        fail(f"files left after the failed conversion: {extra}")
    print(f"ok: {case} with a failing vcd2fst: exit 3, report written, waves kept:", (r.stderr.strip().splitlines() or [""])[-1])


def main():
    binary, work, case = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    work = os.path.join(work, case)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if case in COMMANDS:
        case_same_waves(binary, work, case)
    elif case == "determinism":
        case_determinism(binary, work)
    elif case == "gtkwave":
        case_gtkwave(binary, work)
    elif case == "bad-path":
        case_bad_path(binary, work)
    elif case == "no-tool":
        case_no_tool(binary, work)
    elif case.startswith("failed-tool-"):
        case_failed_tool(binary, work, case[len("failed-tool-"):])
    else:
        fail(f"unknown case {case}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
