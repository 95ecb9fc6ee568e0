"""moderngpu/moderngpu: every .cu of tests/, demo/ and tutorial/, as its CMake builds them.

moderngpu is header-only (src/moderngpu/*.hxx); its kernels exist only where
a program instantiates them, so the corpus is the programs its CMakeLists
build: tests/CMakeLists.txt, demo/CMakeLists.txt and tutorial/CMakeLists.txt
each glob their folder's *.cu into one executable per file (the demos add
demo/graph.cxx, host code only).

Flags, from the top CMakeLists.txt's MODERNGPU interface target:
-I src (target_include_directories), -std=c++11 (CUDA_STANDARD 11),
-DMODERNGPUVERSION=2.13.0 (target_compile_definitions), -fgpu-rdc
(CUDA_SEPARABLE_COMPILATION ON), --cuda-gpu-arch=sm_80 (the highest of its
CUDA_ARCHITECTURES 60 61 70 75 80).  Its nvcc-only --expt-extended-lambda and
--expt-relaxed-constexpr have no clang spelling (clang accepts extended
lambdas and calls constexpr host functions from the device by default);
--use_fast_math, -v and line info do not change the parse.  A demo's own
"graph.hxx" is found beside it by the quoted include.

The include folder is passed as an absolute path (root/src): realcode.py's
--header-filter is ^<root>/, and cuda-tidy matches it against the name a
header was found by, so a header reached through a relative -I (src/...)
would be filtered out and the findings in moderngpu's headers, where all of
its kernels are, lost.

-DPRAGMA_UNROLL=_Pragma("unroll"): src/moderngpu/meta.hxx defines
PRAGMA_UNROLL, unless already defined, as an object-like macro whose body is
the tokens `#pragma unroll` on the device side; nvcc accepts that, clang's
preprocessor does not turn a macro's expansion into a directive, and
sort_networks.hxx's loops then fail to parse (demo/cities.cu,
tests/test_mergesort.cu, tests/test_segsort.cu).  The define is the same
unroll pragma, spelled with the operator clang accepts, through the header's
own #ifndef hook.
"""

import os

MODERNGPU_DIRS = ("tests/", "demo/", "tutorial/")


def _moderngpu_files(paths, options=None):
    return sorted(p for p in paths
                  if p.endswith(".cu") and p.count("/") == 1
                  and p.startswith(MODERNGPU_DIRS))


def _moderngpu_flags(path, root):
    return ["-std=c++11", "-fgpu-rdc", "--cuda-gpu-arch=sm_80",
            "-DMODERNGPUVERSION=2.13.0",
            '-DPRAGMA_UNROLL=_Pragma("unroll")', "-I", os.path.join(root, "src")]


CORPUS = {
    "name": "moderngpu",
    "repo": "moderngpu/moderngpu",
    "mirror": "moderngpu+moderngpu",
    "commit": "267cc8d02c03f00f1656f1205c61c946a1e530b0",
    "files": _moderngpu_files,
    "flags": _moderngpu_flags,
}
