"""pytorch/FBGEMM: the hand-written CUDA of fbgemm_gpu/src and fbgemm_gpu/experimental.

Files (what CMake builds, no generated code):
  - every .cu under fbgemm_gpu/src/ (FbgemmGpu.cmake, TbeTraining.cmake, ...;
    the TBE kernels CMake generates from codegen/ Jinja templates are not in
    the tree and are not analyzed);
  - fbgemm_gpu/experimental/example/src/*.cu;
  - fbgemm_gpu/experimental/gen_ai/src/ (its CMakeLists globs):
    attention/cuda/*.cu, attention/cuda/cutlass_blackwell_fmha/blackwell_*.cu,
    comm/, gather_scatter/, kv_cache/, moe/, quantize/*.cu,
    quantize/fast_gemv/, quantize/cutlass_extensions/*.cu and, of each
    cutlass_extensions/<op>/ folder, its first instantiation file only.  The
    ~240 others instantiate the same <op>_common.cuh with other CUTLASS tile
    parameters (no kernel or launch of their own; a finding in the common
    header is keyed once anyway), and each one costs a full CUTLASS parse.
    Not built by the library and not analyzed: the vendored CUTLASS example
    programs cutlass_blackwell_fmha/77_*.cu and gen_example.cu (third-party
    code, built by a side CMakeLists), fast_gemv/include/fast_gemv.cu
    (included by the fast_gemv .cu files), test/ and bench/.

Flags (fbgemm_gpu/CMakeLists.txt, cmake/modules/*.cmake,
experimental/gen_ai/CMakeLists.txt): -std=c++20 (CxxCompilerSetup.cmake),
TORCH_CUDA_OPTIONS' -D__CUDA_NO_HALF_OPERATORS__
-D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__
(PyTorchSetup.cmake) for fbgemm_gpu/src only (the gen_ai and example
libraries pass no NVCC_FLAGS), the first-party includes include/, fbgemm_gpu/,
fbgemm_gpu/include, gen_ai's src/quantize, src/quantize/include,
src/quantize/common/include, src/kv_cache and the vendored
cutlass_blackwell_fmha folder, and the third-party CUTLASS include/ and
tools/util/include.  FBGEMM pins CUTLASS to a private fork commit
(external/cutlass -> jwfromm/cutlass 571edeb2) that no mirror holds: we use
NVIDIA CUTLASS v4.4.2, extracted as for vllm.  PyTorch's headers are
replaced by our own declarations (stubs/torch/).
"""

import os

from . import STUBS
from .vllm import CUTLASS_DIR, _vllm_prepare

GEN_AI = "fbgemm_gpu/experimental/gen_ai/src/"
CUTLASS_EXT = GEN_AI + "quantize/cutlass_extensions/"


def _fbgemm_files(paths, options=None):
    out = []
    first_instance = {}
    for p in sorted(paths):
        if not p.endswith(".cu"):
            continue
        if p.startswith("fbgemm_gpu/src/"):
            out.append(p)
        elif p.startswith("fbgemm_gpu/experimental/example/src/"):
            out.append(p)
        elif p.startswith(GEN_AI):
            rest = p[len(GEN_AI):]
            parts = rest.split("/")
            if rest.startswith("quantize/cutlass_extensions/"):
                if len(parts) == 3:
                    out.append(p)
                elif len(parts) == 4 and parts[2] not in first_instance:
                    first_instance[parts[2]] = p
                    out.append(p)
            elif rest.startswith("attention/cuda/cutlass_blackwell_fmha/"):
                if parts[-1].startswith("blackwell_"):
                    out.append(p)
            elif rest.startswith("quantize/fast_gemv/"):
                if len(parts) == 3:
                    out.append(p)
            elif len(parts) == 2 and parts[0] in (
                    "comm", "gather_scatter", "kv_cache", "moe", "quantize",
                    "coalesce"):
                out.append(p)
            elif len(parts) == 3 and parts[:2] == ["attention", "cuda"]:
                out.append(p)
    return sorted(out)


TORCH_CUDA_OPTIONS = ["-D__CUDA_NO_HALF_OPERATORS__",
                      "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
                      "-D__CUDA_NO_HALF2_OPERATORS__"]


def _fbgemm_flags(path, root):
    flags = ["-std=c++20"]
    if path.startswith("fbgemm_gpu/src/"):
        # Only the fbgemm_gpu/src targets pass NVCC_FLAGS ${TORCH_CUDA_OPTIONS}
        # (FbgemmGpu.cmake, TbeTraining.cmake, TbeInference.cmake); the
        # experimental gen_ai and example libraries pass none.
        flags += TORCH_CUDA_OPTIONS
    flags += ["-I", "include", "-I", "fbgemm_gpu", "-I", "fbgemm_gpu/include"]
    if path.startswith(GEN_AI):
        flags += ["-I", GEN_AI + "quantize",
                  "-I", GEN_AI + "quantize/include",
                  "-I", GEN_AI + "quantize/common/include",
                  "-I", GEN_AI + "kv_cache"]
    flags += ["-I", os.path.join(STUBS, "torch"),
              "-I", CUTLASS_DIR + "/include",
              "-I", CUTLASS_DIR + "/tools/util/include"]
    if path.startswith(GEN_AI):
        flags += ["-I", GEN_AI + "attention/cuda/cutlass_blackwell_fmha"]
    return flags


CORPUS = {
    "name": "fbgemm",
    "repo": "pytorch/FBGEMM",
    "mirror": "pytorch+FBGEMM",
    "commit": "71d6f8b229d964e61cac24df9bbd2ffcc4b4d378",
    "files": _fbgemm_files,
    "flags": _fbgemm_flags,
    "prepare": _vllm_prepare,
}
