"""NVIDIA/cuCollections: header-only; its examples/ and tests/ instantiate the kernels.

Files: every .cu under examples/ (examples/CMakeLists.txt builds each) and
tests/ (tests/CMakeLists.txt's ConfigureTest lists name every one).  The
library (include/cuco/) is templates only: its kernels (detail/*/kernels.cuh)
and their launches (the bulk host APIs) are instantiated by these programs.
benchmarks/ is left out: it needs nvbench (fetched by CPM at configure time,
not in the repository or the toolkit), and it instantiates the same bulk
operations the tests do.

The tests include Catch2 3.3 (fetched by CPM, not in the repository):
stubs/cucollections/catch2/ is a stand-in of our own, put on the include
path, with only the macros the tests use (TEST_CASE, TEMPLATE_TEST_CASE,
TEMPLATE_TEST_CASE_SIG, SECTION, REQUIRE, CHECK, STATIC_REQUIRE, INFO,
GENERATE): each test body is a function, each template test is instantiated
for every type or signature tuple it lists.  `prepare` writes it to
.cuda-tidy-stubs/cucollections/.  include/cuco/detail/__config has no source
ending, so the harness does not extract it: `prepare` reads it from the git
mirror at the pinned commit (CUDA_TIDY_MIRRORS, default /work/.mirror).

stubs/cucollections/cuco_nvcc_shim.h (ours, force-included in every file)
gives what cuco/detail/__config requires of nvcc and clang lacks:
__CUDACC_VER_MAJOR__/__CUDACC_VER_MINOR__ (the toolkit's 13.0),
__CUDACC_EXTENDED_LAMBDA__ (what nvcc --expt-extended-lambda, passed by the
project's CMakeLists, defines) and __CUDA_ARCH_LIST__ (900: cuda-tidy's
sm_90); and thrust::identity, which the CCCL 2.x the project pins has and the
toolkit's CCCL 3 removed (used by the bulk insert/contains paths and the
examples).

Flags (CMakeLists.txt, examples/ and tests/CMakeLists.txt): -std=c++17
(target_compile_features cxx_std_17 cuda_std_17), -I include (the cuco
INTERFACE include directory), and the program folder's CMakeLists folder
(examples/ or tests/: target_include_directories
${CMAKE_CURRENT_SOURCE_DIR}), all as absolute paths (see _cuco_flags); no
-D.  --expt-extended-lambda has no clang equivalent to pass (the shim defines
its macro).  CCCL (thrust, cub, libcu++) is the toolkit's: the
project fetches its own pinned CCCL through rapids-cmake, which is not in
the repository.
"""

import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
STUBS = os.path.join(HERE, "stubs", "cucollections")
STUB_DIR = ".cuda-tidy-stubs/cucollections"
COMMIT = "dc0f9fc20c2a544e53099e640a681b347532391a"
# Headers without a source ending, which the harness does not extract.
EXTENSIONLESS = ["include/cuco/detail/__config"]


def _cuco_prepare(root):
    mirrors = os.environ.get("CUDA_TIDY_MIRRORS", "/work/.mirror")
    gitdir = os.path.join(mirrors, "NVIDIA+cuCollections", "repo")
    for rel in EXTENSIONLESS:
        dest = os.path.join(root, rel)
        if os.path.exists(dest):
            continue
        data = subprocess.run(
            ["git", "--git-dir=" + gitdir, "show", COMMIT + ":" + rel],
            check=True, stdout=subprocess.PIPE).stdout
        with open(dest, "wb") as f:
            f.write(data)
    for d, _, names in os.walk(STUBS):
        rel = os.path.relpath(d, STUBS)
        os.makedirs(os.path.join(root, STUB_DIR, rel), exist_ok=True)
        for n in names:
            shutil.copyfile(os.path.join(d, n),
                            os.path.join(root, STUB_DIR, rel, n))


def _cuco_files(paths, options=None):
    return sorted(p for p in paths
                  if p.startswith(("examples/", "tests/"))
                  and p.endswith(".cu"))


# The -I folders are passed as absolute paths under the corpus root: the
# harness's --header-filter is ^<root>/, and cuda-tidy matches it against a
# header's path as clang spells it, which is relative when the header was
# found through a relative -I (its findings would be dropped).
def _cuco_flags(path, root):
    top = path.split("/", 1)[0]
    flags = ["-std=c++17",
             "-include", os.path.join(root, STUB_DIR, "cuco_nvcc_shim.h"),
             "-I", os.path.join(root, "include"),
             "-I", os.path.join(root, top)]
    if top == "tests":
        flags += ["-I", os.path.join(root, STUB_DIR)]
    return flags


CORPUS = {
    "name": "cucollections",
    "repo": "NVIDIA/cuCollections",
    "mirror": "NVIDIA+cuCollections",
    "commit": COMMIT,
    "files": _cuco_files,
    "flags": _cuco_flags,
    "prepare": _cuco_prepare,
}
