//===--- GridSyncLaunchCheckTest.cpp - cuda-grid-sync-launch in memory ----===//

#include "tests/unit/CheckTestHarness.h"

#include "checks/analysis/launch/LaunchIndex.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

namespace clang::tidy::cuda::test {
namespace {

constexpr llvm::StringLiteral Check = "-*,cuda-grid-sync-launch";
constexpr llvm::StringLiteral Name = "cuda-grid-sync-launch";

std::string needsCoop(llvm::StringRef Kernel, llvm::StringRef Sync,
                      llvm::StringRef Form) {
  return "kernel '" + Kernel.str() + "' synchronizes the whole grid (" +
         Sync.str() + ") but is launched with " + Form.str() +
         ", which is not a cooperative launch; the grid sync fails at run "
         "time: launch it with cudaLaunchCooperativeKernel, or "
         "cudaLaunchKernelEx with cudaLaunchAttributeCooperative set";
}

std::string dataSized(llvm::StringRef Kernel) {
  return "cooperative launch of kernel '" + Kernel.str() +
         "' sizes its grid from the data size, not from an occupancy query; "
         "a cooperative grid larger than the GPU holds at once fails with "
         "cudaErrorCooperativeLaunchTooLarge: bound it by "
         "cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count";
}

Finding warning(unsigned Line, unsigned Column, std::string Message) {
  return {Line, Column, "warning", Name.str(), std::move(Message)};
}
Finding note(unsigned Line, unsigned Column, std::string Message) {
  return {Line, Column, "note", Name.str(), std::move(Message)};
}

std::string dump(const CheckRun &Run) {
  std::string Text;
  for (const Finding &F : Run.Findings)
    Text += toString(F) + "\n";
  return Text;
}

const char *const Prelude = "#include <cooperative_groups.h>\n"
                            "namespace cg = cooperative_groups;\n";

CheckRun run(llvm::StringRef Body, llvm::StringRef Config = "") {
  return runChecks((Prelude + Body).str(), Check, Config);
}

TEST(GridSyncLaunchCheck, ChevronLaunchOfADirectGridSync) {
  CheckRun Run = run(R"cu(__global__ void k(int *p) {
  cg::grid_group grid = cg::this_grid();
  grid.sync();
}
void host(int *p) { k<<<528, 256>>>(p); }
)cu");
  ASSERT_TRUE(Run.ParsedCleanly) << dump(Run);
  std::vector<Finding> Expected = {
      warning(7, 21, needsCoop("k", "grid_group::sync()", "<<<...>>>")),
      note(5, 3, "'k' synchronizes the whole grid here"),
  };
  EXPECT_EQ(Run.Findings, Expected) << dump(Run);
}

TEST(GridSyncLaunchCheck, NotesFollowTheCallChain) {
  CheckRun Run = run(R"cu(__device__ void leaf() { cg::sync(cg::this_grid()); }
__device__ void middle() { leaf(); }
__global__ void k() { middle(); }
void host() { k<<<1, 1>>>(); }
)cu");
  std::vector<Finding> Expected = {
      warning(
          6, 15,
          needsCoop("k", "cooperative_groups::sync(grid_group)", "<<<...>>>")),
      note(5, 23, "'k' calls 'middle' here"),
      note(4, 28, "'middle' calls 'leaf' here"),
      note(3, 26, "'leaf' synchronizes the whole grid here"),
  };
  EXPECT_EQ(Run.Findings, Expected) << dump(Run);
}

TEST(GridSyncLaunchCheck, ShortestChainThroughRecursion) {
  CheckRun Run = run(R"cu(__device__ void deep3() { cg::this_grid().sync(); }
__device__ void deep2() { deep3(); }
__device__ void deep1() { deep2(); }
__device__ void ping(int n);
__device__ void pong(int n) { if (n) ping(n - 1); }
__device__ void ping(int n) { pong(n); cg::this_grid().sync(); }
__global__ void k(int n) { deep1(); ping(n); }
void host() { k<<<1, 1>>>(3); }
)cu");
  // deep1() comes first in the kernel, but ping() is one call from the
  // grid sync: the shortest way is the one shown.
  std::vector<Finding> Expected = {
      warning(10, 15, needsCoop("k", "grid_group::sync()", "<<<...>>>")),
      note(9, 37, "'k' calls 'ping' here"),
      note(8, 40, "'ping' synchronizes the whole grid here"),
  };
  EXPECT_EQ(Run.Findings, Expected) << dump(Run);
}

TEST(GridSyncLaunchCheck, TemplatesAndLambdasAreFollowed) {
  CheckRun Run =
      run(R"cu(template <typename F> __device__ void apply(F f) { f(); }
template <typename T> __global__ void k(T *p) {
  apply([] { cg::this_grid().barrier_wait(cg::this_grid().barrier_arrive()); });
}
void host(float *p) { k<float><<<2, 64>>>(p); }
)cu");
  ASSERT_TRUE(Run.ParsedCleanly) << dump(Run);
  ASSERT_EQ(Run.Findings.size(), 4u) << dump(Run);
  EXPECT_EQ(Run.Findings[0],
            warning(7, 23,
                    needsCoop("k<float>", "grid_group::barrier_wait()",
                              "<<<...>>>")));
  EXPECT_EQ(Run.Findings[1],
            note(5, 3, "'k<float>' calls 'apply<(lambda)>' here"));
  EXPECT_EQ(Run.Findings[2],
            note(3, 52, "'apply<(lambda)>' calls the lambda here"));
  EXPECT_EQ(Run.Findings[3].Message,
            "the lambda synchronizes the whole grid here");
}

TEST(GridSyncLaunchCheck, RuntimeLaunchForms) {
  CheckRun Run = run(R"cu(__global__ void k(int *p) { cg::this_grid().sync(); }
void host(int *p) {
  void *args[] = {&p};
  cudaLaunchKernel((void *)k, dim3(4), dim3(256), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)k, dim3(4), dim3(256), args, 0, 0);
  const void *fn = (const void *)k;
  cudaLaunchKernel(fn, dim3(4), dim3(256), args, 0, 0);
}
)cu");
  std::vector<Finding> Expected = {
      warning(6, 3, needsCoop("k", "grid_group::sync()", "cudaLaunchKernel")),
      note(3, 29, "'k' synchronizes the whole grid here"),
      warning(9, 3, needsCoop("k", "grid_group::sync()", "cudaLaunchKernel")),
      note(3, 29, "'k' synchronizes the whole grid here"),
  };
  EXPECT_EQ(Run.Findings, Expected) << dump(Run);
}

