#!/usr/bin/env python3
"""End-to-end test of the nvcc -> clang translation (tool/compdb).

Generates a small CMake CUDA project, configures it with the Ninja and the
"Unix Makefiles" generators (configure only: nothing is built), and for every
entry of each compile_commands.json:

  1. checks that nvcc itself accepts the command (`<command> -dryrun`), so the
     inputs are real nvcc lines, and that clang rejects it as it is (the
     problem being solved);
  2. translates it with nvcc_translate_driver and checks the facts the
     translation must carry (architectures, -fgpu-rdc, macros, include
     folders from the Makefiles generator's --options-file, dropped flags);
  3. parses the file with clang (`-fsyntax-only`, device side and host side)
     using the translated arguments and asserts success with no warning at
     all. The sources hold #error guards that fire when a translated fact is
     wrong (wrong __CUDA_ARCH__, missing -fgpu-rdc, lost macros).

Exit status: 0 pass, 1 fail, 77 skipped (no nvcc, or no generator usable).
"""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys

SKIP = 77

CMAKE_LISTS = r"""
cmake_minimum_required(VERSION 3.25)
project(compdb_e2e LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 90)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)

# A relocatable-device-code library with extended lambdas, host warnings and
# an include folder whose name holds a blank.
add_library(kern STATIC src/a.cu src/b.cu)
set_target_properties(kern PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
target_include_directories(kern PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/include dir")
target_compile_definitions(kern PUBLIC GREETING="hello world" KERN_LEVEL=2)
target_compile_options(kern PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda -Xcompiler=-Wall
                             --expt-relaxed-constexpr -lineinfo>)

# A multi-arch executable with the nvcc flags clang misreads or rejects.
add_executable(app src/main.cu src/host.cpp)
target_link_libraries(app PRIVATE kern)
set_target_properties(app PROPERTIES CUDA_ARCHITECTURES "80;90-real;90-virtual")
target_compile_options(app PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:-G --use_fast_math -maxrregcount=64 -Xptxas=-v
    "SHELL:--default-stream per-thread" "SHELL:-Xcudafe --display_error_number"
    "SHELL:--threads 2" --diag-suppress=177 -Wno-deprecated-gpu-targets
    -res-usage "SHELL:-Werror all-warnings"
    -Xcompiler=-Wextra,-fno-strict-aliasing>)
"""

KERN_H = r"""
#pragma once
#ifndef KERN_LEVEL
#error "KERN_LEVEL missing: the library's compile definitions were lost"
#endif
static_assert(sizeof(GREETING) == sizeof("hello world"),
              "GREETING must be the string literal \"hello world\"");
__device__ int kern_level();
void launch_all(int *data, int n);
"""

A_CU = r"""
#include "kern.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#if defined(__clang__) && defined(__CUDA__) && !defined(__CLANG_RDC__)
#error "kern is CUDA_SEPARABLE_COMPILATION: clang must get -fgpu-rdc"
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 900
#error "kern is built for sm_90 only"
#endif

// Defined here, called from b.cu: needs relocatable device code.
__device__ int kern_level() { return KERN_LEVEL; }

__global__ void scale(int *data, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= kern_level();
  block.sync();
}
"""

B_CU = r"""
#include "kern.h"

#if defined(__clang__) && defined(__CUDA__) && !defined(__CLANG_RDC__)
#error "kern is CUDA_SEPARABLE_COMPILATION: clang must get -fgpu-rdc"
#endif

// A host constexpr function called from device code (nvcc needs
// --expt-relaxed-constexpr for that).
constexpr int twice(int x) { return 2 * x; }

template <typename F> __global__ void apply(int *data, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = f(data[i]) + kern_level();
}

void launch_all(int *data, int n) {
  // An extended __device__ lambda (nvcc needs --extended-lambda).
  auto add = [] __device__(int v) { return v + twice(1); };
  apply<<<(n + 127) / 128, 128>>>(data, n, add);
}
"""

MAIN_CU = r"""
#include "kern.h"
#include <cuda_runtime.h>

#if defined(__clang__) && !defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "--default-stream per-thread must reach clang"
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 800 && __CUDA_ARCH__ != 900
#error "app is built for sm_80 and sm_90"
#endif
#if defined(__clang__) && defined(__CUDA__) && defined(__CLANG_RDC__)
#error "app is not relocatable device code"
#endif

int host_helper(int);

__global__ void fill(int *p, int n) {
  int i = threadIdx.x;
  if (i < n)
    p[i] = __sinf(static_cast<float>(i)) > 0.0f ? 1 : 0;
}

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  fill<<<1, 32>>>(d, 32);
  launch_all(d, 32);
  cudaFree(d);
  return host_helper(0);
}
"""

