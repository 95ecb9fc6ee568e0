//===--- AnalysisManager.cpp - per-TU cache of divergence results ---------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/core/CompileErrors.h"
#include "checks/analysis/divergence/ObjectWrites.h"
#include "checks/analysis/memory/SharedAccesses.h"
#include "llvm/ADT/bit.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

namespace clang::tidy::cuda::analysis {

AnalysisManager::AnalysisManager(ASTContext &Ctx,
                                 const AnalysisOptions &Options)
    : Ctx(Ctx), Options(Options), Shapes(Ctx) {}

AnalysisManager::~AnalysisManager() = default;

unsigned AnalysisManager::launchArgumentAlignLog2(const FunctionDecl *Kernel,
                                                  unsigned Param) {
  uint64_t Factor = Shapes.argumentFactor(Kernel, Param);
  return Factor ? llvm::countr_zero(Factor) : 0;
}

BlockExtentFact AnalysisManager::blockExtent(const FunctionDecl *FD,
                                             unsigned Dim) {
  BlockExtentFact Fact = Shapes.blockExtent(FD, Dim);
  if (Dim == 0 && Options.AssumeBlockDimXMultipleOf32 && !Fact.Exact)
    Fact.Factor = std::max<uint64_t>(Fact.Factor, 32);
  return Fact;
}

ObjectEffect AnalysisManager::objectEffect(const CXXMethodDecl *Method) {
  if (!Method)
    return ObjectEffect::MayWrite;
  Method = Method->getCanonicalDecl();
  auto [It, Inserted] = ObjectEffects.try_emplace(Method, std::nullopt);
  if (!Inserted) // in progress: may write
    return It->second.value_or(ObjectEffect::MayWrite);
  ObjectEffect Effect = methodObjectEffect(
      Method, [this](const CXXMethodDecl *M) { return objectEffect(M); });
  ObjectEffects[Method] = Effect;
  return Effect;
}

bool AnalysisManager::mayWriteReferenceParameter(const FunctionDecl *Function,
                                                 unsigned Index) {
  if (!Function)
    return true;
  Function = Function->getCanonicalDecl();
  auto [It, Inserted] =
      ParameterWrites.try_emplace({Function, Index}, std::nullopt);
  if (!Inserted)
    return It->second.value_or(true); // in progress: may write
  bool Writes = functionMayWriteReferenceParameter(
      Function, Index,
      [this](const CXXMethodDecl *M) { return objectEffect(M); },
      [this](const FunctionDecl *F, unsigned I) {
        return mayWriteReferenceParameter(F, I);
      });
  ParameterWrites[{Function, Index}] = Writes;
  return Writes;
}

llvm::ArrayRef<SharedAccessSite>
AnalysisManager::sharedAccessSites(const FunctionDecl *Kernel,
                                   Scope BarrierScope) {
  // Not `return {}`: here that gave a one-element ArrayRef over a
  // temporary SharedAccessSite, a dangling site for every caller (found by
  // WarpExchangesTest: a device function had one site).
  const llvm::ArrayRef<SharedAccessSite> NoSites;
  if (!Kernel)
    return NoSites;
  Kernel = Kernel->getCanonicalDecl();
  auto [It, New] = SharedSiteCache.try_emplace({Kernel, BarrierScope});
  SharedSites &Entry = It->second;
  if (!New)
    return Entry.Sites;
  const FunctionDecl *Definition = Kernel->getDefinition();
  if (!Definition || Definition->isDependentContext() ||
      !Definition->getBody() || !Definition->hasAttr<CUDAGlobalAttr>())
    return NoSites;
  const FunctionDivergence *KernelD = divergence(Definition);
  if (!KernelD || !KernelD->isAnalyzed())
    return NoSites;
  // The other scope's analyses, already built, lend their evaluations.
  const SharedSites *Other = nullptr;
  for (Scope S : {Scope::Block, Scope::Warp})
    if (auto Found = SharedSiteCache.find({Kernel, S});
        S != BarrierScope && Found != SharedSiteCache.end())
      Other = &Found->second;
  auto SiblingFor = [&](const CallExpr *Call) -> const SharedAccessAnalysis * {
    if (Other)
      for (const SharedAccessSite &Site : Other->Sites)
        if (Site.Call == Call)
          return Site.Accesses;
    return nullptr;
  };
  auto Add = [&](const FunctionDecl *FD, const FunctionDivergence *D,
                 const SharedAccessOptions &Opts, const CallExpr *Call) {
    Entry.Analyses.push_back(std::make_unique<SharedAccessAnalysis>(
        FD, Ctx, *this, Opts, SiblingFor(Call)));
    Entry.Sites.push_back({Entry.Analyses.back().get(), D, Call});
  };
  SharedAccessOptions Own;
  Own.BarrierScope = BarrierScope;
  Add(Definition, KernelD, Own, nullptr);
  for (const CallExpr *Call : sharedArrayCalls(Definition)) {
    const FunctionDecl *Callee = Call->getDirectCallee()->getDefinition();
    const FunctionDivergence *CalleeD = Callee ? divergence(Callee) : nullptr;
    if (!CalleeD || !CalleeD->isAnalyzed())
      continue;
    SharedAccessOptions AtCall = Own;
    AtCall.Call = Call;
    AtCall.Caller = Definition;
    Add(Callee, CalleeD, AtCall, Call);
  }
  return Entry.Sites;
}

bool AnalysisManager::rowsAreWarpAligned(const FunctionDecl *FD) {
  return Options.AssumeBlockDimXMultipleOf32 || Shapes.rowsAreWarpAligned(FD);
}

bool AnalysisManager::rowWidthUnknown(const FunctionDecl *FD) {
  return !rowsAreWarpAligned(FD) && !Shapes.rowsMayStraddleWarps(FD);
}

bool AnalysisManager::divergesOnlyForUnknownRowWidth(const FunctionDecl *FD,
                                                     const Stmt *S,
                                                     Level Within) {
  if (!FD || !S || !rowWidthUnknown(FD))
    return false;
  AnalysisOptions Aligned = Options;
  Aligned.AssumeBlockDimXMultipleOf32 = true;
  const FunctionDivergence *D = forContext(Ctx, Aligned).divergence(FD);
  return D && D->isAnalyzed() && !D->divergenceAt(S, Within);
}

const FunctionDecl *
AnalysisManager::divergesOnlyThroughUnanalyzedCallee(const FunctionDecl *FD,
                                                     const Stmt *S,
                                                     Level Within) {
  if (!FD || !S || Options.UnanalyzedCalleesStoreNothing)
    return nullptr;
  const FunctionDivergence *D = divergence(FD);
  if (!D || !D->isAnalyzed())
    return nullptr;
  const FunctionDecl *Unanalyzed = nullptr;
  for (const CallExpr *Call : D->calls()) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Definition = nullptr;
    if (Callee && Callee->hasBody(Definition) && Definition &&
        !Definition->isDependentContext() &&
        !definitionCompiles(Definition)) {
      Unanalyzed = Definition;
      break;
    }
  }
  if (!Unanalyzed)
    return nullptr;
  AnalysisOptions StoreNothing = Options;
  StoreNothing.UnanalyzedCalleesStoreNothing = true;
  const FunctionDivergence *Other =
      forContext(Ctx, StoreNothing).divergence(FD);
  return Other && Other->isAnalyzed() && !Other->divergenceAt(S, Within)
             ? Unanalyzed
             : nullptr;
}

