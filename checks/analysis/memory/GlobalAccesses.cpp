//===--- GlobalAccesses.cpp - lanes of one warp talking through memory ----===//
//
// The phases in order and the public face of the global-memory access
// analysis; the phases are GlobalAccessesCollect.cpp and
// GlobalAccessesEvaluate.cpp (GlobalAccessesImpl.h).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/GlobalAccesses.h"
#include "checks/analysis/memory/GlobalAccessesImpl.h"

namespace clang::tidy::cuda::analysis {

using namespace globalaccess;

void GlobalAccessAnalysis::Impl::run() {
  if (Opts.Call && (!Opts.Caller || !Opts.Caller->getBody()))
    return;
  if (!Opts.Call && !FD->hasAttr<CUDAGlobalAttr>())
    return;
  if (!FD->getBody())
    return;
  D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed() || !D->cfg())
    return;
  if (Opts.Caller)
    CallerD = Manager.divergence(Opts.Caller);
  BlockExtentFact X = Manager.blockExtent(kernel(), 0);
  if (X.Exact && *X.Exact >= 1)
    BlockThreads = static_cast<unsigned>(
        std::min<uint64_t>(*X.Exact, MaxBlockThreads));
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(FD->getBody()));
  if (Opts.Call)
    CallerParents =
        std::make_unique<ParentMap>(const_cast<Stmt *>(Opts.Caller->getBody()));
  // Variables written or whose address is taken: not followed.
  addVariablesNotOnlyRead(FD->getBody(), *Parents, Mutated,
                          /*Assigned=*/nullptr, /*WithArrays=*/false);
  if (Opts.Call)
    addVariablesNotOnlyRead(Opts.Caller->getBody(), *CallerParents, Mutated,
                            /*Assigned=*/nullptr, /*WithArrays=*/false);
  collect();
  if (Accesses.empty())
    return;
  buildIntervals();
  Analyzable = true;
}

// --- interface ----------------------------------------------------------------

GlobalAccessAnalysis::GlobalAccessAnalysis(const FunctionDecl *FD,
                                           ASTContext &Ctx,
                                           FactQueries &Manager,
                                           GlobalAccessOptions Options)
    : P(std::make_unique<Impl>(FD, Ctx, Manager, Options)) {
  P->run();
}

GlobalAccessAnalysis::~GlobalAccessAnalysis() = default;

const std::vector<MemoryAccess> &GlobalAccessAnalysis::accesses() const {
  return P->Accesses;
}

unsigned GlobalAccessAnalysis::blockThreads() const { return P->BlockThreads; }

std::vector<MemoryExchange> GlobalAccessAnalysis::exchanges() const {
  return P->exchanges();
}

std::vector<const CallExpr *> pointerArgumentCalls(const FunctionDecl *Kernel) {
  std::vector<const CallExpr *> Out;
  if (!Kernel || !Kernel->getBody())
    return Out;
  const SourceManager &SM = Kernel->getASTContext().getSourceManager();
  for (const CallExpr *Call : callsIn(Kernel->getBody())) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXMethodDecl>(Callee))
      continue;
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->hasBody() || Def->hasAttr<CUDAGlobalAttr>() ||
        SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())) ||
        Def->isDependentContext())
      continue;
    if (llvm::none_of(Call->arguments(), [](const Expr *A) {
          return A->getType()->isPointerType() || A->getType()->isArrayType();
        }))
      continue;
    Out.push_back(Call);
    if (Out.size() >= 64)
      break;
  }
  return Out;
}

} // namespace clang::tidy::cuda::analysis
