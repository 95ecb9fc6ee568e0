# lit configuration for cuda-tidy's file tests: every .cu file under this
# folder runs through both front-ends (see check_cuda_tidy.py).
import os
import lit.formats

# The build writes the paths of the tools under test into lit.site.cfg.py;
# ctest passes its location (see CMakeLists.txt).
site = lit_config.params.get("cuda_tidy_site_config") or os.environ.get("LIT_SITE_CFG")
if not site or not os.path.exists(site):
    lit_config.fatal("run through ctest, or pass --param cuda_tidy_site_config=<build>/tests/lit/lit.site.cfg.py")
with open(site) as f:
    exec(compile(f.read(), site, "exec"))

config.name = "cuda-tidy"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cu", ".cuh", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cuda_tidy_binary_dir, "tests", "lit")

for name, value in [
    ("CLANG_TIDY", config.clang_tidy),
    ("CUDA_TIDY", config.cuda_tidy),
    ("CUDA_TIDY_PLUGIN", config.cuda_tidy_plugin),
    ("FILECHECK", config.filecheck),
    ("CUDA_TIDY_TEST_CUDA_FLAGS", config.cuda_flags),
]:
    config.environment[name] = value
# cuda-tidy's cache folder (docs/performance.md): in the build tree, not in
# the home of whoever runs the tests.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root, "cache-home")
for name in ["CUDA_TIDY_FRONT_ENDS", "HOME", "TMPDIR"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]

# A -DCUDA_TIDY_SANITIZE=ON build compiles the checks with ASan and UBSan. The
# plugin is then a shared object that needs the sanitizer runtimes, which only
# an instrumented executable carries: clang-tidy-22 is not one, and loading
# the plugin into it fails on undefined __asan_* symbols. There, the
# standalone front-end (instrumented, runtimes linked in) is the one tested,
# and RUN lines of the plugin sit under `%if plugin`.
sanitized = getattr(config, "cuda_tidy_sanitize", "OFF").upper() in ("ON", "1", "TRUE", "YES")
if sanitized:
    config.environment.setdefault("CUDA_TIDY_FRONT_ENDS", "standalone")
else:
    config.available_features.add("plugin")
    # --file-memory-limit counts the allocator, which a sanitizer build
    # replaces (tool/driver/support/MemoryBudget.h).
    config.available_features.add("memory-budget")
    # Crash recovery is off where a sanitizer reports crashes itself
    # (tool/driver/run/ParallelRun.cpp).
    config.available_features.add("crash-recovery")

script = os.path.join(config.test_source_root, "check_cuda_tidy.py")
config.substitutions.append(("%check_cuda_tidy", "python3 " + script))
config.substitutions.append(("%cuda_tidy", config.cuda_tidy))
config.substitutions.append(("%clang_tidy_plugin",
                             config.clang_tidy + " --load=" + config.cuda_tidy_plugin))
config.substitutions.append(("%cuda_flags", config.cuda_flags))
config.substitutions.append(("%nvcc_compat_header", config.nvcc_compat_header))
config.substitutions.append(("%clangd", getattr(config, "clangd", "clangd-22")))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%not", config.not_tool))