namespace {

/// The managers alive right now, one per (ASTContext, options). An entry is
/// removed by the context's own deallocation callback, so none outlives its
/// translation unit.
struct Registry {
  std::mutex Lock;
  std::map<std::pair<const ASTContext *, unsigned>, AnalysisManager *> Live;
};

Registry &registry() {
  static Registry R;
  return R;
}

void destroyManager(void *Data) {
  auto *Manager = static_cast<AnalysisManager *>(Data);
  {
    Registry &R = registry();
    std::scoped_lock Guard(R.Lock);
    R.Live.erase({&Manager->context(), Manager->options().key()});
  }
  delete Manager;
}

} // namespace

AnalysisManager &AnalysisManager::forContext(ASTContext &Ctx,
                                             const AnalysisOptions &Options) {
  Registry &R = registry();
  std::scoped_lock Guard(R.Lock);
  auto Key = std::make_pair(static_cast<const ASTContext *>(&Ctx),
                            Options.key());
  auto It = R.Live.find(Key);
  if (It != R.Live.end())
    return *It->second;
  auto *Manager = new AnalysisManager(Ctx, Options);
  R.Live[Key] = Manager;
  Ctx.AddDeallocation(destroyManager, Manager);
  return *Manager;
}

bool AnalysisManager::definitionCompiles(const FunctionDecl *Definition) {
  auto [It, New] = Compiles.try_emplace(Definition, true);
  if (New)
    It->second = compiles(*Definition);
  return It->second;
}

