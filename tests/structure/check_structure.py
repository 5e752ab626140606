#!/usr/bin/env python3
"""Strata's structure check: reads the #include graph of formats/, model/ and app/ and fails,
naming the file and line, when a dependency points the wrong way.

Each source folder sits on a floor; a folder may include its own floor and those below:
  formats/common < formats/remote < formats/registry < formats/<format> < formats/builtin
  < model/core < model/<format>, model/compare, model/repair
  < app/widgets < app/<format>, app/compare < app/gui;   app/cli sees formats/ only.
Format folders (any folder not named above) never include another format's folders, formats/ includes no
Qt header, model/ no Qt Widgets header, and no two folders include each other, directly or
through others. No source file is longer than MAX_LINES, except those in LONG_FILES, which may
not grow past the length recorded there (the list only shrinks: a file split below the limit
must leave it). Usage: check_structure.py SOURCE_DIR
"""
import os
import re
import sys

FLOORS = {
    "formats/common": 0,
    "formats/remote": 1,
    "formats/registry": 2,
    "formats/<format>": 3,
    "formats/builtin": 4,
    "model/core": 5,
    "model/<format>": 6,
    "model/compare": 6,
    "model/repair": 6,
    "app/widgets": 7,
    "app/<format>": 8,
    "app/compare": 8,
    "app/gui": 9,
    "app/cli": 5,  # strata-cli: formats/ alone
}
LAYERS = ("formats", "model", "app")
MAX_LINES = 800
# Files still longer than MAX_LINES, each with the length it may not exceed: debt to split.
LONG_FILES = {}
QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ANGLED = re.compile(r'^\s*#\s*include\s+<(Q[A-Za-z]+)(?:/[^>]*)?>', re.M)
WIDGETS = re.compile(r'^\s*#\s*include\s+<(?:QtWidgets/)?(Q(?:Widget|MainWindow|Dialog|Abstract'
                     r'Button|PushButton|Label|LineEdit|TreeView|TableView|Application))\b', re.M)


def kind(folder):
    """The FLOORS key of a folder: itself, or <format> for a format's own folder."""
    if folder in FLOORS:
        return folder
    return folder.split("/")[0] + "/<format>"


def folder_of(root, path):
    rel = os.path.relpath(path, root)
    parts = rel.split(os.sep)
    return "/".join(parts[:2]) if len(parts) > 2 else None


def sources(root):
    for layer in LAYERS:
        for directory, _, files in os.walk(os.path.join(root, layer)):
            for name in sorted(files):
                if name.endswith((".h", ".cpp")):
                    yield os.path.join(directory, name)


def included_folder(root, path, target):
    if target.split("/")[0] in LAYERS:
        candidate = os.path.join(root, target)
    else:
        candidate = os.path.normpath(os.path.join(os.path.dirname(path), target))
    if not os.path.exists(candidate):
        return None  # a system or generated header
    return folder_of(root, candidate)


def length_problems(rel, lines):
    allowed = LONG_FILES.get(rel)
    if allowed is None and lines > MAX_LINES:
        return [f"{rel}: {lines} lines, over the {MAX_LINES}-line limit: split it by what its "
                f"parts hold"]
    if allowed is not None and lines > allowed:
        return [f"{rel}: {lines} lines, over the {allowed} recorded in LONG_FILES: split it "
                f"instead of growing it"]
    if allowed is not None and lines <= MAX_LINES:
        return [f"{rel}: {lines} lines, within the {MAX_LINES}-line limit now: remove it from "
                f"LONG_FILES"]
    return []


def check(root):
    problems = []
    edges = {}  # folder -> {folder: (file, line)}
    for path in sources(root):
        here = folder_of(root, path)
        if here is None:
            continue
        text = open(path, encoding="utf-8", errors="replace").read()
        rel = os.path.relpath(path, root)
        problems += length_problems(rel.replace(os.sep, "/"), text.count("\n"))

        def line_of(match):
            return text.count("\n", 0, match.start()) + 1

        if here.startswith("formats/"):
            for m in ANGLED.finditer(text):
                problems.append(f"{rel}:{line_of(m)}: formats/ is plain C++, but this includes "
                                f"<{m.group(1)}> from Qt")
        if here.startswith("model/"):
            for m in WIDGETS.finditer(text):
                problems.append(f"{rel}:{line_of(m)}: model/ uses Qt Core only, but this "
                                f"includes <{m.group(1)}> from Qt Widgets")
        for m in QUOTED.finditer(text):
            there = included_folder(root, path, m.group(1))
            if there is None or there == here:
                continue
            edges.setdefault(here, {}).setdefault(there, (rel, line_of(m)))
            a, b = kind(here), kind(there)
            where = f"{rel}:{line_of(m)}"
            if a == "app/cli" and not there.startswith("formats/"):
                problems.append(f"{where}: strata-cli builds on formats/ alone, but this "
                                f"includes {m.group(1)} from {there}")
            elif (a.endswith("<format>") and b.endswith("<format>")
                  and here.split("/")[1] != there.split("/")[1]):
                problems.append(f"{where}: formats do not include one another ({here} "
                                f"includes {m.group(1)} from {there})")
            elif FLOORS[b] > FLOORS[a]:
                problems.append(f"{where}: {here} may not include from {there}, which sits "
                                f"above it ({m.group(1)})")
    problems += cycles(edges)
    return problems


def cycles(edges):
    """Folders that reach themselves through their includes, one report per cycle."""
    found, seen = [], set()
    for start in sorted(edges):
        stack = [(start, [start])]
        visited = set()
        while stack:
            node, trail = stack.pop()
            for nxt in sorted(edges.get(node, {})):
                if nxt == start:
                    key = frozenset(trail)
                    if key not in seen:
                        seen.add(key)
                        first = edges[trail[-1]][start]
                        found.append(f"{first[0]}:{first[1]}: include cycle between folders: "
                                     + " -> ".join(trail + [start]))
                elif nxt not in visited:
                    visited.add(nxt)
                    stack.append((nxt, trail + [nxt]))
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(sys.argv[1])
    for p in problems:
        print(p)
    print(f"structure check: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
