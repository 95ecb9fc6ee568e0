"""ORNL/HeCBench: every .cu of the first 120 src/*-cuda folders that synchronize.

Files.  A folder src/<name>-cuda "synchronizes" when one of its .cu, .cuh or
.h files (at any depth) contains `__syncthreads`, `__syncwarp`, `_sync(` (the
warp intrinsics), `cooperative_groups` or `this_grid()`: 214 of the 521 CUDA
folders at the pinned commit.  The first 120 of them in C-locale (byte) order
of their names (accuracy-cuda .. meanshift-cuda) are the corpus, and every .cu
under them, at any depth, is run: 220 files (halo-finder-cuda and
leukocyte-cuda compile .cxx/.c as CUDA and have no .cu; a .cu that the
folder's main.cu includes, such as btree-cuda/map/kernels/map_warps.cu, is run
on its own too).

Flags.  What the folder's own build passes, as a new user running `make` in
that folder gets: the Makefile is evaluated by a small make model (variables
with their flavours, +=, ?=, override, include, ifeq/ifneq/ifdef/ifndef/else
with the Makefile's own defaults: DEBUG=no, OPTIMIZE=yes, ...; the environment
is empty, so $(EXTRA_CFLAGS) is nothing), the rule that compiles the file is
found (an explicit rule naming it, the pattern rule for that rule's target, a
pattern rule %.cu, else the folder's first .cu compile rule), and from its
recipe the -I, -D and -std arguments are kept; a word that names an undefined
variable (a GPU arch, a path from the environment) is dropped, and so is an
absolute -I (a path on the authors' machines).  -I paths are relative to the
folder and are rewritten relative to the corpus root (-I../include becomes
-Isrc/include, -I../mis-cuda becomes -Isrc/mis-cuda).  Two folders
(daphne-cuda, local-ht-cuda) have only a CMakeLists.txt at their top: for
them the flags are those of the project's add_hecbench_benchmark macro
(cmake/modules/BenchmarkMacros.cmake): the folder itself and its INCLUDE_DIRS
as -I, -D and -std from its COMPILE_OPTIONS.

The Makefiles are not source files, so they are read from the git mirror at
the pinned commit (CUDA_TIDY_MIRRORS, default /work/.mirror), or from the
extracted corpus where the harness extracted them ("extensions").

Beyond make: dwconv1d-cuda's Makefile runs run.py, which builds
src/timex.cu as a torch extension with -DTmax=768 -DBF=8 -DBB=2
(EXTRA_FLAGS).  Four folders include a header that is not in the
repository: CImg (bm3d-cuda), Boost (ge-spmm-cuda, hbc-cuda), and
hip/hip_runtime.h (lr-cuda, on the branch taken when __NVCC__ is not
defined, as under clang); they get our own stand-ins (stubs/hecbench/,
copied into the corpus by prepare, STUB_FOLDERS).  prepare also extracts
from the mirror the one project header the harness skips for its name
(src/lut-gemm-cuda/lutGEMM, no extension).

Not analyzed, not ours: 14 .cu that are included by another .cu and are
no translation unit of their own (aes kernels/reference/utils, b+tree
kernel/kernel2, btree map/host and map/kernels/*, columnarSolver,
degrid and hexciton kernels, gmm cluster/readData, lud_kernels);
aop-cuda/main.cu (calls my_normcdf, defined nowhere in the project);
logic-rewrite-cuda/rewrite.cu (a __managed__ variable read in device code
is taken for a host variable: a cuda-tidy/clang limitation).
"""

import os
import re
import shlex
import subprocess

COMMIT = "49175104c89af65ae66e8eeec3be815f8458833b"
MIRROR = "ORNL+HeCBench"
FOLDERS = 120

_SYNC = re.compile(r"__syncthreads|__syncwarp|_sync\(|cooperative_groups"
                   r"|this_grid\(\)")
