"""The shape of naive_bayes.py: its sections, largest classes and functions, docstrings
and forward references.

    python benchmarks/structure.py                    # this checkout's naive_bayes.py
    python benchmarks/structure.py OLD.py             # another version, to compare

For this checkout's file it also lists the parts of nbsrc/ it is built from, and the
names a part uses from a later one (entry points that call down).

A section is a banner comment (a line of dashes, then its title).  A forward
reference is a module-level name that a top-level function or class uses and the
file defines further down; those more than 300 lines ahead are listed.  Standard
library only.
"""

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sections(lines):
    """[(title, first line, number of lines)] of the banner sections."""
    starts = [(i + 1, lines[i + 1][2:].strip()) for i, line in enumerate(lines[:-1])
              if line.startswith("# ----") and lines[i + 1].startswith("# ")
              and not lines[i + 1].startswith("# ----")]
    ends = [start for start, _ in starts[1:]] + [len(lines) + 1]
    return [(title, start, end - start) for (start, title), end in zip(starts, ends)]


def forward_references(tree):
    """[(lines ahead, user, name, line)] of every module-level name used above its
    definition by a top-level function or class, farthest first."""
    defined = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined[node.name] = node.lineno
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    defined.setdefault(target.id, node.lineno)
    found = []
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            continue
        seen = set()
        for inner in ast.walk(node):
            if isinstance(inner, ast.Name) and inner.id not in seen and \
                    defined.get(inner.id, 0) > node.end_lineno:
                seen.add(inner.id)
                found.append((defined[inner.id] - inner.lineno, node.name, inner.id,
                              inner.lineno))
    return sorted(found, reverse=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", default=str(ROOT / "naive_bayes.py"))
    args = parser.parse_args(argv)
    text = Path(args.path).read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    print("%s: %s lines" % (args.path, format(len(lines), ",")))
    print("\nsections:")
    for title, start, size in sections(lines):
        print("  %-66s %6s lines" % (title[:66], format(size, ",")))
    definitions = [node for node in ast.walk(tree)
                   if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    for kind, label in ((ast.ClassDef, "classes"), (ast.FunctionDef, "functions")):
        largest = sorted(((node.end_lineno - node.lineno + 1, node.name) for node in
                          definitions if isinstance(node, kind)), reverse=True)[:5]
        shown = ", ".join("%s (%d lines)" % (name, size) for size, name in largest)
        print("\nlargest %s: %s" % (label, shown))
    undocumented = [node for node in definitions if not ast.get_docstring(node)]
    print("\nclasses and functions: %d, without a docstring: %d (%.0f%%)"
          % (len(definitions), len(undocumented),
             100.0 * len(undocumented) / max(1, len(definitions))))
    references = forward_references(tree)
    far = [item for item in references if item[0] > 300]
    print("\nforward references: %d; more than 300 lines ahead: %d; more than 1,000: %d"
          % (len(references), len(far), sum(1 for item in far if item[0] > 1000)))
    for ahead, user, name, line in far:
        print("  %6s lines ahead: %s -> %s (line %d)" % (format(ahead, ","), user, name, line))
    if Path(args.path).resolve() == ROOT / "naive_bayes.py" and (ROOT / "nbsrc").is_dir():
        print_parts(references)
    return 0


def print_parts(references):
    """The parts of nbsrc/ with their sizes, and the uses of a later part's names (the
    entry points that call down)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import amalgamate
    print("\nparts (nbsrc/, in build order):")
    for first, path, count in amalgamate.line_map():
        print("  %-28s %6s lines" % (path.name, format(count, ",")))
    down = set()
    for ahead, user, name, line in references:
        here = amalgamate.where(line).split(":")[0]
        there = amalgamate.where(line + ahead).split(":")[0]
        if here != there:
            down.add((Path(here).name, user, name, Path(there).name))
    print("\nnames used from a later part: %d" % len(down))
    for here, user, name, there in sorted(down):
        print("  %s: %s -> %s (%s)" % (here, user, name, there))


if __name__ == "__main__":
    sys.exit(main())
