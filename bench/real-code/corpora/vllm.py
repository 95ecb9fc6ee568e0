"""vllm-project/vllm: every csrc/**/*.cu, with the flags of vllm's CMake build.

Files: all 88 .cu under csrc/ at the pinned commit (the fork mirror
local-inference-lab/vllm holds that upstream commit).  Generated sources
(csrc/quantization/marlin/sm80_kernel_*.cu, machete/generated/, the Marlin
MoE kernels) are written by CMake at build time and are not in the tree.

Flags (CMakeLists.txt, cmake/utils.cmake, CUDA 13 with every architecture
of the default list, so every arch-gated source is built):
  - every target: -std=c++17 (torch's), -I csrc (define_extension_target),
    CUTLASS v4.4.2's include/ and tools/util/include (CUTLASS_REVISION; the
    build fetches it, we extract the same tag from the NVIDIA/cutlass
    mirror into <corpora>/cutlass-<commit12>/, outside the repository),
    -DENABLE_FP8 (get_torch_gpu_compiler_flags, CUDA >= 11.8),
    -DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL=1, -DTORCH_EXTENSION_NAME=<target>;
    torch's __CUDA_NO_HALF*__ defines are removed for CUDA >= 12.
  - _C (csrc/*, the rest): the VLLM_GPU_FLAGS as of define_extension_target(_C)
    (-DENABLE_ES_MXFP8_GROUPED_MM_SM100=1) plus its target definitions
    ENABLE_NVFP4_SM100=1, ENABLE_NVFP4_SM120=1.
  - _C_stable_libtorch (csrc/libtorch_stable/): all VLLM_GPU_FLAGS
    (ENABLE_SCALED_MM_*, ENABLE_CUTLASS_MOE_*, ENABLE_NVFP4_*,
    ENABLE_CUTLASS_MLA) plus TORCH_TARGET_VERSION and USE_CUDA; the MLA
    kernel also gets CUTLASS's examples/77_blackwell_fmha and examples/common.
  - _moe_C (csrc/moe/ but mxfp8_moe/, which CMake adds to _C): all
    VLLM_GPU_FLAGS.
  - csrc/rocm/*.cu and custom_quickreduce.cu are HIP-only (_rocm_C / a HIP
    branch of _C), custom_all_reduce_test.cu is a stand-alone MPI test that
    CMake never builds: analyzed with the _C flags like the rest, as a new
    user pointing the tool at csrc/ would.
PyTorch's headers are replaced by our own declarations (stubs/torch/).
"""

import os
import subprocess

from . import STUBS

CUTLASS_COMMIT = "da5e086dab31d63815acafdac9a9c5893b1c69e2"  # v4.4.2
CUTLASS_DIR = "../cutlass-%s" % CUTLASS_COMMIT[:12]  # relative to the root
CUTLASS_PATHS = ["include", "tools/util/include", "examples/77_blackwell_fmha",
                 "examples/common"]


def _vllm_files(paths, options=None):
    return sorted(p for p in paths
                  if p.startswith("csrc/") and p.endswith(".cu"))


_ALL_GPU_FLAGS = [
    "-DENABLE_FP8", "-DENABLE_ES_MXFP8_GROUPED_MM_SM100=1",
    "-DENABLE_SCALED_MM_SM90=1", "-DENABLE_SCALED_MM_SM120=1",
    "-DENABLE_SCALED_MM_SM100=1", "-DENABLE_SCALED_MM_C2X=1",
    "-DENABLE_CUTLASS_MOE_SM90=1", "-DENABLE_CUTLASS_MOE_SM100=1",
    "-DENABLE_NVFP4_SM120=1", "-DENABLE_CUTLASS_MOE_SM120=1",
    "-DENABLE_NVFP4_SM100=1", "-DENABLE_CUTLASS_MLA=1",
]


def _vllm_flags(path, root):
    flags = ["-std=c++17", "-I", "csrc", "-I", os.path.join(STUBS, "torch"),
             "-I", CUTLASS_DIR + "/include",
             "-I", CUTLASS_DIR + "/tools/util/include",
             "-DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL=1"]
    if path.startswith("csrc/libtorch_stable/"):
        flags += _ALL_GPU_FLAGS + [
            "-DTORCH_EXTENSION_NAME=_C_stable_libtorch",
            "-DTORCH_TARGET_VERSION=0x020A000000000000ULL", "-DUSE_CUDA"]
        if "attention/mla/" in path:
            flags += ["-I", CUTLASS_DIR + "/examples/77_blackwell_fmha",
                      "-I", CUTLASS_DIR + "/examples/common"]
    elif path.startswith("csrc/moe/") and not path.startswith(
            "csrc/moe/mxfp8_moe/"):
        flags += _ALL_GPU_FLAGS + ["-DTORCH_EXTENSION_NAME=_moe_C"]
    else:
        flags += ["-DENABLE_FP8", "-DENABLE_ES_MXFP8_GROUPED_MM_SM100=1",
                  "-DENABLE_NVFP4_SM100=1", "-DENABLE_NVFP4_SM120=1",
                  "-DTORCH_EXTENSION_NAME=_C"]
    return flags


def _vllm_prepare(root):
    """Extract CUTLASS v4.4.2's headers beside the corpus (not into it)."""
    dest = os.path.normpath(os.path.join(root, CUTLASS_DIR))
    if os.path.exists(os.path.join(dest, ".cuda-tidy-extracted")):
        return
    mirrors = os.environ.get("CUDA_TIDY_MIRRORS", "/work/.mirror")
    gitdir = os.path.join(mirrors, "NVIDIA+cutlass", "repo")
    tmp = dest + ".part"
    subprocess.run(["rm", "-rf", tmp], check=True)
    os.makedirs(tmp)
    archive = subprocess.Popen(["git", "--git-dir=" + gitdir, "archive",
                                CUTLASS_COMMIT] + CUTLASS_PATHS,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    subprocess.run(["tar", "-x", "-C", tmp], stdin=archive.stdout, check=True)
    archive.wait()
    if not os.path.isfile(os.path.join(tmp, "include", "cutlass", "cutlass.h")):
        raise SystemExit("vllm: cannot extract CUTLASS %s from %s"
                         % (CUTLASS_COMMIT, gitdir))
    with open(os.path.join(tmp, ".cuda-tidy-extracted"), "w") as f:
        f.write(CUTLASS_COMMIT + "\n")
    subprocess.run(["rm", "-rf", dest], check=True)
    os.rename(tmp, dest)


CORPUS = {
    "name": "vllm",
    "repo": "vllm-project/vllm",
    "mirror": "local-inference-lab+vllm",
    "commit": "9aaf83ef502fc37bc647f6e474314d48ba36cd1c",
    "files": _vllm_files,
    "flags": _vllm_flags,
    "prepare": _vllm_prepare,
}