_FOLDER = re.compile(r"^src/([^/]+-cuda)/")

_state = {"root": None}
_text_cache = {}


def _gitdir():
    return os.path.join(os.environ.get("CUDA_TIDY_MIRRORS", "/work/.mirror"),
                        MIRROR, "repo")


def _read(relpath):
    """Text of a file of the corpus at the pinned commit (None: absent)."""
    if relpath in _text_cache:
        return _text_cache[relpath]
    text = None
    root = _state["root"]
    if root and os.path.isfile(os.path.join(root, relpath)):
        with open(os.path.join(root, relpath), errors="replace") as f:
            text = f.read()
    else:
        r = subprocess.run(["git", "--git-dir=" + _gitdir(), "show",
                            "%s:%s" % (COMMIT, relpath)],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            text = r.stdout.decode("utf-8", "replace")
    _text_cache[relpath] = text
    return text


_STUBS_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "stubs", "hecbench")
STUBS = ".cuda-tidy-stubs/hecbench"

# Folders that include a header of a third-party library (or a HIP header
# under a test of __NVCC__, which clang does not define): they get our
# stand-ins (stubs/hecbench/, copied into the corpus by prepare) with -I.
STUB_FOLDERS = {
    "src/bm3d-cuda": "CImg.h",
    "src/ge-spmm-cuda": "boost/program_options.hpp",
    "src/hbc-cuda": "boost/algorithm/string.hpp, boost/bimap.hpp",
    "src/lr-cuda": "hip/hip_runtime.h (linear.h: #ifdef __NVCC__ <cuda.h> "
                   "#else <hip/hip_runtime.h>)",
}

# Flags from a build other than make: dwconv1d-cuda's Makefile runs run.py,
# which builds src/timex.cu as a torch extension with
# extra_cuda_cflags -DTmax={T_MAX} -DBF={B_GROUP_FORWARD} -DBB={B_GROUP_BACKWARD}
# (run.py:59-64: 768, 8, 2).
EXTRA_FLAGS = {
    "src/dwconv1d-cuda/src/timex.cu": ["-DTmax=768", "-DBF=8", "-DBB=2"],
}

_QUOTED = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def _prepare(root):
    """Remember the root (files() reads the extracted sources), copy our
    stand-in headers in, and extract from the mirror the project headers
    that the harness skips for their names (src/lut-gemm-cuda/lutGEMM: no
    extension) where a file of a selected folder includes them."""
    _state["root"] = root
    dst = os.path.join(root, STUBS)
    for d, _, names in os.walk(_STUBS_SRC):
        for n in names:
            src = os.path.join(d, n)
            out = os.path.join(dst, os.path.relpath(src, _STUBS_SRC))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(src, "rb") as f, open(out + ".tmp", "wb") as g:
                g.write(f.read())
            os.replace(out + ".tmp", out)
    paths = []
    for d, _, names in os.walk(os.path.join(root, "src")):
        for n in names:
            paths.append(os.path.relpath(os.path.join(d, n), root))
    chosen, by_folder = _selected_folders(paths)
    for name in chosen:
        for p in by_folder[name]:
            text = _read(p) or ""
            for inc in _QUOTED.findall(text):
                rel = os.path.normpath(os.path.join(os.path.dirname(p), inc))
                full = os.path.join(root, rel)
                if rel.startswith("src/") and not os.path.exists(full):
                    data = _read(rel)
                    if data is not None:
                        with open(full, "w") as f:
                            f.write(data)


def _selected_folders(paths):
    by_folder = {}
    for p in paths:
        m = _FOLDER.match(p)
        if m:
            by_folder.setdefault(m.group(1), []).append(p)
    chosen = []
    for name in sorted(by_folder, key=lambda s: s.encode()):
        for p in sorted(by_folder[name]):
            if not p.endswith((".cu", ".cuh", ".h")):
                continue
            text = _read(p)
            if text and _SYNC.search(text):
                chosen.append(name)
                break
        if len(chosen) == FOLDERS:
            break
    return chosen, by_folder