HOST_CPP = r"""
int host_helper(int x) { return x; }
"""

FILES = {
    "CMakeLists.txt": CMAKE_LISTS,
    "include dir/kern.h": KERN_H,
    "src/a.cu": A_CU,
    "src/b.cu": B_CU,
    "src/main.cu": MAIN_CU,
    "src/host.cpp": HOST_CPP,
}

# Flags that must not survive translation (as whole arguments).
FORBIDDEN = {
    "-forward-unknown-to-host-compiler", "--extended-lambda",
    "--expt-relaxed-constexpr", "-lineinfo", "-G", "--use_fast_math",
    "-maxrregcount=64", "-Xptxas=-v", "--default-stream", "-Xcudafe",
    "--display_error_number", "--threads", "--diag-suppress=177",
    "-Wno-deprecated-gpu-targets", "-res-usage", "-Werror", "all-warnings",
    "--options-file", "-rdc=true", "-ffast-math",
}

# The only diagnostic a -fsyntax-only run of a compile command may print:
# clang reports -c as unused when it only parses.
ALLOWED_DIAGNOSTICS = (
    "argument unused during compilation: '-c'",
)


class Failure(Exception):
    pass


def check(cond, message):
    if not cond:
        raise Failure(message)


def run(cmd, cwd=None, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)


def entry_args(entry):
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def write_project(root):
    for rel, text in FILES.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text.lstrip("\n"))


def configure(args, src, build, generator):
    env = dict(os.environ)
    for var in ("CMAKE_GENERATOR", "CMAKE_CUDA_COMPILER_LAUNCHER",
                "CMAKE_CXX_COMPILER_LAUNCHER", "CMAKE_EXPORT_COMPILE_COMMANDS",
                "CUDAFLAGS", "CXXFLAGS", "CUDAHOSTCXX"):
        env.pop(var, None)
    cmd = [args.cmake, "-S", src, "-B", build, "-G", generator,
           "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
           "-DCMAKE_CUDA_COMPILER=" + args.nvcc]
    if generator == "Ninja":
        cmd.append("-DCMAKE_MAKE_PROGRAM=" + args.ninja)
    r = run(cmd, env=env)
    check(r.returncode == 0,
          "cmake -G '%s' failed:\n%s%s" % (generator, r.stdout, r.stderr))
    with open(os.path.join(build, "compile_commands.json")) as f:
        return json.load(f)


def translate(args, nvcc_args, directory):
    r = run([args.driver, "--directory", directory, "--clang", args.clang,
             "--"] + nvcc_args)
    check(r.returncode in (0, 1, 3),
          "nvcc_translate_driver failed (%d): %s" % (r.returncode, r.stderr))
    return json.loads(r.stdout)


def clang_diagnostics(stderr):
    """The warning/error lines of a clang run, minus the allowed ones."""
    bad = []
    for line in stderr.splitlines():
        if ("warning:" in line or "error:" in line) and \
                not any(a in line for a in ALLOWED_DIAGNOSTICS):
            bad.append(line)
    return bad


