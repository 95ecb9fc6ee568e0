"""NVIDIA/cuda-samples: every .cu under Samples/, with the flags its CMakeLists give."""

import os
import re

SOURCE_EXTS = (".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".c", ".cc",
               ".cpp", ".cxx", ".inl", ".inc", ".def", ".tcc", ".ipp")


def _samples_files(paths, options=None):
    return sorted(p for p in paths
                  if p.startswith("Samples/") and p.endswith(".cu"))


_ANGLE_INCLUDE = re.compile(r'^\s*#\s*include\s*<([^>]+)>', re.M)


def _samples_flags(path, root):
    # -fgpu-rdc: the samples' CMakeLists set CUDA_SEPARABLE_COMPILATION ON
    # (the cdp* samples launch kernels from the device and need it).
    # -I Common for the helpers; the sample's own folder only where one of
    # its files includes a header of that folder with <...> (smokeParticles):
    # the same flags everywhere else let the samples share preambles.
    flags = ["-fgpu-rdc", "-I", "Common"]
    d = os.path.dirname(path)
    full = os.path.join(root, d)
    # A sample with src/ and inc/ folders (FDTD3d) keeps its headers in inc/.
    inc = os.path.join(os.path.dirname(d), "inc")
    if os.path.basename(d) == "src" and os.path.isdir(os.path.join(root, inc)):
        flags += ["-I", inc]
    for name in sorted(os.listdir(full)):
        if not name.lower().endswith(SOURCE_EXTS):
            continue
        try:
            with open(os.path.join(full, name), errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        if any(os.path.isfile(os.path.join(full, h))
               for h in _ANGLE_INCLUDE.findall(text)):
            return flags + ["-I", d]
    return flags


CORPUS = {
    "name": "cuda-samples",
    "repo": "NVIDIA/cuda-samples",
    "mirror": "NVIDIA+cuda-samples",
    "commit": "c94ff366aed18c797b8a85dfaac7817b0228b420",
    "files": _samples_files,
    "flags": _samples_flags,
}