TEST(GridSyncLaunchCheck, LaunchKernelExFollowsTheConfigAndItsAttributes) {
  CheckRun Run = run(R"cu(__global__ void k(int *p) { cg::this_grid().sync(); }
void plainConfig(int *p) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(4);
  cfg.blockDim = dim3(256);
  cudaLaunchKernelEx(&cfg, k, p);
}
void cooperativeConfig(int *p) {
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeCooperative;
  attrs[0].val.cooperative = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(4);
  cfg.blockDim = dim3(256);
  cfg.attrs = attrs;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, k, p);
}
void setToZero(int *p) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 0;
  cudaLaunchConfig_t cfg = {};
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  void *args[] = {&p};
  cudaLaunchKernelExC(&cfg, (const void *)k, args);
}
void attributeNotCounted(int *p) {
  cudaLaunchAttribute attrs[2] = {};
  attrs[1].id = cudaLaunchAttributeCooperative;
  attrs[1].val.cooperative = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.attrs = attrs;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, k, p);
}
)cu");
  std::vector<Finding> Expected = {
      warning(8, 3,
              needsCoop("k", "grid_group::sync()",
                        "cudaLaunchKernelEx without "
                        "cudaLaunchAttributeCooperative")),
      note(3, 29, "'k' synchronizes the whole grid here"),
      note(5, 22,
           "launch configuration 'cfg' is declared here; none of its "
           "attributes is cudaLaunchAttributeCooperative"),
      warning(29, 3,
              needsCoop("k", "grid_group::sync()",
                        "cudaLaunchKernelExC with "
                        "cudaLaunchAttributeCooperative set to 0")),
      note(3, 29, "'k' synchronizes the whole grid here"),
      note(24, 26, "cudaLaunchAttributeCooperative is set to 0 here"),
      warning(38, 3,
              needsCoop("k", "grid_group::sync()",
                        "cudaLaunchKernelEx without "
                        "cudaLaunchAttributeCooperative")),
      note(3, 29, "'k' synchronizes the whole grid here"),
      note(35, 22,
           "launch configuration 'cfg' is declared here; none of its "
           "attributes is cudaLaunchAttributeCooperative"),
  };
  EXPECT_EQ(Run.Findings, Expected) << dump(Run);
}

TEST(GridSyncLaunchCheck, SilentWhenTheLaunchCannotBeResolved) {
  CheckRun Run = run(R"cu(__global__ void k(int *p) { cg::this_grid().sync(); }
__global__ void other(int *p) { p[0] = 0; }
void fill(cudaLaunchAttribute *attrs);
void throughPointer(void (*fp)(int *), int *p) { fp<<<1, 1>>>(p); }
void configFromCaller(const cudaLaunchConfig_t *cfg, int *p) {
  cudaLaunchKernelEx(cfg, k, p);
}
void attributesFilledElsewhere(int *p) {
  cudaLaunchAttribute attrs[1];
  fill(attrs);
  cudaLaunchConfig_t cfg = {};
  cfg.attrs = attrs;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, k, p);
}
void pointerReassigned(int *p, bool b) {
  void (*fp)(int *) = other;
  if (b)
    fp = k;
  fp<<<1, 1>>>(p);
}
)cu");
  EXPECT_TRUE(Run.ParsedCleanly) << dump(Run);
  EXPECT_TRUE(Run.Findings.empty()) << dump(Run);
}

