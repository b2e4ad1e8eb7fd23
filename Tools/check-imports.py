#!/usr/bin/env python3
"""Checks the house's import rules (docs/architecture.md), which SwiftPM does not enforce
in an incremental build (a module built earlier can be imported without being declared):

1. every `import Easel…` / `import CEasel…` in a target's files is one of the target's
   declared dependencies in Package.swift;
2. only EaselCairo (and the C reference tool) import the C modules; the CLI imports its line
   editor's, and EaselSupport the system calls Glibc leaves out (CEaselSystem);
3. the `easel` executable and the targets it links import FoundationEssentials, never
   Foundation: one call into Foundation's whole runtime links CoreFoundation and ICU into the
   CLI (49 MB, about a millisecond of every process's start).

Run from the package root: `python3 Tools/check-imports.py`. Exit status 1 on a violation.
"""
import glob
import re
import sys

package = open("Package.swift").read()
declaration = re.compile(r'\.(testTarget|target|executableTarget)\(\s*name:\s*"([^"]+)"')
starts = [(m.start(), m.group(1), m.group(2)) for m in declaration.finditer(package)] + [(len(package), "", "")]
problems = []
# Each target's declared dependencies and source folder, for the rules below.
declared, folders = {}, {}
for (start, kind, name), (end, _, _) in zip(starts, starts[1:]):
    body = package[start:end]
    dependencies = declared[name] = set(re.findall(r'"([A-Za-z][\w-]*)"', body)) - {name}
    path = re.search(r'path:\s*"([^"]+)"', body)
    folder = folders[name] = path.group(1) if path else ("Tests/" if kind == "testTarget" else "Sources/") + name
    for file in sorted(glob.glob(folder + "/**/*.swift", recursive=True)):
        for module in re.findall(r'^(?:@testable |@_exported )?import (\w+)', open(file).read(), re.M):
            if not module.startswith(("Easel", "CEasel")) or module == name:
                continue
            if module not in dependencies:
                problems.append(f"{file}: imports {module}, which is not a dependency of {name} in Package.swift")
            # C is at the edge: rendering's libraries in EaselCairo, the terminal's line editor in the
            # CLI, the few system calls Swift's Glibc module leaves out in EaselSupport.
            allowed = (
                name == "EaselCairo"
                or (name == "easel" and module == "CEaselEdit")
                or (name == "EaselSupport" and module == "CEaselSystem")
            )
            if module.startswith("CEasel") and folder.startswith("Sources/") and not allowed:
                problems.append(
                    f"{file}: imports the C module {module}; only EaselCairo (the CLI its line editor, EaselSupport CEaselSystem) may"
                )

# 3. What `easel` links: its own dependencies, and theirs, within this package.
linked, pending = set(), ["easel"]
while pending:
    name = pending.pop()
    if name in linked or name not in declared:
        continue
    linked.add(name)
    pending += declared[name]
for name in sorted(linked):
    for file in sorted(glob.glob(folders[name] + "/**/*.swift", recursive=True)):
        if re.search(r"^(?:@_exported )?import Foundation$", open(file).read(), re.M):
            problems.append(f"{file}: imports Foundation; {name} is linked into easel, which uses FoundationEssentials only")

for problem in problems:
    print(problem)
print(f"imports: {len(problems)} problem{'s' if len(problems) != 1 else ''}")
sys.exit(1 if problems else 0)