def check_entry(args, generator, entry, src_root, counts):
    directory = entry["directory"]
    name = os.path.basename(entry["file"])
    where = "[%s] %s" % (generator, name)
    argv = entry_args(entry)
    t = translate(args, argv, directory)

    if name.endswith(".cpp"):
        # Compiled by the C++ compiler: must not be taken for nvcc.
        check(not t["is_nvcc"], where + ": a C++ compiler line taken for nvcc")
        counts["non_nvcc"] += 1
        return

    check(t["is_nvcc"], where + ": not recognised as nvcc: %s" % argv)
    check(t["errors"] == [], where + ": translation errors %s" % t["errors"])
    check(t["is_cuda"], where + ": not CUDA")
    if generator == "Unix Makefiles":
        check("--options-file" in argv,
              where + ": expected the Makefiles generator's --options-file")

    # The input is a real nvcc command: nvcc accepts it.
    r = run(argv + ["-dryrun"], cwd=directory)
    check(r.returncode == 0,
          where + ": nvcc -dryrun rejects the command: " + r.stderr[-2000:])

    # ...which clang rejects as it is.
    raw = run([args.clang] + argv[1:] + ["-fsyntax-only"], cwd=directory)
    check(raw.returncode != 0,
          where + ": clang accepted the untranslated nvcc line")
    counts["raw_clang_errors"] += raw.stderr.count("error:")

    out = t["arguments"]
    check(out[0] == args.clang, where + ": driver not first: %s" % out[:2])
    leaked = sorted(FORBIDDEN.intersection(out))
    check(not leaked, where + ": nvcc flags left: %s" % leaked)
    check(not any(a.startswith("--generate-code") or a.startswith("-gencode")
                  for a in out), where + ": -gencode left")
    for i, a in enumerate(out[:-1]):
        check(not (a == "-x" and out[i + 1] == "cu"), where + ": -x cu left")
    check(["-x", "cuda"] == out[1:3] or ["-x", "cuda"] == out[2:4],
          where + ": -x cuda not up front: %s" % out[:4])
    check(entry["file"] in out, where + ": source file lost")
    check("-o" in out, where + ": -o lost")
    check("-I" + os.path.join(src_root, "include dir") in out,
          where + ": the include folder (with its blank) is missing")
    check("-DKERN_LEVEL=2" in out, where + ": -DKERN_LEVEL=2 missing")
    check(t["cuda_path"] == os.path.dirname(os.path.dirname(args.nvcc)),
          where + ": CUDA path %r not the nvcc's toolkit" % t["cuda_path"])

    if name in ("a.cu", "b.cu"):
        check(t["gpu_archs"] == ["sm_90"], where + ": archs %s" % t["gpu_archs"])
        check(t["rdc"] and "-fgpu-rdc" in out, where + ": -fgpu-rdc missing")
        check("-Wall" in out, where + ": -Xcompiler=-Wall not translated")
    else:
        check(t["gpu_archs"] == ["sm_80", "sm_90"],
              where + ": archs %s" % t["gpu_archs"])
        check(t["highest_arch"] == "sm_90", where + ": highest arch")
        check(not t["rdc"] and "-fgpu-rdc" not in out, where + ": rdc set")
        for flag in ("-DCUDA_API_PER_THREAD_DEFAULT_STREAM",
                     "-fgpu-approx-transcendentals", "-Wextra",
                     "-fno-strict-aliasing"):
            check(flag in out, where + ": %s missing" % flag)
    dropped = ("-lineinfo", "--extended-lambda") if name != "main.cu" else \
        ("-G", "-res-usage", "--threads 2", "-Werror all-warnings")
    for flag in dropped:
        check(any(("dropped '%s'" % flag) in n for n in t["notes"]),
              where + ": no note for %s: %s" % (flag, t["notes"]))

    # clang parses the file with the translated command, on both sides.
    for side in ("--cuda-device-only", "--cuda-host-only"):
        cmd = out + ["-fsyntax-only", side, "-Wno-unknown-cuda-version"]
        r = run(cmd, cwd=directory)
        bad = clang_diagnostics(r.stderr)
        check(r.returncode == 0 and not bad,
              "%s %s: clang failed (%d):\n  %s\n%s" %
              (where, side, r.returncode, " ".join(shlex.quote(a) for a in cmd),
               r.stderr[-4000:]))
        counts["clang_parses"] += 1
    counts["nvcc"] += 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--driver", required=True)
    p.add_argument("--clang", required=True)
    p.add_argument("--cmake", default="cmake")
    p.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    p.add_argument("--ninja", default="")
    p.add_argument("--work-dir", required=True)
    args = p.parse_args()

    if not (os.path.isfile(args.nvcc) and os.access(args.nvcc, os.X_OK)):
        print("SKIP: no nvcc at %s" % args.nvcc)
        return SKIP
    generators = []
    if args.ninja and os.access(args.ninja, os.X_OK):
        generators.append("Ninja")
    else:
        print("note: ninja not found, Ninja generator skipped")
    if shutil.which("make"):
        generators.append("Unix Makefiles")
    else:
        print("note: make not found, Makefiles generator skipped")
    if not generators:
        print("SKIP: neither ninja nor make available")
        return SKIP

    if os.path.isdir(args.work_dir):
        shutil.rmtree(args.work_dir)
    src = os.path.join(args.work_dir, "project")
    write_project(src)

    counts = {"nvcc": 0, "non_nvcc": 0, "clang_parses": 0,
              "raw_clang_errors": 0}
    try:
        for generator in generators:
            build = os.path.join(args.work_dir,
                                 "build-" + generator.split()[-1].lower())
            entries = configure(args, src, build, generator)
            names = sorted(os.path.basename(e["file"]) for e in entries)
            check(names == ["a.cu", "b.cu", "host.cpp", "main.cu"],
                  "[%s] unexpected compile database entries %s" %
                  (generator, names))
            for entry in entries:
                check_entry(args, generator, entry, src, counts)
    except Failure as e:
        print("FAIL: %s" % e)
        return 1
    print("PASS: %s: %d nvcc commands translated, %d clang parses clean, "
          "%d C++ commands left alone; the untranslated nvcc lines gave "
          "clang %d errors in all" %
          (", ".join(generators), counts["nvcc"], counts["clang_parses"],
           counts["non_nvcc"], counts["raw_clang_errors"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
