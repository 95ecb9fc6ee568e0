"""facebookresearch/faiss: the .cu of faiss/gpu/ that its default CMake build compiles.

Files: the CUDA sources of FAISS_GPU_SRC in faiss/gpu/CMakeLists.txt with its
defaults (FAISS_ENABLE_GPU=ON, FAISS_ENABLE_CUVS=OFF, FAISS_ENABLE_ROCM=OFF):
the top level (GpuDistance.cu, GpuIndex*.cu), impl/*.cu and utils/*.cu with
the per-k instantiation files utils/blockselect/*.cu and utils/warpselect/*.cu.
Left out: the cuVS-only sources (GpuIndexCagra.cu, GpuIndexBinaryCagra.cu,
impl/*Cuvs*.cu, utils/Cuvs*.cu: they need cuVS/RAFT headers, and the default
build does not compile them), test/ and perf/.

The IVF interleaved scan kernel (impl/IVFInterleaved.cuh) is launched only
from impl/scan/IVFInterleavedScanKernelTemplate.cu, whose placeholders
(SUB_CODEC_TYPE, SUB_METRIC_TYPE, SUB_THREADS, SUB_NUM_WARP_Q,
SUB_NUM_THREAD_Q) CMake's generate_ivf_interleaved_code() replaces to write
one .cu per (codec, metric, threads|warpQ|threadQ).  The placeholders are
whole identifiers, so `prepare` writes our own small files under
.cuda-tidy-gen/faiss/ that #define them and #include the template: the same
translation unit CMake generates.  GEN_CONFIGS below picks which of its 128
(8 codecs x 2 metrics x 8 shapes) are run: every codec and every block shape
at least once (L2 and IP alternate).

Flags (faiss/gpu/CMakeLists.txt): the repository root on the include path
(target_include_directories ${PROJECT_SOURCE_DIR}, sources include
<faiss/gpu/...>), -std=c++17 (CMAKE_CUDA_STANDARD is unset, so nvcc's
default; CMAKE_CXX_STANDARD 20 is for the host-only .cpp), no -D (the
default build defines nothing for the CUDA objects; USE_NVIDIA_CUVS and
USE_AMD_ROCM belong to the options left off). --expt-extended-lambda and
--expt-relaxed-constexpr have no clang equivalent to pass.  The root is
passed as an absolute -I (see _faiss_flags).
"""

import os

GEN_DIR = ".cuda-tidy-gen/faiss"
TEMPLATE = "faiss/gpu/impl/scan/IVFInterleavedScanKernelTemplate.cu"

# Left out of the default build (FAISS_ENABLE_CUVS=OFF).
CUVS_ONLY = ("faiss/gpu/GpuIndexCagra.cu", "faiss/gpu/GpuIndexBinaryCagra.cu")

CODECS = [
    "faiss::gpu::Codec<0, 1>", "faiss::gpu::Codec<1, 1>",
    "faiss::gpu::Codec<2, 1>", "faiss::gpu::Codec<3, 1>",
    "faiss::gpu::Codec<4, 1>", "faiss::gpu::Codec<5, 1>",
    "faiss::gpu::Codec<6, 1>", "faiss::gpu::CodecFloat",
]
METRICS = ["faiss::gpu::L2Distance", "faiss::gpu::IPDistance"]
# THREADS_AND_WARPS of faiss/gpu/CMakeLists.txt.
SHAPES = [(128, 1024, 8), (128, 1, 1), (128, 128, 3), (128, 256, 4),
          (128, 32, 2), (128, 512, 8), (128, 64, 3), (64, 2048, 8)]
# (codec, metric, shape) indices: codec i with shape i, metrics alternating.
GEN_CONFIGS = [(i, i % 2, i) for i in range(8)]


def _gen_name(ci, mi, si):
    codec = CODECS[ci].split("::")[-1]
    codec = "".join(ch for ch in codec if ch.isalnum())
    metric = METRICS[mi].split("::")[-1]
    t, w, q = SHAPES[si]
    return "%s/ivfint_%s_%s_%d_%d_%d.cu" % (GEN_DIR, codec, metric, t, w, q)


def _faiss_prepare(root):
    d = os.path.join(root, GEN_DIR)
    os.makedirs(d, exist_ok=True)
    for ci, mi, si in GEN_CONFIGS:
        t, w, q = SHAPES[si]
        text = "\n".join([
            "// Written by cuda-tidy's bench/real-code/corpora/faiss.py: one",
            "// of the files faiss/gpu/CMakeLists.txt generates from the",
            "// template (generate_ivf_interleaved_code).",
            "#define SUB_CODEC_TYPE %s" % CODECS[ci],
            "#define SUB_METRIC_TYPE %s" % METRICS[mi],
            "#define SUB_THREADS %d" % t,
            "#define SUB_NUM_WARP_Q %d" % w,
            "#define SUB_NUM_THREAD_Q %d" % q,
            "#include <%s>" % TEMPLATE, ""])
        path = os.path.join(root, _gen_name(ci, mi, si))
        with open(path, "w") as f:
            f.write(text)


def _faiss_files(paths, options=None):
    out = []
    for p in paths:
        if not p.startswith("faiss/gpu/") or not p.endswith(".cu"):
            continue
        if p.startswith(("faiss/gpu/test/", "faiss/gpu/perf/")):
            continue
        if p == TEMPLATE or p in CUVS_ONLY or "Cuvs" in os.path.basename(p):
            continue
        out.append(p)
    out += [_gen_name(*c) for c in GEN_CONFIGS]
    return sorted(out)


# The -I folders are passed as absolute paths under the corpus root: the
# harness's --header-filter is ^<root>/, and cuda-tidy matches it against a
# header's path as clang spells it, which is relative when the header was
# found through a relative -I (its findings would be dropped).
def _faiss_flags(path, root):
    return ["-std=c++17", "-I", root]


CORPUS = {
    "name": "faiss",
    "repo": "facebookresearch/faiss",
    "mirror": "facebookresearch+faiss",
    "commit": "02dbb4e42f49aa2ce57cd78977b0e47a11f7cb91",
    "files": _faiss_files,
    "flags": _faiss_flags,
    "prepare": _faiss_prepare,
}
