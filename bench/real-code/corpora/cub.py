"""NVIDIA/cccl's CUB: cub/examples/**/*.cu and the two link tests, with the repository's own headers.

CUB is header-only; its kernels exist where a program instantiates them.
The corpus is what cub/examples/CMakeLists.txt builds (every
example_*.cu of examples/block and examples/device, one executable each),
plus cub/test/link_a.cu and link_b.cu, the only tests that instantiate CUB
kernels without the Catch2/c2h harness (every other cub/test/*.cu is a
Catch2 test through cub_test_macros.h or c2h, or a *_fail.cu that is meant
not to compile); the Catch2 tests are left out.

Flags: -std=c++17, -D_CCCL_NO_SYSTEM_HEADER (cmake/CCCLBuildCompilerTargets.cmake
adds it to cccl.compiler_interface, which cub.compiler_interface links,
while CCCL_ENABLE_PRAGMA_SYSTEM_HEADER is OFF, its default: "build our tests
without treating ourself as system header"; without it every CCCL header
marks itself a system header and no finding in CUB is reported), the repository's own cub, libcudacxx/include and thrust
folders (CUB::CUB, libcudacxx::libcudacxx and cub.thrust of
cub/cmake/CubBuildCompilerTargets.cmake) before the toolkit's CCCL (CUDA 13
ships its own under include/cccl: -I is searched before it), c2h/include
(cccl.c2h, which cub_add_example links: "../../test/test_util.h" includes
<c2h/catch2_test_helper.h>) and cub/examples (the example's
target_include_directories).  c2h includes Catch2 3, which CMake fetches and
the repository does not hold: stubs/cub/ holds our own stand-in headers
(the few Catch2 names c2h's headers name at namespace scope; nothing of
Catch2 is run).

The harness extracts only files with a source extension; libcudacxx's
public headers (<cuda/std/cstddef>, <cuda/__cccl_config>, <nv/target>, 107
of them under the include folders) have none: prepare extracts them from the
mirror (CUDA_TIDY_MIRRORS, default /work/.mirror) at the pinned commit.

Include folders are absolute (root/...): realcode.py's --header-filter is
^<root>/, and cuda-tidy matches it against the name a header was found by,
so headers reached through a relative -I would be filtered out and CUB's
findings, all in its headers, lost.
"""

import os
import subprocess

STUBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stubs",
                     "cub")

COMMIT = "571f2fc3bc53cd710e306ad43d58995c1fe4219f"
INCLUDE_DIRS = ("cub/cub", "libcudacxx/include", "thrust/thrust",
                "c2h/include")
SOURCE_EXTS = (".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".c", ".cc",
               ".cpp", ".cxx", ".inl", ".inc", ".def", ".tcc", ".ipp")
MARKER = ".cuda-tidy-cub-headers"


def _cub_prepare(root):
    """Extract the extension-less headers of the include folders."""
    marker = os.path.join(root, MARKER)
    if os.path.exists(marker):
        return
    mirrors = os.environ.get("CUDA_TIDY_MIRRORS", "/work/.mirror")
    gitdir = os.path.join(mirrors, "NVIDIA+cccl", "repo")
    out = subprocess.run(["git", "--git-dir=" + gitdir, "ls-tree", "-r",
                          "-z", "--name-only", COMMIT, "--"]
                         + list(INCLUDE_DIRS),
                         check=True, stdout=subprocess.PIPE).stdout
    names = [n.decode() for n in out.split(b"\0") if n]
    missing = [n for n in names if not n.lower().endswith(SOURCE_EXTS)]
    for n in missing:
        data = subprocess.run(["git", "--git-dir=" + gitdir, "show",
                               COMMIT + ":" + n], check=True,
                              stdout=subprocess.PIPE).stdout
        full = os.path.join(root, n)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    with open(marker, "w") as f:
        f.write("%d headers\n" % len(missing))


CUB_TESTS = ["cub/test/link_a.cu", "cub/test/link_b.cu"]


def _cub_files(paths, options=None):
    return sorted(p for p in paths
                  if (p.startswith("cub/examples/") and p.endswith(".cu"))
                  or p in CUB_TESTS)


def _cub_flags(path, root):
    flags = ["-std=c++17", "-D_CCCL_NO_SYSTEM_HEADER"]
    for d in ("cub", "libcudacxx/include", "thrust", "c2h/include",
              "cub/examples"):
        flags += ["-I", os.path.join(root, d)]
    return flags + ["-I", STUBS]


CORPUS = {
    "name": "cub",
    "repo": "NVIDIA/cccl",
    "mirror": "NVIDIA+cccl",
    "commit": COMMIT,
    "files": _cub_files,
    "flags": _cub_flags,
    "prepare": _cub_prepare,
}