_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def _included_only(folder, files):
    """The .cu files of a folder that another of its files #includes
    (`#include "kernels.cu"` from main.cu). The build cannot also compile
    them on their own (their definitions would be linked twice), so a new
    user's compile database has no command for them: they are analyzed
    through their includer, once, not a second time alone."""
    included = set()
    for p in files:
        text = _read(p) or ""
        for inc in _INCLUDE.findall(text):
            included.add(os.path.normpath(
                os.path.join(os.path.dirname(p), inc)))
    return {p for p in files if os.path.normpath(p) in included}


def _hecbench_files(paths, options=None):
    chosen, by_folder = _selected_folders(paths)
    out = []
    for name in chosen:
        files = by_folder[name]
        skip = _included_only("src/" + name, files)
        out.extend(sorted(p for p in files
                          if p.endswith(".cu") and p not in skip))
    return out


# --------------------------------------------------------------------------
# A small model of GNU make: enough to evaluate HeCBench's Makefiles.

_UNDEF = "\x00"          # what an undefined variable expands to
_ASSIGN = re.compile(r"^(?:(override|export)\s+)?([A-Za-z0-9_.+-]+)\s*"
                     r"(::=|:=|\?=|\+=|!=|=)\s*(.*)$")


class _Make:
    def __init__(self, folder):
        self.folder = folder
        self.vars = {}      # name -> (flavour 'r'|'s', value)
        self.rules = []     # (targets, prereqs, pattern_prereqs, recipe)

    # ---- expansion
    def expand(self, s, depth=0):
        if depth > 30:
            return _UNDEF
        out, i, n = [], 0, len(s)
        while i < n:
            c = s[i]
            if c != "$":
                out.append(c)
                i += 1
                continue
            if i + 1 >= n:
                break
            d = s[i + 1]
            if d == "$":
                out.append("$")
                i += 2
            elif d in "({":
                close = ")" if d == "(" else "}"
                j, level = i + 2, 1
                while j < n and level:
                    if s[j] == d:
                        level += 1
                    elif s[j] == close:
                        level -= 1
                    j += 1
                out.append(self.ref(s[i + 2:j - 1], depth))
                i = j
            else:
                # $@ $< $^ $* and one-letter variables: no flags there.
                out.append("" if d in "@<^*?+|%" else self.var(d, depth))
                i += 2
        return "".join(out)

    def var(self, name, depth):
        if name not in self.vars:
            return _UNDEF
        flavour, value = self.vars[name]
        return self.expand(value, depth + 1) if flavour == "r" else value

    def ref(self, body, depth):
        m = re.match(r"^([a-z-]+)[ \t]+(.*)$", body, re.S)
        if m and m.group(1) in ("wildcard", "shell", "patsubst", "addprefix",
                                "addsuffix", "subst", "strip", "filter",
                                "filter-out", "foreach", "if", "call",
                                "notdir", "dir", "basename", "sort", "word",
                                "firstword", "abspath", "realpath", "info",
                                "warning", "error", "origin", "join"):
            fn, args = m.group(1), m.group(2)
            if fn == "strip":
                return " ".join(self.expand(args, depth + 1).split())
            if fn in ("addprefix", "addsuffix", "patsubst", "subst"):
                parts = [self.expand(a, depth + 1)
                         for a in _split_args(args)]
                if fn == "addprefix" and len(parts) == 2:
                    return " ".join(parts[0] + w for w in parts[1].split())
                if fn == "addsuffix" and len(parts) == 2:
                    return " ".join(w + parts[0] for w in parts[1].split())
                if fn == "subst" and len(parts) == 3:
                    return parts[2].replace(parts[0], parts[1])
                if fn == "patsubst" and len(parts) == 3:
                    return " ".join(_patsubst(parts[0], parts[1], w)
                                    for w in parts[2].split())
            if fn in ("wildcard", "info", "warning", "error"):
                return ""
            return _UNDEF
        name = self.expand(body, depth + 1)
        if ":" in name and "=" in name:      # $(VAR:a=b)
            var, _, sub = name.partition(":")
            a, _, b = sub.partition("=")
            val = self.var(var, depth)
            return " ".join(_patsubst(a if "%" in a else "%" + a,
                                      b if "%" in b else "%" + b, w)
                            for w in val.split())
        return self.var(name, depth)

    # ---- parsing
    def cond(self, line):
        m = re.match(r"^(ifeq|ifneq|ifdef|ifndef)\b\s*(.*)$", line)
        kind, rest = m.group(1), m.group(2).strip()
        if kind in ("ifdef", "ifndef"):
            name = self.expand(rest).strip()
            val = self.var(name, 0) if name in self.vars else ""
            ok = bool(val.replace(_UNDEF, "").strip())
            return ok if kind == "ifdef" else not ok
        a = b = ""
        if rest.startswith("("):
            inner = rest[1:rest.rfind(")")]
            parts = _split_args(inner)
            if len(parts) == 2:
                a, b = parts
        else:
            q = re.findall(r"\"([^\"]*)\"|'([^']*)'", rest)
            if len(q) == 2:
                a, b = (x[0] or x[1] for x in q)
        a = self.expand(a).replace(_UNDEF, "").strip()
        b = self.expand(b).replace(_UNDEF, "").strip()
        return (a == b) if kind == "ifeq" else (a != b)

    def parse(self, text, seen=()):
        lines = _logical_lines(text)
        stack = []          # [active, taken]
        rule = None
        for raw in lines:
            active = all(s[0] for s in stack)
            stripped = raw.strip()
            word = stripped.split(None, 1)[0] if stripped else ""
            if word in ("ifeq", "ifneq", "ifdef", "ifndef"):
                ok = active and self.cond(stripped)
                stack.append([ok, ok])
                continue
            if word == "else" and stack:
                rest = stripped[4:].strip()
                outer = all(s[0] for s in stack[:-1])
                if stack[-1][1]:
                    stack[-1][0] = False
                elif rest:
                    ok = outer and self.cond(rest)
                    stack[-1] = [ok, ok]
                else:
                    stack[-1] = [outer, True]
                continue
            if word == "endif" and stack:
                stack.pop()
                continue
            if not active:
                continue
            if raw.startswith("\t") and rule is not None:
                rule[3].append(raw[1:])
                continue
            if not stripped:
                continue
            if word in ("include", "-include", "sinclude"):
                for f in self.expand(stripped.split(None, 1)[1]).split():
                    path = os.path.normpath(os.path.join(self.folder, f))
                    if _UNDEF in f or path in seen:
                        continue
                    sub = _read(path)
                    if sub is not None:
                        self.parse(sub, seen + (path,))
                rule = None
                continue
            m = _ASSIGN.match(stripped)
            if m and not _colon_before(stripped, m.start(3)):
                self.assign(m.group(1), m.group(2), m.group(3), m.group(4))
                rule = None
                continue
            rule = self.rule_line(stripped)
        return self

    def assign(self, prefix, name, op, value):
        value = value.strip()
        if op in ("::=", ":="):
            self.vars[name] = ("s", self.expand(value))
        elif op == "?=":
            if name not in self.vars:
                self.vars[name] = ("r", value)
        elif op == "+=":
            if name in self.vars:
                flavour, old = self.vars[name]
                new = self.expand(value) if flavour == "s" else value
                self.vars[name] = (flavour, (old + " " + new).strip())
            else:
                self.vars[name] = ("r", value)
        elif op == "!=":
            self.vars[name] = ("s", _UNDEF)
        else:
            self.vars[name] = ("r", value)

    def rule_line(self, line):
        recipe = []
        cut = _find_colon(line)
        if cut < 0:
            return None
        head, rest = line[:cut], line[cut + 1:]
        if rest.startswith(":"):
            rest = rest[1:]
        if ";" in rest:
            rest, _, inline = rest.partition(";")
            recipe.append(inline)
        targets = self.expand(head).split()
        pattern = None
        cut2 = _find_colon(rest)
        if cut2 >= 0:                        # static pattern rule
            pattern = self.expand(rest[cut2 + 1:]).split("|")[0].split()
            rest = rest[:cut2]
        prereqs = self.expand(rest.split("|")[0]).split() if pattern is None \
            else pattern
        rule = (targets, [_norm(p) for p in prereqs], pattern is not None,
                recipe)
        self.rules.append(rule)
        return rule

    # ---- the rule that compiles a file
    def recipe_for(self, rel):
        """The recipe lines that compile \\p rel (a path relative to the
        folder)."""
        rel = _norm(rel)
        for targets, prereqs, static, recipe in self.rules:
            if static or any("%" in t for t in targets):
                continue
            if rel in prereqs:
                if recipe:
                    return recipe
                for t in targets:
                    r = self.pattern_recipe(_norm(t), target=True)
                    if r:
                        return r
        r = self.pattern_recipe(rel, target=False)
        if r:
            return r
        return self.default_recipe()

    def pattern_recipe(self, name, target):
        for targets, prereqs, static, recipe in self.rules:
            if not recipe:
                continue
            pats = prereqs if not target else [t for t in targets]
            for p in pats:
                if "%" not in p:
                    continue
                if target and not any(q.endswith(".cu") for q in prereqs):
                    continue
                if not target and not p.endswith(".cu"):
                    continue
                if _pattern_match(p, name):
                    return recipe
        return None

    def default_recipe(self):
        for targets, prereqs, static, recipe in self.rules:
            if recipe and any(p.endswith("%.cu") for p in prereqs):
                return recipe
        for targets, prereqs, static, recipe in self.rules:
            if recipe and any(p.endswith(".cu") for p in prereqs):
                return recipe
        for var in ("CFLAGS", "NVCCFLAGS", "NVCC_FLAGS"):
            if var in self.vars:
                return ["$(%s)" % var]
        return []


