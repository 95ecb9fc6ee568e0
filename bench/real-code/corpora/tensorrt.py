"""NVIDIA/TensorRT: every CUDA source of the open-source plugin library (plugin/**/*.cu).

Files: every plugin/**/*.cu of the pinned commit, in C-locale order of their
paths (47 files).  plugin/CMakeLists.txt adds the plugin folders of
TRT_PLUGIN_NAMES (with the BERT ones, TRT_BUILD_INCLUDE_BERT_QKV_PLUGIN=ON by
default) plus common/ and its kernels/ to one object library, trt_plugins;
every .cu of the tree belongs to one of those folders.  None is left out: the
headers they include are the repository's own (include/NvInfer*.h,
plugin/common/..., third_party/ieee/half.h) or the CUDA toolkit's (CCCL's
cub/thrust/cuda::std, which stand in for the third_party/cub submodule that
the snapshot does not hold, cuBLAS, cuDNN headers).  Two files keep
nvcc-only spellings that clang rejects, so their kernels are reported as not
analyzed rather than left out: bertQKVToContextPlugin/mhaRunner.cu (a
__shared__ union whose user-declared constructor is host-only, :55/:137)
and instanceNormalizationPlugin/instanceNormFwdImpl.cu (a call of the
member template ParallelSums<...>::dispatch<N> in a dependent context
without the `template` keyword, :313).  No flag changes either.

Flags: what CMake gives a CUDA object of trt_plugins (CMakeLists.txt,
plugin/CMakeLists.txt):
  -I include      TRT_INCLUDE_DIR, the in-repo headers when no installed
                  TensorRT package is found (the INTERFACE include of the
                  nvinfer target, tensorrt being linked COMPILE_ONLY);
  -I third_party  TRT_EXTERNALS_DIR (trt_plugin_include_dirs);
  -I plugin       CMAKE_CURRENT_LIST_DIR of plugin/CMakeLists.txt (sources
                  include "common/...", "efficientNMSPlugin/...");
  -DENABLE_SM<n>  one per CMAKE_CUDA_ARCHITECTURES entry: the default list
                  75 80 86 89 90 100 120, with 110 appended for a CUDA >= 13
                  toolkit (the one here is 13.0);
  -std=c++17      CMAKE_CUDA_STANDARD is unset, so nvcc's default
                  (CMAKE_CXX_STANDARD 20 is for the host .cpp files);
  --cuda-gpu-arch=sm_90, one arch of the default list.
--expt-relaxed-constexpr has no clang equivalent to pass.  -DBUILD_SYSTEM=
cmake_oss goes to CMAKE_CXX_FLAGS only, not to CUDA objects; TENSORRT_BUILD_LIB
only on Windows.

Include folders are absolute (root/...): realcode.py keeps a header's
findings only when the header's path is under the corpus root, and clang
spells a header found through a relative -I relatively.
"""

import os

# CMAKE_CUDA_ARCHITECTURES' default (CMakeLists.txt), 110 added for CUDA 13.
ARCHS = (75, 80, 86, 89, 90, 100, 110, 120)
INCLUDE_DIRS = ("include", "third_party", "plugin")


def _tensorrt_files(paths, options=None):
    return sorted((p for p in paths
                   if p.startswith("plugin/") and p.endswith(".cu")),
                  key=lambda p: p.encode("utf-8"))


def _tensorrt_flags(path, root):
    flags = ["-std=c++17", "--cuda-gpu-arch=sm_90"]
    flags += ["-DENABLE_SM%d" % sm for sm in ARCHS]
    for d in INCLUDE_DIRS:
        flags += ["-I", os.path.join(root, d)]
    return flags


CORPUS = {
    "name": "tensorrt",
    "repo": "NVIDIA/TensorRT",
    "mirror": "NVIDIA+TensorRT",
    "commit": "a892d22267d9cd2dedc1a0893e6892ac901f6d3d",
    "files": _tensorrt_files,
    "flags": _tensorrt_flags,
}