TEST(GridSyncLaunchCheck, SilentWithoutGridSyncOrLaunch) {
  CheckRun Run =
      run(R"cu(__global__ void neverLaunched() { cg::this_grid().sync(); }
__global__ void blockOnly(int *p) { cg::this_thread_block().sync(); }
__global__ void typeErased(int *p) {
  cg::thread_group g = cg::this_thread_block();
  g.sync();
}
void host(int *p) {
  blockOnly<<<1, 1>>>(p);
  typeErased<<<1, 1>>>(p);
}
)cu");
  EXPECT_TRUE(Run.ParsedCleanly) << dump(Run);
  EXPECT_TRUE(Run.Findings.empty()) << dump(Run);
}

TEST(GridSyncLaunchCheck, CooperativeGridSizedByDataIsFlagged) {
  CheckRun Run =
      run(R"cu(__global__ void k(float *p, int n) { cg::this_grid().sync(); }
void byData(float *p, int n) {
  void *args[] = {&p, &n};
  int blocks = (n + 255) / 256;
  cudaLaunchCooperativeKernel((void *)k, dim3(blocks), dim3(256), args, 0, 0);
}
void byOccupancy(float *p, int n) {
  void *args[] = {&p, &n};
  int perSm = 0, sms = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, k, 256, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaLaunchCooperativeKernel((void *)k, dim3(perSm * sms), dim3(256), args, 0, 0);
}
void cappedByOccupancy(float *p, int n) {
  void *args[] = {&p, &n};
  int perSm = 0;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, k, 256, 0);
  int blocks = (n + 255) / 256;
  int limit = perSm * prop.multiProcessorCount;
  if (blocks > limit)
    blocks = limit;
  cudaLaunchCooperativeKernel((void *)k, blocks, 256, args, 0, 0);
}
void fromCaller(float *p, int n, int grid) {
  void *args[] = {&p, &n};
  cudaLaunchCooperativeKernel((void *)k, dim3(grid), dim3(256), args, 0, 0);
}
int gridFor(int n);
void fromAnotherFunction(float *p, int n) {
  void *args[] = {&p, &n};
  cudaLaunchCooperativeKernel((void *)k, dim3(gridFor(n)), dim3(256), args, 0, 0);
}
void blockFromOccupancy(float *p, int n) {
  void *args[] = {&p, &n};
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, k, 0, 0);
  cudaLaunchCooperativeKernel((void *)k, dim3((n + block - 1) / block), dim3(block), args, 0, 0);
}
)cu");
  ASSERT_TRUE(Run.ParsedCleanly) << dump(Run);
  std::vector<Finding> Expected = {
      warning(7, 3, dataSized("k")),
      note(6, 16, "the grid size is derived from the data size here"),
      warning(41, 3, dataSized("k")),
      note(41, 47, "the grid size is derived from the data size here"),
  };
  EXPECT_EQ(Run.Findings, Expected) << dump(Run);
}

TEST(GridSyncLaunchCheck, CooperativeLaunchKernelExGridSizedByData) {
  CheckRun Run =
      run(R"cu(__global__ void k(float *p) { cg::this_grid().sync(); }
void host(float *p, int n) {
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + 127) / 128);
  cfg.blockDim = dim3(128);
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, k, p);
}
)cu");
  std::vector<Finding> Expected = {
      warning(13, 3, dataSized("k")),
      note(9, 22, "the grid size is derived from the data size here"),
  };
  EXPECT_EQ(Run.Findings, Expected) << dump(Run);
}

TEST(GridSyncLaunchCheck, RemovedMultiDeviceApiIsReportedWithItsReplacement) {
  CheckRun Run = run(R"cu(__global__ void k() {
  cg::multi_grid_group all = cg::this_multi_grid();
  all.sync();
}
#if 0
void neverCompiled() { cg::this_multi_grid(); }
#endif
)cu");
  // CUDA 13 has none of these names: the file does not compile, and the
  // check says what replaces them.
  EXPECT_FALSE(Run.ParsedCleanly);
  std::vector<Finding> Ours;
  for (const Finding &F : Run.Findings)
    if (F.Check == Name)
      Ours.push_back(F);
  std::vector<Finding> Expected = {
      warning(4, 7,
              "'multi_grid_group' was removed in CUDA 13 with the "
              "multi-device cooperative launch; use "
              "cooperative_groups::grid_group (this_grid()) on each device "
              "and synchronize the devices from the host"),
      warning(4, 34,
              "'this_multi_grid' was removed in CUDA 13 with the "
              "multi-device cooperative launch; use "
              "cooperative_groups::this_grid() on each device and "
              "synchronize the devices from the host"),
  };
  EXPECT_EQ(Ours, Expected) << dump(Run);
}