def _logical_lines(text):
    out, cur = [], ""
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if not line.startswith("\t"):
            line = _strip_comment(line)
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        out.append(cur + line)
        cur = ""
    if cur:
        out.append(cur)
    return out


def _strip_comment(line):
    i = line.find("#")
    while i > 0 and line[i - 1] == "\\":
        i = line.find("#", i + 1)
    return line if i < 0 else line[:i]


def _find_colon(s):
    level = 0
    for i, c in enumerate(s):
        if c in "({":
            level += 1
        elif c in ")}":
            level -= 1
        elif c == ":" and level == 0 and not s[i + 1:i + 2] == "=":
            return i
    return -1


def _colon_before(s, pos):
    c = _find_colon(s)
    return 0 <= c < pos


def _split_args(s):
    parts, level, cur = [], 0, ""
    for c in s:
        if c in "({":
            level += 1
        elif c in ")}":
            level -= 1
        if c == "," and level == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


def _patsubst(pat, rep, word):
    if "%" not in pat:
        return rep if word == pat else word
    a, _, b = pat.partition("%")
    if word.startswith(a) and word.endswith(b) and len(word) >= len(a + b):
        stem = word[len(a):len(word) - len(b)]
        return rep.replace("%", stem, 1)
    return word


def _pattern_match(pat, name):
    if "/" not in pat:
        name = os.path.basename(name)
    a, _, b = pat.partition("%")
    return name.startswith(a) and name.endswith(b) and \
        len(name) >= len(a + b)


