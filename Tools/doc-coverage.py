#!/usr/bin/env python3
# Measures how much of Easel's public API has documentation comments.
#
# Every declaration whose line starts (after indentation and attributes) with `public` or
# `open` counts: func, init, var, let, struct, enum, class, actor, protocol, typealias,
# subscript. It is documented when the nearest earlier line that is neither blank nor an
# attribute (`@discardableResult`, `@inlinable`, ...) is a `///` line or closes a `/** */`
# block. `public extension` itself is not counted, nor its members without their own `public`.
#
#   python3 Tools/doc-coverage.py [FOLDER ...] [--list] [--min PERCENT]
#
# FOLDER defaults to Sources. --list also prints the undocumented declarations as
# `path:line: declaration`. Exits with status 1 when overall coverage is below --min
# (default 80), 0 otherwise.

import argparse
import os
import re
import sys

ATTRIBUTE = re.compile(r"@\w+(?:\((?:[^()]|\([^()]*\))*\))?\s*")  # one level of nested ()
MODIFIERS = (r"(?:(?:private|fileprivate|internal|package|public)\(set\)|static|class|final|"
             r"override|mutating|nonmutating|convenience|required|lazy|dynamic|nonisolated|"
             r"indirect|weak|unowned)")
DECLARATION = re.compile(r"(?:public|open)\s+(?:" + MODIFIERS + r"\s+)*"
                         r"(?:func|init|var|let|struct|enum|class|actor|protocol|typealias|"
                         r"subscript|associatedtype)\b")


def strip_attributes(text):
    """The line without the attributes it starts with."""
    while True:
        match = ATTRIBUTE.match(text)
        if not match:
            return text
        text = text[match.end():]


def scan_file(path):
    """Yields (line number, declaration text, documented) for each public declaration."""
    with open(path, encoding="utf-8") as file:
        lines = file.read().splitlines()
    previous_is_doc = False     # what the nearest significant line above was
    in_block, block_is_doc = False, False
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if in_block:
            if "*/" in text:
                in_block, previous_is_doc = False, block_is_doc
            continue
        if not text:
            continue
        if text.startswith("/*"):
            block_is_doc = text.startswith("/**") and not text.startswith("/**/")
            if "*/" in text[2:]:
                previous_is_doc = block_is_doc
            else:
                in_block = True
            continue
        if text.startswith("///"):
            previous_is_doc = True
            continue
        rest = strip_attributes(text)
        if not rest:
            continue            # an attribute on its own line: look further up
        if DECLARATION.match(rest):
            yield number, text, previous_is_doc
        previous_is_doc = False


def module_of(path, root):
    """The folder under Sources that holds the file (or the scanned folder's name)."""
    parts = os.path.normpath(path).split(os.sep)
    if "Sources" in parts[:-2]:
        index = len(parts) - 1 - parts[::-1].index("Sources")
        if index < len(parts) - 2:
            return parts[index + 1]
    return os.path.basename(os.path.normpath(root))


def percent(documented, total):
    return 100.0 * documented / total if total else 100.0


def main():
    parser = argparse.ArgumentParser(description="Documentation coverage of public Swift API.")
    parser.add_argument("folders", nargs="*", default=["Sources"], help="folders to scan")
    parser.add_argument("--list", action="store_true", help="list undocumented declarations")
    parser.add_argument("--min", type=float, default=80.0, metavar="PERCENT",
                        help="fail when overall coverage is below this (default 80)")
    args = parser.parse_args()

    counts = {}                 # module -> [documented, total]
    undocumented = []
    for root in args.folders:
        if not os.path.isdir(root):
            parser.error(f"not a folder: {root}")
        for folder, subfolders, files in os.walk(root):
            subfolders.sort()
            for name in sorted(n for n in files if n.endswith(".swift")):
                path = os.path.join(folder, name)
                entry = counts.setdefault(module_of(path, root), [0, 0])
                for number, text, documented in scan_file(path):
                    entry[0] += documented
                    entry[1] += 1
                    if not documented:
                        undocumented.append(f"{path}:{number}: {text}")

    for module, (documented, total) in sorted(counts.items()):
        if total:
            print(f"{module}: {documented}/{total} ({percent(documented, total):.1f}%)")
    documented = sum(entry[0] for entry in counts.values())
    total = sum(entry[1] for entry in counts.values())
    overall = percent(documented, total)
    print(f"doc coverage: {documented} of {total} public declarations documented ({overall:.1f}%)")
    if args.list and undocumented:
        print("\n".join(undocumented))
    return 1 if overall < args.min else 0


if __name__ == "__main__":
    sys.exit(main())
