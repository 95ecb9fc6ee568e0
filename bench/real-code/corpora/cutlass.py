"""NVIDIA/cutlass: the .cu of the first 40 example folders that need no sm_100+ feature.

Files.  examples/CMakeLists.txt builds the folders of its foreach list,
each folder's CMakeLists.txt one executable per .cu it names.  Of those
folders, the ones for Blackwell (sm_100+ only features: 70_blackwell_* ..
95_*, 112_blackwell_ssd, the sm103 ones) are left out; of the rest, the
first 40 in C-locale order of their names (00_basic_gemm .. 10_planar_complex,
111_hopper_ssd, 11_planar_complex_array .. 38_syr2k_grouped) are the corpus,
and every examples/<folder>/*.cu that the folder's CMakeLists.txt builds:
58 files (13_two_tensor_op_fusion/fused_two_convs_s8_sm80_rf.cu is commented
out there, "fails to build").  113_hopper_gemm_activation_fusion is not in
examples/CMakeLists.txt's list and is not built.

Flags: what CMake gives a CUDA file of an example built with clang as the
CUDA compiler (CMakeLists.txt, examples/CMakeLists.txt's
cutlass_example_add_executable): -std=c++17 (CMAKE_CUDA_STANDARD 17),
include (CUTLASS), tools/util/include (cutlass_tools_util_includes),
examples/common (CUTLASS_EXAMPLES_COMMON_SOURCE_DIR) and the example's own
folder (13_two_tensor_op_fusion's include_directories(.); a quoted include
finds the others), tools/library/include for the two examples whose
CMakeLists link cutlass_lib (10_planar_complex, 11_planar_complex_array:
cutlass_library_includes of tools/library/CMakeLists.txt; they include
cutlass/library/handle.h), -DCUTLASS_TEST_LEVEL=0 (CUTLASS_CUDA_CLANG_FLAGS),
-DCUTLASS_ENABLE_TENSOR_CORE_MMA=1 and -DCUTLASS_ENABLE_GDC_FOR_SM100=1
(CUTLASS_CUDA_FLAGS, on by default), -D__CUDACC_VER_MAJOR__=13
-D__CUDACC_VER_MINOR__=0 and -D__NV_NO_HOST_COMPILER_CHECK=1 (CMakeLists.txt
gives clang these, with the toolkit's version, here 13.0: clang does not
predefine nvcc's version macros, and CUTLASS's arch/config.h enables its
SM90 paths only when __CUDACC_VER_MAJOR__ >= 12; the examples' main()s test
them too), --cuda-gpu-arch=sm_90a: the highest
non-Blackwell arch of the default CUTLASS_NVCC_ARCHS with CUDA 13 (the
SM75/SM80 paths are enabled there, and 111_hopper_ssd needs 90a).
-include stubs/cutlass/cuda_tidy_nvcc_atomics.h, our own: nvcc's
__nv_atomic_load_n builtin and its __NV_ATOMIC_* constants (declared in
crt/device_functions.h, which clang's CUDA wrapper replaces), which
include/cutlass/subbyte_reference.h uses with CUDA >= 12.8.
-DCUTLASS_VERSIONS_GENERATED is left out: it makes cutlass/version.h
include version_extended.h, which CMake generates, and it only sets
CUTLASS_BUILD and CUTLASS_REVISION, which the header otherwise defaults.

Include folders are absolute (root/...): realcode.py's --header-filter is
^<root>/, and cuda-tidy matches it against the name a header was found by,
so headers reached through a relative -I would be filtered out and
CUTLASS's findings, nearly all in its headers, lost.
"""

import os

STUBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stubs",
                     "cutlass")

CUTLASS_FOLDERS = 40
# Not built with a Blackwell-free arch list: sm_100+ only features.
SM100_ONLY = ("112_blackwell_ssd",)
# Not in examples/CMakeLists.txt's foreach list, so not built (only those
# that sort before the 40th eligible folder matter).
NOT_BUILT_FOLDERS = ("113_hopper_gemm_activation_fusion",)
NOT_BUILT_FILES = (
    "examples/13_two_tensor_op_fusion/fused_two_convs_s8_sm80_rf.cu",)


def _is_sm100_only(folder):
    name = folder.split("_", 1)[-1]
    return (folder in SM100_ONLY or name.startswith("blackwell")
            or name.startswith("sm10") or name.startswith("sm11")
            or name.startswith("sm12"))


def _cutlass_folders(paths):
    folders = sorted({p.split("/")[1] for p in paths
                      if p.startswith("examples/") and p.endswith(".cu")
                      and p.count("/") == 2})
    ok = [f for f in folders if f[:1].isdigit() and not _is_sm100_only(f)
          and f not in NOT_BUILT_FOLDERS]
    return ok[:CUTLASS_FOLDERS]


def _cutlass_files(paths, options=None):
    folders = set(_cutlass_folders(paths))
    return sorted(p for p in paths
                  if p.startswith("examples/") and p.endswith(".cu")
                  and p.count("/") == 2 and p.split("/")[1] in folders
                  and p not in NOT_BUILT_FILES)


# Examples whose CMakeLists link cutlass_lib (its include folder).
LIBRARY_FOLDERS = ("10_planar_complex", "11_planar_complex_array")


def _cutlass_flags(path, root):
    flags = ["-std=c++17", "--cuda-gpu-arch=sm_90a",
             "-DCUTLASS_TEST_LEVEL=0", "-DCUTLASS_ENABLE_TENSOR_CORE_MMA=1",
             "-DCUTLASS_ENABLE_GDC_FOR_SM100=1",
             "-D__CUDACC_VER_MAJOR__=13", "-D__CUDACC_VER_MINOR__=0",
             "-D__NV_NO_HOST_COMPILER_CHECK=1",
             "-include", os.path.join(STUBS, "cuda_tidy_nvcc_atomics.h")]
    dirs = ["include", "tools/util/include", "examples/common"]
    if path.split("/")[1] in LIBRARY_FOLDERS:
        dirs.append("tools/library/include")
    for d in dirs + [os.path.dirname(path)]:
        flags += ["-I", os.path.join(root, d)]
    return flags


CORPUS = {
    "name": "cutlass",
    "repo": "NVIDIA/cutlass",
    "mirror": "NVIDIA+cutlass",
    "commit": "7107b05535f8977f5ecb9d01ee203205b1fd9bc4",
    "files": _cutlass_files,
    "flags": _cutlass_flags,
}