TEST(GridSyncLaunchCheck, RemovedMultiDeviceLaunch) {
  CheckRun Run = run(R"cu(void host(cudaLaunchParams *params, int n) {
  cudaLaunchCooperativeKernelMultiDevice(params, n, 0);
}
)cu");
  std::vector<std::pair<unsigned, unsigned>> Where;
  for (const Finding &F : Run.Findings)
    if (F.Check == Name)
      Where.push_back({F.Line, F.Column});
  std::vector<std::pair<unsigned, unsigned>> Expected = {{3, 11}, {4, 3}};
  EXPECT_EQ(Where, Expected) << dump(Run);
}

TEST(GridSyncLaunchCheck, WritesTheProjectIndexWhenAsked) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gsl-index", Dir));
  analysis::trustIndexFolder(Dir); // as the standalone does with its own
  std::string Config =
      "CheckOptions:\n  cuda-grid-sync-launch.ProjectIndexDir: '" +
      std::string(Dir) + "'\n";
  CheckRun Run =
      run(R"cu(__global__ void needsCoop(int *p) { cg::this_grid().sync(); }
static __global__ void internal(int *p) { cg::this_grid().sync(); }
__global__ void elsewhere(int *p);
__global__ void plainElsewhere(int *p);
void host(int *p) {
  elsewhere<<<2, 32>>>(p);
  void *args[] = {&p};
  cudaLaunchCooperativeKernel((void *)plainElsewhere, 1, 1, args, 0, 0);
}
)cu",
          Config);
  EXPECT_TRUE(Run.Findings.empty()) << dump(Run);
  auto Records = analysis::readRecords(Dir);
  ASSERT_TRUE(static_cast<bool>(Records))
      << llvm::toString(Records.takeError());
  ASSERT_EQ(Records->size(), 1u);
  const analysis::TranslationUnitRecord &R = Records->front();
  EXPECT_EQ(R.MainFile, "/cuda-tidy-test/input.cu");
  ASSERT_EQ(R.Kernels.size(), 1u); // 'internal' cannot be launched elsewhere
  EXPECT_EQ(R.Kernels[0].MangledName, "_Z9needsCoopPi");
  EXPECT_EQ(R.Kernels[0].SyncSpelling, "grid_group::sync()");
  ASSERT_EQ(R.Kernels[0].Chain.size(), 1u);
  EXPECT_EQ(R.Kernels[0].Chain[0].Where.Line, 3u);
  EXPECT_EQ(R.Kernels[0].Chain[0].Where.Column, 37u);
  // Only the plain launch: the cooperative one needs nothing from the index.
  ASSERT_EQ(R.Launches.size(), 1u);
  EXPECT_EQ(R.Launches[0].MangledName, "_Z9elsewherePi");
  EXPECT_EQ(R.Launches[0].KernelName, "elsewhere");
  EXPECT_EQ(R.Launches[0].Form, "<<<...>>>");
  EXPECT_EQ(R.Launches[0].Where.Line, 8u);
  EXPECT_EQ(R.Launches[0].Where.Column, 3u);
  analysis::forgetIndexFolder(Dir);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(GridSyncLaunchCheck, AnUntrustedProjectIndexIsIgnored) {
  // A .clang-tidy naming a folder no run made (issue 16 F22): nothing is
  // written there, and a warning says why.
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gsl-foreign", Dir));
  std::string Config =
      "CheckOptions:\n  cuda-grid-sync-launch.ProjectIndexDir: '" +
      std::string(Dir) + "'\n";
  CheckRun Run =
      run(R"cu(__global__ void needsCoop(int *p) { cg::this_grid().sync(); }
__global__ void elsewhere(int *p);
void host(int *p) { elsewhere<<<2, 32>>>(p); }
)cu",
          Config);
  bool Warned = false;
  for (const Finding &F : Run.Findings)
    Warned |= F.Message.find("ProjectIndexDir ignored") != std::string::npos;
  EXPECT_TRUE(Warned) << dump(Run);
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC);
  EXPECT_FALSE(EC);
  EXPECT_TRUE(It == llvm::sys::fs::directory_iterator()); // still empty
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
} // namespace clang::tidy::cuda::test
