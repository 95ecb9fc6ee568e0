//===--- CudaTidyModule.cpp - registers the cuda-tidy checks --------------===//
//
// One module serves both front-ends: clang-tidy-22 --load=<plugin> finds it
// through ClangTidyModuleRegistry, and the standalone cuda-tidy links this
// object directly, so the same registration runs there.
//
//===----------------------------------------------------------------------===//

#include "checks/CudaTidyModule.h"
#include "checks/ClusterExitSyncCheck.h"
#include "checks/DivergentBarrierCheck.h"
#include "checks/DivergentGroupCreationCheck.h"
#include "checks/FullWarpMaskCheck.h"
#include "checks/GridSyncLaunchCheck.h"
#include "checks/GroupByValueCheck.h"
#include "checks/ImplicitWarpSyncCheck.h"
#include "checks/MemcpyAsyncWaitCheck.h"
#include "checks/MissingFenceCheck.h"
#include "checks/PreferTileCollectivesCheck.h"
#include "checks/SharedMemoryRaceCheck.h"
#include "checks/WarpMaskMismatchCheck.h"

#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::cuda {
namespace {

class CudaTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
#define CUDA_TIDY_CHECK(ClassName, Name, Summary)                              \
  Factories.registerCheck<ClassName>(Name);
#include "checks/CheckList.def"
  }

  ClangTidyOptions getModuleOptions() override {
    ClangTidyOptions Options;
    // clang-tidy's defaults know nothing of CUDA: .cu files are translation
    // units and .cuh files are headers, as in every CUDA project.
    Options.HeaderFileExtensions = {"", "h", "hh", "hpp", "hxx", "cuh"};
    Options.ImplementationFileExtensions = {"c", "cc", "cpp", "cxx", "cu"};
    return Options;
  }
};

} // namespace

llvm::ArrayRef<CheckDescription> allCheckDescriptions() {
  static const CheckDescription Descriptions[] = {
#define CUDA_TIDY_CHECK(ClassName, Name, Summary) {Name, Summary},
#include "checks/CheckList.def"
  };
  return Descriptions;
}

std::string checkDocumentationPath(llvm::StringRef CheckName) {
  return ("docs/checks/" + CheckName + ".md").str();
}

// The one registration line. LLVM 22 moved the registry into
// ClangTidyModule.h (ClangTidyModuleRegistry.h is deprecated and goes away in
// LLVM 24); nothing else in the project names the registry.
static ClangTidyModuleRegistry::Add<CudaTidyModule>
    Registration("cuda-tidy-module", "CUDA synchronization and "
                                     "cooperative-groups checks.");

} // namespace clang::tidy::cuda