def _norm(p):
    return os.path.normpath(p) if p and "%" not in p else \
        re.sub(r"^(\./)+", "", p)


def _words_to_flags(words, folder):
    flags = []
    i = 0

    def take(k):
        return words[k] if k < len(words) else None
    while i < len(words):
        w = words[i]
        arg = None
        kind = None
        if w in ("-I", "--include-path"):
            kind, arg, i = "-I", take(i + 1), i + 2
        elif w.startswith("--include-path="):
            kind, arg, i = "-I", w.split("=", 1)[1], i + 1
        elif w.startswith("-I"):
            kind, arg, i = "-I", w[2:], i + 1
        elif w in ("-D", "--define-macro"):
            kind, arg, i = "-D", take(i + 1), i + 2
        elif w.startswith("--define-macro="):
            kind, arg, i = "-D", w.split("=", 1)[1], i + 1
        elif w.startswith("-D"):
            kind, arg, i = "-D", w[2:], i + 1
        elif w in ("-std", "--std"):
            kind, arg, i = "-std", take(i + 1), i + 2
        elif w.startswith(("-std=", "--std=")):
            kind, arg, i = "-std", w.split("=", 1)[1], i + 1
        else:
            i += 1
            continue
        if not arg or _UNDEF in arg or arg.startswith("-"):
            continue
        if kind == "-I":
            if os.path.isabs(arg):
                continue
            path = os.path.normpath(os.path.join(folder, arg))
            if path not in flags:
                flags += ["-I", path]
        elif kind == "-D":
            flags.append("-D" + arg)
        else:
            flags = [f for f in flags if not f.startswith("-std=")]
            flags.append("-std=" + arg)
    return flags