const FunctionDecl *
AnalysisManager::analysableDefinition(const FunctionDecl *FD) {
  const FunctionDecl *Definition = nullptr;
  if (!FD || !FD->hasBody(Definition) || !Definition ||
      Definition->isDependentContext() || !definitionCompiles(Definition))
    return nullptr;
  return Definition;
}

std::unique_ptr<FunctionDivergence> AnalysisManager::analyse(
    const FunctionDecl *Definition,
    llvm::ArrayRef<std::optional<Uniformity>> ParameterValues) {
  if (InProgress.contains(Definition) || Depth >= MaxDepth)
    return nullptr;
  InProgress.insert(Definition);
  ++Depth;
  auto Result = std::make_unique<FunctionDivergence>(Definition, Ctx, Options,
                                                     this, ParameterValues);
  --Depth;
  InProgress.erase(Definition);
  return Result;
}

/// The analysis cached under \p Key, or the one \p Make makes, cached
/// unless it made none (recursion, depth: a later query may succeed).
template <typename KeyT>
static const FunctionDivergence *cachedAnalysis(
    llvm::DenseMap<KeyT, std::unique_ptr<FunctionDivergence>> &Cache, KeyT Key,
    llvm::function_ref<std::unique_ptr<FunctionDivergence>()> Make) {
  if (auto It = Cache.find(Key); It != Cache.end())
    return It->second.get();
  std::unique_ptr<FunctionDivergence> Result = Make();
  if (!Result)
    return nullptr;
  const FunctionDivergence *Raw = Result.get();
  Cache[Key] = std::move(Result);
  return Raw;
}

const FunctionDivergence *
AnalysisManager::divergence(const FunctionDecl *FD) {
  const FunctionDecl *Definition = analysableDefinition(FD);
  if (!Definition)
    return nullptr;
  return cachedAnalysis(Analyses, Definition,
                        [&] { return analyse(Definition, {}); });
}

const FunctionDivergence *AnalysisManager::divergenceForCall(
    const FunctionDecl *FD, const CallExpr *Call,
    llvm::ArrayRef<std::optional<Uniformity>> ParameterValues) {
  const FunctionDecl *Definition = analysableDefinition(FD);
  if (!Definition || !Call)
    return nullptr;
  return cachedAnalysis(CallAnalyses, Call, [&] {
    return analyse(Definition, ParameterValues);
  });
}

const CallSummary *AnalysisManager::summary(const FunctionDecl *FD) {
  const FunctionDecl *Definition = analysableDefinition(FD);
  if (!Definition)
    return nullptr;
  auto It = Summaries.find(Definition);
  if (It != Summaries.end())
    return It->second.get();
  if (InProgress.contains(Definition)) {
    // A recursive call: what the function does is what we are computing.
    auto &Recursive = RecursionSummaries[Definition];
    if (!Recursive)
      Recursive = std::make_unique<CallSummary>(conservativeSummary(Definition));
    return Recursive.get();
  }
  if (Depth >= MaxDepth)
    return nullptr;
  const FunctionDivergence *D = divergence(Definition);
  if (!D)
    return nullptr;
  // Summarising looks at the callees' summaries again; a call back to this
  // function must see the stand-in, not start over.
  InProgress.insert(Definition);
  ++Depth;
  auto Result = std::make_unique<CallSummary>(summarize(*D, *this));
  --Depth;
  InProgress.erase(Definition);
  const CallSummary *Raw = Result.get();
  Summaries[Definition] = std::move(Result);
  return Raw;
}

} // namespace clang::tidy::cuda::analysis
