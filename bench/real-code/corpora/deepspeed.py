"""microsoft/DeepSpeed: every .cu its op_builder builds for CUDA.

Files (op_builder/*.py, each builder's sources(); 44 of the 46 .cu in the
tree):
  - csrc/ (32): transformer/ (TransformerBuilder), transformer/inference/csrc/
    (InferenceBuilder), quantization/ (QuantizerBuilder), fp_quantizer/
    (FPQuantizerBuilder), lamb/ (FusedLambBuilder), adam/ (FusedAdamBuilder),
    lion/ (FusedLionBuilder), random_ltd/ (RandomLTDBuilder), spatial/csrc/
    (SpatialInferenceBuilder), deepspeed4science/evoformer_attn/
    (EvoformerAttnBuilder, on CUTLASS);
  - deepspeed/inference/v2/ (12): kernels/core_ops/ (InferenceCoreBuilder),
    kernels/ragged_ops/ (RaggedOpsBuilder), ragged/csrc/ (RaggedUtilsBuilder).
  Left out: kernels/cutlass_ops/{mixed_gemm,moe_gemm}.cu (InferenceCutlassBuilder):
  they include the headers of the separate deepspeed-kernels package
  (dskernels), which the repository does not hold.  No .cu is generated or
  HIP-only (ROCm builds hipify the same files).

Flags: what CUDAOpBuilder.nvcc_args() and the builder's include_paths()
give in JIT mode (the default for `pip install deepspeed`: ops are built at
first use for the visible card, here a Hopper card, sm_90):
  - -std=c++17 (CUDA 13: the builder's c++20 is only for CUDA 12.5-12.x);
  - -DBF16_AVAILABLE (no compute capability <= 7 in the list);
  - torch's -D__CUDA_NO_HALF*__ / __CUDA_NO_BFLOAT16*__ are undone by the
    builder's -U of each, so neither is passed;
  - FusedAdam/FusedLamb/FusedLion: their own nvcc_args (no -std: torch's
    c++17) plus version_dependent_macros -DVERSION_GE_1_1 -DVERSION_GE_1_3
    -DVERSION_GE_1_5;
  - EvoformerAttn: -DGPU_ARCH=90 (the card's) and CUTLASS's include/ and
    tools/util/include (CUTLASS_PATH; we use NVIDIA CUTLASS v4.4.2,
    extracted beside the corpus as for vllm);
  - include folders per builder, as include_paths() lists them.
--use_fast_math, -O3, -lineinfo and the -gencode flags change no parse and
are not passed.  PyTorch's headers are replaced by our own declarations
(stubs/torch/); csrc/lamb needed four more of them (ATen/cuda/detail/
IndexUtils.cuh's canUse32BitIndexMath, AT_ASSERTM, and the deprecated
Tensor::type() and Tensor::data<T>()).

Two files do not compile under clang, for reasons of the project's code
(nvcc's front end accepts both): evoformer_attn/attention_cu.cu
(kernel_forward.h:566 names the dependent type MM1::LayoutB without
`typename`) and attention_back.cu (kernel_backward.h:1781 calls the
dependent member template MatmulQK::Mma::prologue<...> without `template`).
Their findings still count, as for any file with errors.
"""

import os

from . import STUBS
from .vllm import CUTLASS_DIR, _vllm_prepare

V2 = "deepspeed/inference/v2/"

_RAGGED_OPS_INCLUDES = [
    V2 + "kernels/includes",
    V2 + "kernels/ragged_ops",
    V2 + "kernels/ragged_ops/atom_builder",
    V2 + "kernels/ragged_ops/blocked_flash",
    V2 + "kernels/ragged_ops/embed",
    V2 + "kernels/ragged_ops/includes",
    V2 + "kernels/ragged_ops/linear_blocked_kv_rotary",
    V2 + "kernels/ragged_ops/logits_gather",
    V2 + "kernels/ragged_ops/moe_gather",
    V2 + "kernels/ragged_ops/moe_scatter",
    V2 + "kernels/ragged_ops/ragged_helpers",
    V2 + "kernels/ragged_ops/top_k_gating",
]

_CORE_OPS_INCLUDES = [
    V2 + "kernels/core_ops/bias_activations",
    V2 + "kernels/core_ops/blas_kernels",
    V2 + "kernels/core_ops/cuda_layer_norm",
    V2 + "kernels/core_ops/cuda_rms_norm",
    V2 + "kernels/core_ops/gated_activations",
    V2 + "kernels/core_ops/cuda_linear",
    V2 + "kernels/includes",
]

# (path prefix, include_paths(), extra defines, own nvcc_args without -std)
_BUILDERS = [
    ("csrc/adam/", ["csrc/includes", "csrc/adam"], [], True),
    ("csrc/lamb/", ["csrc/includes"], [], True),
    ("csrc/lion/", ["csrc/includes", "csrc/lion"], [], True),
    ("csrc/quantization/", ["csrc/includes"], [], False),
    ("csrc/fp_quantizer/", ["csrc/fp_quantizer/includes", "csrc/includes"],
     [], False),
    ("csrc/random_ltd/", ["csrc/includes"], [], False),
    ("csrc/spatial/", ["csrc/spatial/includes", "csrc/includes"], [], False),
    ("csrc/transformer/inference/",
     ["csrc/transformer/inference/includes", "csrc/includes"], [], False),
    ("csrc/transformer/", ["csrc/includes"], [], False),
    ("csrc/deepspeed4science/evoformer_attn/",
     [CUTLASS_DIR + "/include", CUTLASS_DIR + "/tools/util/include"],
     ["-DGPU_ARCH=90"], False),
    (V2 + "kernels/core_ops/", _CORE_OPS_INCLUDES, [], False),
    (V2 + "kernels/ragged_ops/", _RAGGED_OPS_INCLUDES, [], False),
    (V2 + "ragged/csrc/",
     [V2 + "ragged/includes", V2 + "kernels/includes"], [], False),
]


def _builder(path):
    for entry in _BUILDERS:
        if path.startswith(entry[0]):
            return entry
    return None


def _deepspeed_files(paths, options=None):
    return sorted(p for p in paths
                  if p.endswith(".cu") and _builder(p) is not None)


def _deepspeed_flags(path, root):
    _, includes, defines, own_args = _builder(path)
    flags = ["-std=c++17"]
    if own_args:
        flags += ["-DVERSION_GE_1_1", "-DVERSION_GE_1_3", "-DVERSION_GE_1_5"]
    flags += ["-DBF16_AVAILABLE"] + defines
    for inc in includes:
        flags += ["-I", inc]
    flags += ["-I", os.path.join(STUBS, "torch")]
    return flags


CORPUS = {
    "name": "deepspeed",
    "repo": "microsoft/DeepSpeed",
    "mirror": "microsoft+DeepSpeed",
    "commit": "38327e07f6cd39b63418f60cedd1651b0be3e7c3",
    "files": _deepspeed_files,
    "flags": _deepspeed_flags,
    "prepare": _vllm_prepare,
}