def _split_words(text):
    try:
        return shlex.split(text, posix=True)
    except ValueError:
        return text.split()


def _make_flags(folder, text, rel):
    mk = _Make(folder).parse(text)
    words = []
    for line in mk.recipe_for(rel):
        words += [w for w in _split_words(mk.expand(line)) if _UNDEF not in w]
    return _words_to_flags(words, folder)


def _cmake_flags(folder, text):
    # add_hecbench_benchmark (cmake/modules/BenchmarkMacros.cmake): the
    # folder's own directory, INCLUDE_DIRS and COMPILE_OPTIONS.
    text = re.sub(r"#[^\n]*", "", text)
    text = text.replace("${CMAKE_CURRENT_SOURCE_DIR}", ".")
    words = ["-I", "."]
    m = re.search(r"add_hecbench_benchmark\s*\((.*?)\)", text, re.S)
    if m:
        key = None
        for w in m.group(1).split():
            if re.match(r"^[A-Z_]+$", w):
                key = w
            elif key == "INCLUDE_DIRS":
                words += ["-I", w]
            elif key == "COMPILE_OPTIONS":
                words.append(w)
    return _words_to_flags(words, folder)


_flag_cache = {}


def _hecbench_flags(path, root):
    _state["root"] = _state["root"] or root
    m = _FOLDER.match(path)
    folder = "src/" + m.group(1)
    rel = path[len(folder) + 1:]
    key = (folder, rel)
    if key not in _flag_cache:
        make = _read(folder + "/Makefile")
        if make is not None:
            flags = _make_flags(folder, make, rel)
        else:
            cm = _read(folder + "/CMakeLists.txt")
            flags = _cmake_flags(folder, cm) if cm else []
        if folder in STUB_FOLDERS:
            flags += ["-I", STUBS]
        flags += EXTRA_FLAGS.get(path, [])
        _flag_cache[key] = flags
    return list(_flag_cache[key])


CORPUS = {
    "name": "hecbench",
    "repo": "ORNL/HeCBench",
    "mirror": MIRROR,
    "commit": COMMIT,
    "files": _hecbench_files,
    "flags": _hecbench_flags,
    "prepare": _prepare,
    "extensions": ("Makefile", "CMakeLists.txt", ".mk"),
}
