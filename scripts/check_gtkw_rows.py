#!/usr/bin/python3
"""Checks that no two rows of a group in a GTKWave save file look alike: GTKWave shows a row's
alias, or else only the last dotted part of its signal name, so n0.send.state and n0.recv.state
without aliases would both read "state".

usage: check_gtkw_rows.py VIEW.gtkw...
"""
import re
import sys

ROW = re.compile(r"^(?:\+\{(?P<alias>[^}]*)\} )?(?P<name>[A-Za-z_][\w.]*)(?:\[\d+:\d+\])?$")


def duplicates(path):
    """[(group path, visible name)] shown more than once in one group."""
    stack, seen, dups, flags = [], [set()], [], 0
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("@"):
                flags = int(line[1:], 16)
            elif line.startswith("-") and flags & 0x800000:  # group begin
                stack.append(line[1:])
                seen.append(set())
            elif line.startswith("-") and flags & 0x1000000:  # group end
                stack.pop()
                seen.pop()
            elif (m := ROW.match(line)):
                shown = m.group("alias") or m.group("name").split(".")[-1]
                if shown in seen[-1]:
                    dups.append(("/".join(stack) or "(top)", shown))
                seen[-1].add(shown)
    return dups


def main():
    bad = 0
    for view in sys.argv[1:]:
        dups = duplicates(view)
        for group, shown in dups:
            print(f"FAIL: {view}: group {group} shows two rows named '{shown}'")
        if not dups:
            print(f"ok: {view}: every row of a group has its own name")
        bad |= bool(dups)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
