#!/usr/bin/env python3
"""The folders of checks/analysis/ and tool/driver/ keep to their READMEs.

  check_layers.py <source dir>

Every subfolder of checks/analysis/ and tool/driver/ has a README.md whose
last paragraph says what the folder may include: "May include a/, b/ ..."
(folders beside it, or folders and headers named from the repository root
such as checks/analysis/launch/, tool/compdb/ or tool/driver/ExitCodes.h) or "Includes nothing else of X/".
A file may always include its own folder, clang, llvm and the standard
library. Nothing under checks/analysis/ includes AnalysisManager.h but the
manager itself (the manager composes the analyses; analyses ask through
core/FactQueries.h), and nothing under checks/ includes tool/.
Exit 1 with one line per include that crosses a README, or per folder
without one.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"((?:checks|tool|tests)/[^"]+)"', re.M)
FOLDER_TOKEN = re.compile(r'(?<![\w/])((?:[\w-]+/)+(?:[\w-]+\.h)?)(?=[\s,;)]|\.(?:\s|$)|$)')


def allowed_prefixes(readme_text, folder, parent):
    """The include prefixes a folder's README allows, or None if it names no
    rule (itself a failure)."""
    paras = [p.strip() for p in readme_text.strip().split("\n\n") if p.strip()]
    last = " ".join(paras[-1].split()) if paras else ""
    own = [folder + "/"]
    m = re.search(r"Includes nothing else of ([\w/]+)", last)
    if m:
        return own
    m = re.search(r"May include (.*)", last)
    if not m:
        return None
    out = list(own)
    for tok in FOLDER_TOKEN.findall(m.group(1)):
        if tok.startswith(("checks/", "tool/", "tests/")):
            out.append(tok)
        else:
            out.append(parent + "/" + tok)
    return out


def main(argv):
    src = argv[1] if len(argv) > 1 else "."
    problems = []
    for parent in ("checks/analysis", "tool/driver"):
        base = os.path.join(src, parent)
        for name in sorted(os.listdir(base)):
            folder = parent + "/" + name
            full = os.path.join(src, folder)
            if not os.path.isdir(full):
                continue
            readme = os.path.join(full, "README.md")
            if not os.path.isfile(readme):
                problems.append("%s/: no README.md" % folder)
                continue
            with open(readme, encoding="utf-8") as f:
                allowed = allowed_prefixes(f.read(), folder, parent)
            if allowed is None:
                problems.append("%s/README.md: its last paragraph says neither "
                                "'May include ...' nor 'Includes nothing else of ...'"
                                % folder)
                continue
            for fname in sorted(os.listdir(full)):
                if not fname.endswith((".h", ".cpp")):
                    continue
                path = folder + "/" + fname
                with open(os.path.join(src, path), encoding="utf-8") as f:
                    text = f.read()
                for inc in INCLUDE.findall(text):
                    if inc.endswith("/AnalysisManager.h") and parent == "checks/analysis":
                        problems.append("%s includes %s: analyses ask through "
                                        "core/FactQueries.h" % (path, inc))
                        continue
                    if not any(inc.startswith(p) for p in allowed):
                        problems.append("%s includes %s, which %s/README.md does "
                                        "not allow" % (path, inc, folder))
    for root, _, names in os.walk(os.path.join(src, "checks")):
        for fname in names:
            if fname.endswith((".h", ".cpp")):
                path = os.path.relpath(os.path.join(root, fname), src)
                with open(os.path.join(root, fname), encoding="utf-8") as f:
                    for inc in INCLUDE.findall(f.read()):
                        if inc.startswith("tool/"):
                            problems.append("%s includes %s: checks/ never "
                                            "includes tool/" % (path, inc))
    for p in problems:
        print("layers: " + p)
    print("layers: %d problem%s" % (len(problems), "" if len(problems) == 1 else "s"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
