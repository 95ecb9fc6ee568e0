//===--- WarpMaskMismatchCheck.cpp - cuda-warp-mask-mismatch --------------===//

#include "checks/WarpMaskMismatchCheck.h"
#include "checks/DivergenceNotes.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/DivergenceAnalysis.h"
#include "checks/analysis/WarpLaneSets.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using analysis::AnalysisManager;
using analysis::LaneBits;
using analysis::LaneReach;
using analysis::WarpLanes;
using analysis::WarpLaneSets;

namespace {

constexpr LaneBits AllLanes = ~static_cast<LaneBits>(0);

std::string hexMask(uint32_t Mask) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format("0x%08x", Mask);
  return S;
}

/// The variable a mask argument is read from, when it is a plain local.
const VarDecl *maskVariable(const Expr *Mask) {
  if (isa<CXXDefaultArgExpr>(Mask))
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Mask->IgnoreParenCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->isLocalVarDecl() ? Var : nullptr;
}

bool isBitCountCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(Callee->getName())
      .Cases({"__ffs", "__ffsll", "__popc", "__popcll", "__fns", "__clz",
              "__clzll", "__brev"},
             true)
      .Default(false);
}

/// Whether \p S contains a bit-count call (__ffs, __popc, ...) with an
/// argument that reads \p Var, or, with \p Var null, any bit-count call of
/// __activemask().
bool feedsBitCount(const Stmt *S, const VarDecl *Var) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isBitCountCall(Call))
    for (const Expr *Arg : Call->arguments()) {
      const Expr *A = Arg->IgnoreParenCasts();
      if (Var) {
        if (const auto *Ref = dyn_cast<DeclRefExpr>(A);
            Ref && Ref->getDecl() == Var)
          return true;
      } else if (const auto *Inner = dyn_cast<CallExpr>(A)) {
        const FunctionDecl *F = Inner->getDirectCallee();
        if (F && F->getIdentifier() && F->getName() == "__activemask")
          return true;
      }
    }
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return feedsBitCount(Child, Var);
  });
}

/// What the lanes of a shuffle do together, for the __activemask message.
llvm::StringRef shuffleAlgorithm(llvm::StringRef Intrinsic) {
  if (Intrinsic == "__shfl_up_sync")
    return "scan";
  if (Intrinsic == "__shfl_sync")
    return "broadcast";
  return "reduction";
}

/// What is wrong in one warp.
struct WarpProblem {
  unsigned Warp = 0;
  LaneBits Callers = 0;
  /// Callers whose own bit is not in their mask.
  LaneBits LeftOut = 0;
  /// Lanes the callers' masks name that cannot reach the call.
  LaneBits Absent = 0;
  /// The mask, when every caller of this warp passes the same one.
  std::optional<uint32_t> Mask;

  bool same(const WarpProblem &O) const {
    return Callers == O.Callers && LeftOut == O.LeftOut &&
           Absent == O.Absent && Mask == O.Mask;
  }
};

} // namespace

WarpMaskMismatchCheck::WarpMaskMismatchCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ReportActiveMask(Options.get("ReportActiveMask", true)),
      AssumeBlockDimXMultipleOf32(
          Options.getLocalOrGlobal("AssumeBlockDimXMultipleOf32", false)) {}

void WarpMaskMismatchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportActiveMask", ReportActiveMask);
  Options.store(Opts, "AssumeBlockDimXMultipleOf32",
                AssumeBlockDimXMultipleOf32);
}

void WarpMaskMismatchCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("function"),
      this);
}

void WarpMaskMismatchCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || Function->isDependentContext() || !Function->getBody() ||
      !isDeviceCode(Function))
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  analysis::AnalysisOptions Opts;
  Opts.AssumeBlockDimXMultipleOf32 = AssumeBlockDimXMultipleOf32;
  AnalysisManager &Manager = AnalysisManager::forContext(Ctx, Opts);
  const analysis::FunctionDivergence *D = Manager.divergence(Function);
  if (!D || !D->isAnalyzed())
    return;

  std::vector<const CallExpr *> Sites;
  for (const CallExpr *Call : D->calls())
    if (!analysis::maskedWarpIntrinsicName(Call->getDirectCallee()).empty() &&
        Call->getNumArgs() > 0 && D->isReachable(Call))
      Sites.push_back(Call);
  if (Sites.empty())
    return;
  WarpLaneSets Lanes(Function, Ctx, Manager);

  // Per intrinsic, the lanes that may reach any of its calls: lanes a mask
  // names that reach another call of the same intrinsic are not reported
  // (__syncwarp at two places of an if/else can meet).
  llvm::StringMap<std::vector<std::pair<const CallExpr *, WarpLanes>>> ByName;
  for (const CallExpr *Call : Sites)
    if (std::optional<LaneReach> R = Lanes.reachOf(Call))
      ByName[analysis::maskedWarpIntrinsicName(Call->getDirectCallee())]
          .emplace_back(Call, R->Lanes);

  const bool Aligned = Manager.rowsAreWarpAligned(Function);
  for (const CallExpr *Call : Sites) {
    llvm::StringRef Name =
        analysis::maskedWarpIntrinsicName(Call->getDirectCallee());
    const bool Shuffle = Name.starts_with("__shfl");
    const Expr *MaskArg = Call->getArg(0);
    const bool DefaultMask = isa<CXXDefaultArgExpr>(MaskArg);
    SourceLocation Loc = SM.getExpansionLoc(
        DefaultMask ? Call->getBeginLoc() : MaskArg->getBeginLoc());
    if (SM.isInSystemHeader(Loc) || Reported.contains(Loc.getRawEncoding()))
      continue;
    auto Report = [&] { Reported.insert(Loc.getRawEncoding()); };

    auto Values = Lanes.valuesAt(MaskArg);
    std::optional<LaneReach> Reach = Lanes.reachOf(Call);
    bool AllFull = false;
    if (Values) {
      AllFull = llvm::all_of(*Values, [](uint32_t M) { return M == AllLanes; });
      if (!AllFull && Reach) {
        // The first warp with a problem, and whether every warp that
        // reaches the call has the same one.
        std::optional<WarpProblem> First;
        bool EveryWarp = true;
        for (unsigned W = 0; W < analysis::WarpsPerRow; ++W) {
          LaneBits Callers = Reach->Lanes.Bits[W];
          if (!Callers)
            continue;
          WarpProblem Problem;
          Problem.Warp = W;
          Problem.Callers = Callers;
          uint32_t FirstMask = (*Values)[W * 32 + llvm::countr_zero(Callers)];
          bool OneMask = true;
          for (unsigned L = 0; L < 32; ++L) {
            if (!(Callers >> L & 1))
              continue;
            uint32_t M = (*Values)[W * 32 + L];
            OneMask &= M == FirstMask;
            if (!(M >> L & 1))
              Problem.LeftOut |= static_cast<LaneBits>(1) << L;
            Problem.Absent |= M;
          }
          if (OneMask)
            Problem.Mask = FirstMask;
          Problem.Absent &= ~Callers;
          // Lanes that returned from the kernel have exited: a vote,
          // match or __syncwarp does not wait for them (a shuffle reads
          // them).
          if (!Shuffle)
            Problem.Absent &= ~Reach->Exited.Bits[W];
          for (const auto &[Other, OtherLanes] : ByName[Name])
            if (Other != Call)
              Problem.Absent &= ~OtherLanes.Bits[W];
          if (!Reach->Exact) {
            // Lanes that may not get here cannot be said to call.
            Problem.LeftOut = 0;
            if (!OneMask)
              Problem.Absent = 0;
          }
          // Every lane calling, no condition on the lanes, and no launch
          // showing whole-warp blocks: a block narrower than a warp may be
          // what a mask of the low lanes describes (reduce<16>'s
          // 0x0000ffff), and then the lanes above do not exist.
          if (Callers == AllLanes && !Reach->Guard && !Aligned && OneMask &&
              (FirstMask & (FirstMask + 1)) == 0)
            Problem.LeftOut = 0;
          if (!Problem.LeftOut && !Problem.Absent) {
            if (First && !First->same(Problem))
              EveryWarp = false;
            continue;
          }
          if (!First)
            First = Problem;
          else if (!First->same(Problem))
            EveryWarp = false;
        }
        if (First) {
          // A warp that reaches the call without the problem means the
          // problem is that warp's.
          for (unsigned W = 0; W < analysis::WarpsPerRow && EveryWarp; ++W)
            if (Reach->Lanes.Bits[W] && Reach->Lanes.Bits[W] != First->Callers)
              EveryWarp = false;
          std::string MaskWords =
              First->Mask ? "mask " + hexMask(*First->Mask)
                          : std::string("a mask that depends on the lane");
          if (DefaultMask)
            MaskWords = "its default mask";
          std::string Who =
              First->Callers != AllLanes
                  ? analysis::describeLanes(First->Callers)
              : EveryWarp ? std::string("the whole warp")
                          : std::string("every lane");
          if (!EveryWarp)
            Who += " of warp " + std::to_string(First->Warp) +
                   " (threadIdx.x " + std::to_string(First->Warp * 32) +
                   "\u2013" + std::to_string(First->Warp * 32 + 31) + ")";
          std::string What;
          auto Plural = [](LaneBits B) { return (B & (B - 1)) != 0; };
          if (First->LeftOut)
            What = analysis::describeLanes(First->LeftOut) +
                   (Plural(First->LeftOut)
                        ? " call with a mask that leaves them out"
                        : " calls with a mask that leaves it out");
          if (First->Absent) {
            if (!What.empty())
              What += ", and ";
            What += analysis::describeLanes(First->Absent) +
                    (Plural(First->Absent)
                         ? ", which cannot reach this call, are named in "
                           "the mask"
                         : ", which cannot reach this call, is named in the "
                           "mask");
          }
          Report();
          diag(Loc, "'%0' is called with %1 by %2: %3")
              << Name << MaskWords << Who << What;
          if (Reach->Guard)
            diag(Reach->Guard->getBeginLoc(),
                 "the lanes that reach the call are decided by this "
                 "condition being %select{false|true}0",
                 DiagnosticIDs::Note)
                << (Reach->GuardHolds ? 1 : 0);
          if (const VarDecl *Var = maskVariable(MaskArg))
            diag(Var->getLocation(), "'%0' holds the mask",
                 DiagnosticIDs::Note)
                << Var->getName();
          continue;
        }
      }
    } else if (Shuffle && ReportActiveMask &&
               analysis::isActiveMaskArgument(MaskArg, Function, Ctx)) {
      const VarDecl *Var = maskVariable(MaskArg);
      bool LeaderElection =
          feedsBitCount(Function->getBody(), Var) ||
          (Call->getNumArgs() > 2 && feedsBitCount(Call->getArg(2), nullptr));
      if (!LeaderElection) {
        Report();
        diag(Loc, "'%0' is called with '__activemask()' as its mask: it "
                  "names whichever lanes happen to be converged here, not "
                  "the lanes this %1 needs; compute the mask with "
                  "'__ballot_sync(0xffffffff, <condition>)' before the "
                  "branch, or use 'cg::coalesced_threads()' if whoever "
                  "arrives is meant")
            << Name << shuffleAlgorithm(Name);
        if (Var)
          diag(Var->getLocation(), "'%0' holds '__activemask()'",
               DiagnosticIDs::Note)
              << Var->getName();
        continue;
      }
    }

    // The width of a shuffle: a power of two from 1 to 32.
    if (!Shuffle || Call->getNumArgs() < 4 ||
        isa<CXXDefaultArgExpr>(Call->getArg(3)))
      continue;
    // A full mask under lane-divergent control flow is cuda-full-warp-mask's
    // finding at this site.
    if (AllFull && D->divergenceAt(Call, analysis::Level::warp()))
      continue;
    auto Widths = Lanes.valuesAt(Call->getArg(3));
    if (!Widths)
      continue;
    auto Width = static_cast<int32_t>((*Widths)[0]);
    if (!llvm::all_of(*Widths, [&](uint32_t V) {
          return static_cast<int32_t>(V) == Width;
        }))
      continue;
    if (Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0)
      continue;
    SourceLocation WidthLoc = SM.getExpansionLoc(Call->getArg(3)->getBeginLoc());
    Report();
    diag(WidthLoc, "'%0' is called with width %1, which is not a power of "
                   "two from 1 to 32: the shuffle's result is undefined")
        << Name << Width;
  }
}

} // namespace clang::tidy::cuda
