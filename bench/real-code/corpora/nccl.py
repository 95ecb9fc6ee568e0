"""NVIDIA/nccl: the device code of src/device/, with stand-ins for its generated files.

Files: the two .cu that src/device/ holds (common.cu, onerank.cu: SRCS of
src/device/Makefile) and our own instantiation files for what the build
generates.  src/device/generate.py writes one <coll>_<redop>_<type>.cu per
function class at build time (each: #include "common.h" and "<coll>.h",
then DEFINE_ncclDevKernel / DEFINE_ncclDevFunc lines), and
src/device/symmetric/generate.py writes the symmetric kernels (each
__global__ ncclSymkDevKernel_* waits for the grid dependency and calls one
ncclSymkRun_* template).  No generated file is in the repository, and
without them no collective's device function or kernel is instantiated, so
bench/real-code/corpora/stubs/nccl/gen/ holds hand-written equivalents for
one representative of each collective header, written by `prepare` to
.cuda-tidy-gen/nccl/:
  sendrecv.cu, broadcast.cu, all_gather.cu, all_gather_v.cu,
  reduce_sum_f32.cu, reduce_scatter_sum_f32.cu, all_reduce_sum_f32.cu
  (every algorithm x protocol generate.py builds for that collective, with
  its specialized kernels: *_RING_LL, and *_TREE_LL for AllReduce; the
  kernel ids are the ones generate.py gives at this commit), and
  symmetric/{all_gather, all_gather_gin, all_reduce_sum_f32,
  reduce_scatter_sum_f32, reduce_scatter_gin_sum_f32}.cu (every symmetric
  kernel of those files).
Not covered: the other redop x type combinations (the same templates with
other FuncSum/FuncProd/... and element types; the synchronization does not
depend on them), device_table.cu and host_table.cc (tables, no kernels),
and the host .cc files (they launch with cuLaunchKernelEx on pointers from
the tables, not with <<<>>>).

Flags: src/device/Makefile and makefiles/common.mk for a Linux build with
CUDA 13: -fgpu-rdc for what COMPILE builds (nvcc -dc: common.cu, onerank.cu
and the generated collectives) but not for the symmetric kernels
(COMPILE_SYM is nvcc -dw), -std=c++17 (CXXSTD for CUDA >= 13) with
-fgnu-keywords (the GIN GPI headers use GNU `typeof` in device code,
src/include/nccl_device/gin/gpi/gin_gpi_device_host_common.h: GPI_ACCESS_ONCE;
nvcc accepts it under -std=c++17, clang only with GNU keywords on), -DNCCL_OS_LINUX,
-DDOCA_VERBS_USE_CUDA_WRAPPER -DDOCA_VERBS_USE_NET_WRAPPER (NVCUFLAGS),
and INCFLAGS -I. -I.. -I$(BUILDDIR)/include -I../include
-I../include/plugin from src/device, i.e. -I src/device -I src
-I <build include> -I src/include -I src/include/plugin (passed as absolute
paths, see _nccl_base_flags).  $(BUILDDIR)/include
is what src/Makefile makes: nccl.h from src/nccl.h.in (version numbers filled
in by sed) and copies of the nccl_device headers, among them the DOCA
GPUNetIO headers at nccl_device/gin/gdaki/doca_gpunetio/; our stand-ins in
stubs/nccl/include/ (written to .cuda-tidy-stubs/nccl/include) are a nccl.h
that includes the template and defines the version macros, and a forwarder
for doca_gpunetio/doca_gpunetio_device.h.  src/nccl.h.in is not a source
file, so `prepare` reads it from the git mirror at the pinned commit
(CUDA_TIDY_MIRRORS, default /work/.mirror) when the harness has not
extracted it.
"""

import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
STUBS = os.path.join(HERE, "stubs", "nccl")
COMMIT = "5067397c2676d5aed50042fc39e5c8ee96eb0027"
GEN_DIR = ".cuda-tidy-gen/nccl"
INC_DIR = ".cuda-tidy-stubs/nccl/include"


def _copy_tree(src, dst):
    for d, _, names in os.walk(src):
        rel = os.path.relpath(d, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for n in names:
            shutil.copyfile(os.path.join(d, n), os.path.join(dst, rel, n))


def _nccl_prepare(root):
    _copy_tree(os.path.join(STUBS, "gen"), os.path.join(root, GEN_DIR))
    _copy_tree(os.path.join(STUBS, "include"), os.path.join(root, INC_DIR))
    tmpl = os.path.join(root, "src", "nccl.h.in")
    if not os.path.exists(tmpl):
        mirrors = os.environ.get("CUDA_TIDY_MIRRORS", "/work/.mirror")
        gitdir = os.path.join(mirrors, "NVIDIA+nccl", "repo")
        data = subprocess.run(
            ["git", "--git-dir=" + gitdir, "show", COMMIT + ":src/nccl.h.in"],
            check=True, stdout=subprocess.PIPE).stdout
        with open(tmpl, "wb") as f:
            f.write(data)


def _nccl_files(paths, options=None):
    out = [p for p in paths
           if p in ("src/device/common.cu", "src/device/onerank.cu")]
    for d, _, names in os.walk(os.path.join(STUBS, "gen")):
        rel = os.path.relpath(d, os.path.join(STUBS, "gen"))
        for n in names:
            if n.endswith(".cu"):
                out.append(os.path.normpath(os.path.join(GEN_DIR, rel, n)))
    return sorted(out)


NCCL_DEFINES = ["-std=c++17", "-fgnu-keywords", "-DNCCL_OS_LINUX",
                "-DDOCA_VERBS_USE_CUDA_WRAPPER", "-DDOCA_VERBS_USE_NET_WRAPPER"]
NCCL_INCLUDES = ["src/device", "src", INC_DIR, "src/include",
                 "src/include/plugin"]


# The -I folders are passed as absolute paths under the corpus root: the
# harness's --header-filter is ^<root>/, and cuda-tidy matches it against a
# header's path as clang spells it, which is relative when the header was
# found through a relative -I (its findings would be dropped).
def _nccl_base_flags(root):
    out = list(NCCL_DEFINES)
    for d in NCCL_INCLUDES:
        out += ["-I", os.path.join(root, d)]
    return out



def _nccl_flags(path, root):
    # COMPILE (common.cu, onerank.cu, the generated collectives) is nvcc -dc,
    # relocatable device code: -fgpu-rdc (common.h declares
    # extern __shared__ ncclShmem).  COMPILE_SYM (the symmetric kernels) is
    # nvcc -dw, whole-program device code.
    if path.startswith(GEN_DIR + "/symmetric/"):
        return _nccl_base_flags(root)
    return ["-fgpu-rdc"] + _nccl_base_flags(root)


CORPUS = {
    "name": "nccl",
    "repo": "NVIDIA/nccl",
    "mirror": "NVIDIA+nccl",
    "commit": COMMIT,
    "files": _nccl_files,
    "flags": _nccl_flags,
    "prepare": _nccl_prepare,
    "extensions": (".in",),
}
