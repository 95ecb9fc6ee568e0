//===--- WarpMaskMismatchCheck.cpp - cuda-warp-mask-mismatch --------------===//

#include "checks/WarpMaskMismatchCheck.h"
#include "checks/ProjectOptions.h"
#include "checks/DivergenceNotes.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/lanes/WarpLaneSets.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringMap.h"
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
  return Call && analysis::isBitCountFunction(Call->getDirectCallee());
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
        if (analysis::isActiveMaskFunction(Inner->getDirectCallee()))
          return true;
      }
    }
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return feedsBitCount(Child, Var);
  });
}

/// What the lanes of a shuffle do together, for the __activemask message.
llvm::StringRef shuffleAlgorithm(llvm::StringRef Intrinsic) {
  std::optional<analysis::ShuffleKind> Kind =
      analysis::maskedShuffleKind(Intrinsic);
  if (Kind == analysis::ShuffleKind::Up)
    return "scan";
  if (Kind == analysis::ShuffleKind::Idx)
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
          projectFlag(Options, "AssumeBlockDimXMultipleOf32",
                      BlockDimXMultipleOf32Option, false)) {}

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

namespace {

/// What is wrong at one warp intrinsic, under one walk of its function.
struct Verdict {
  /// Where the finding goes when it is reported at the intrinsic.
  SourceLocation Loc;
  /// The message after "'<intrinsic>' is called ".
  std::string Tail;
  /// An __activemask() shuffle: the same in every context.
  bool ActiveMask = false;
  const Expr *Guard = nullptr;
  bool GuardHolds = true;
  /// The local that holds the mask (for a note).
  const VarDecl *MaskVar = nullptr;
};

/// The lanes that reach each intrinsic of one walk, by intrinsic: lanes a
/// mask names that reach another call of the same intrinsic are not
/// reported (__syncwarp at two places of an if/else can meet).
using LanesByIntrinsic =
    llvm::StringMap<std::vector<std::pair<const CallExpr *, WarpLanes>>>;

LanesByIntrinsic lanesByIntrinsic(llvm::ArrayRef<const CallExpr *> Sites,
                                  const WarpLaneSets &Lanes) {
  LanesByIntrinsic ByName;
  for (const CallExpr *Call : Sites)
    if (std::optional<LaneReach> R = Lanes.reachOf(Call))
      ByName[analysis::maskedWarpIntrinsicName(Call->getDirectCallee())]
          .emplace_back(Call, R->Lanes);
  return ByName;
}

/// The masked warp intrinsics \p D's function reaches, in source order.
std::vector<const CallExpr *>
intrinsicSites(const analysis::FunctionDivergence &D) {
  std::vector<const CallExpr *> Sites;
  for (const CallExpr *Call : D.calls())
    if (!analysis::maskedWarpIntrinsicName(Call->getDirectCallee()).empty() &&
        Call->getNumArgs() > 0 && D.isReachable(Call))
      Sites.push_back(Call);
  return Sites;
}

struct Judge {
  const WarpLaneSets &Lanes;
  const analysis::FunctionDivergence &D;
  const FunctionDecl *Function;
  const LanesByIntrinsic &ByName;
  /// The kernel's rows are whole warps (the launches or the option say).
  bool Aligned;
  bool ReportActiveMask;
  ASTContext &Ctx;

  std::optional<Verdict> operator()(const CallExpr *Call) const;
};

std::optional<Verdict> Judge::operator()(const CallExpr *Call) const {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Name =
      analysis::maskedWarpIntrinsicName(Call->getDirectCallee());
  const bool Shuffle = analysis::maskedShuffleKind(Name).has_value();
  const Expr *MaskArg = Call->getArg(0);
  const bool DefaultMask = isa<CXXDefaultArgExpr>(MaskArg);
  Verdict V;
  V.Loc = SM.getExpansionLoc(DefaultMask ? Call->getBeginLoc()
                                         : MaskArg->getBeginLoc());
  auto Values = Lanes.valuesAt(MaskArg);
  std::optional<LaneReach> Reach = Lanes.reachOf(Call);
  if (Reach) {
    V.Guard = Reach->Guard;
    V.GuardHolds = Reach->GuardHolds;
  }
  bool AllFull = false;
  if (Values) {
    AllFull = llvm::all_of(*Values, [](uint32_t M) { return M == AllLanes; });
    if (!AllFull && Reach) {
      // The first warp with a problem, and whether every warp that
      // reaches the call has the same one.
      std::optional<WarpProblem> First;
      bool EveryWarp = true;
      auto It = ByName.find(Name);
      for (unsigned W = 0; W < analysis::WarpsPerRow; ++W) {
        LaneBits Callers = Reach->Lanes.Bits[W];
        if (!Callers)
          continue;
        WarpProblem Problem;
        Problem.Warp = W;
        Problem.Callers = Callers;
        auto [FirstMask, OneMask] = analysis::warpMask(*Values, W, Callers);
        for (unsigned L = 0; L < 32; ++L) {
          if (!(Callers >> L & 1))
            continue;
          uint32_t M = (*Values)[W * 32 + L];
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
        if (It != ByName.end())
          for (const auto &[Other, OtherLanes] : It->second)
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
        std::string Who = First->Callers != AllLanes
                              ? analysis::describeLanes(First->Callers)
                          : EveryWarp ? std::string("the whole warp")
                                      : std::string("every lane");
        if (!EveryWarp)
          Who += " of warp " + std::to_string(First->Warp) + " (threadIdx.x " +
                 std::to_string(First->Warp * 32) + "\u2013" +
                 std::to_string(First->Warp * 32 + 31) + ")";
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
        V.Tail = "with " + MaskWords + " by " + Who + ": " + What;
        V.MaskVar = maskVariable(MaskArg);
        return V;
      }
    }
  } else if (Shuffle && ReportActiveMask &&
             analysis::isActiveMaskArgument(MaskArg, Function, Ctx)) {
    const VarDecl *Var = maskVariable(MaskArg);
    bool LeaderElection =
        feedsBitCount(Function->getBody(), Var) ||
        (Call->getNumArgs() > 2 && feedsBitCount(Call->getArg(2), nullptr));
    if (!LeaderElection) {
      V.ActiveMask = true;
      V.Tail = ("with '__activemask()' as its mask: it names whichever "
                "lanes happen to be converged here, not the lanes this " +
                shuffleAlgorithm(Name) +
                " needs; compute the mask with '__ballot_sync(0xffffffff, "
                "<condition>)' before the branch, or use "
                "'cg::coalesced_threads()' if whoever arrives is meant")
                   .str();
      V.MaskVar = Var;
      V.Guard = nullptr;
      return V;
    }
  }

  if (!Shuffle)
    return std::nullopt;
  // A full mask under lane-divergent control flow is cuda-full-warp-mask's
  // finding at this site.
  if (AllFull && D.divergenceAt(Call, analysis::Level::warp()))
    return std::nullopt;
  const bool ExplicitWidth =
      Call->getNumArgs() >= 4 && !isa<CXXDefaultArgExpr>(Call->getArg(3));
  // The width of a shuffle: a power of two from 1 to 32.
  if (ExplicitWidth) {
    auto Widths = Lanes.valuesAt(Call->getArg(3));
    if (!Widths)
      return std::nullopt;
    auto Width = static_cast<int32_t>((*Widths)[0]);
    if (!llvm::all_of(*Widths, [&](uint32_t W) {
          return static_cast<int32_t>(W) == Width;
        }))
      return std::nullopt;
    if (Width < 1 || Width > 32 || (Width & (Width - 1)) != 0) {
      V.Loc = SM.getExpansionLoc(Call->getArg(3)->getBeginLoc());
      V.Tail = "with width " + std::to_string(Width) +
               ", which is not a power of two from 1 to 32: the shuffle's "
               "result is undefined";
      V.Guard = nullptr;
      return V;
    }
  }
  // The width and the mask: lanes read lanes of their segment.
  std::optional<analysis::ShuffleReadProblem> Reads =
      Lanes.shuffleReadProblem(Call);
  if (!Reads)
    return std::nullopt;
  if (Reads->Readers) {
    bool One = (Reads->Readers & (Reads->Readers - 1)) == 0;
    V.Tail = "with mask " + hexMask(Reads->Mask) +
             (ExplicitWidth ? " and width " + std::to_string(Reads->Width)
                            : std::string()) +
             ": " + analysis::describeLanes(Reads->Readers) +
             (One ? " reads " : " read ") +
             analysis::describeLanes(Reads->Unnamed) +
             ", which the mask leaves out; the value read is undefined";
    return V;
  }
  V.Loc = SM.getExpansionLoc(Call->getArg(3)->getBeginLoc());
  LaneBits Left = Reads->Segment & ~Reads->NamedInSegment;
  V.Tail = "with width " + std::to_string(Reads->Width) + " and mask " +
           hexMask(Reads->Mask) + ", which names " +
           analysis::describeLanes(Reads->NamedInSegment) +
           " of the segment of lanes " +
           analysis::describeLanes(Reads->Segment).substr(6) +
           " and leaves out " + analysis::describeLanes(Left) +
           ": the lanes of a segment read one another as the offsets go";
  return V;
}

/// The note at the condition that decided the lanes of a finding.
void noteGuard(ClangTidyCheck &Check, const Verdict &V) {
  if (V.Guard)
    Check.diag(V.Guard->getBeginLoc(),
               "the lanes that reach the call are decided by this condition "
               "being %select{false|true}0",
               DiagnosticIDs::Note)
        << (V.GuardHolds ? 1 : 0);
}

/// How deep call-site context follows calls (a kernel, a wrapper, the
/// wrapper's wrapper).
constexpr unsigned MaxContextDepth = 2;

} // namespace

void WarpMaskMismatchCheck::onStartOfTranslationUnit() {
  Reported.clear();
  OwnWalks.clear();
  CallWalks.clear();
  HasSites.clear();
}

bool WarpMaskMismatchCheck::reachesIntrinsics(const FunctionDecl *FD,
                                              unsigned Depth,
                                              AnalysisManager &Manager) {
  if (!FD || Depth > MaxContextDepth)
    return false;
  auto Key = std::make_pair(FD, Depth);
  auto Found = HasSites.find(Key);
  if (Found != HasSites.end())
    return Found->second;
  HasSites[Key] = false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  const analysis::FunctionDivergence *D =
      FD->isDependentContext() || SM.isInSystemHeader(FD->getLocation())
          ? nullptr
          : Manager.divergence(FD);
  bool Result = false;
  if (D && D->isAnalyzed()) {
    Result = !intrinsicSites(*D).empty();
    for (const CallExpr *Call : D->calls()) {
      if (Result)
        break;
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Callee->getDefinition() && Depth < MaxContextDepth &&
          analysis::maskedWarpIntrinsicName(Callee).empty())
        Result = reachesIntrinsics(Callee->getDefinition(), Depth + 1,
                                   Manager);
    }
  }
  return HasSites[Key] = Result;
}

const WarpLaneSets &WarpMaskMismatchCheck::ownWalk(const FunctionDecl *FD,
                                                   AnalysisManager &Manager) {
  std::unique_ptr<WarpLaneSets> &Slot = OwnWalks[FD];
  if (!Slot)
    Slot = std::make_unique<WarpLaneSets>(FD, FD->getASTContext(), Manager);
  return *Slot;
}

const WarpLaneSets &WarpMaskMismatchCheck::callWalk(const CallExpr *Call,
                                                    const FunctionDecl *Callee,
                                                    const FunctionDecl *Caller,
                                                    AnalysisManager &Manager) {
  std::unique_ptr<WarpLaneSets> &Slot = CallWalks[Call];
  if (!Slot)
    Slot = std::make_unique<WarpLaneSets>(Callee, Callee->getASTContext(),
                                          Manager, Call,
                                          ownWalk(Caller, Manager));
  return *Slot;
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
  if (!D || !D->isAnalyzed() || !reachesIntrinsics(Function, 0, Manager))
    return;
  const bool Aligned = Manager.rowsAreWarpAligned(Function);
  const WarpLaneSets &Lanes = ownWalk(Function, Manager);

  std::vector<const CallExpr *> Sites = intrinsicSites(*D);
  LanesByIntrinsic ByName = lanesByIntrinsic(Sites, Lanes);
  Judge Own{Lanes, *D, Function, ByName, Aligned, ReportActiveMask, Ctx};
  for (const CallExpr *Call : Sites) {
    std::optional<Verdict> V = Own(Call);
    if (!V || SM.isInSystemHeader(V->Loc) ||
        Reported.contains(V->Loc.getRawEncoding()))
      continue;
    Reported.insert(V->Loc.getRawEncoding());
    diag(V->Loc, "'%0' is called %1")
        << analysis::maskedWarpIntrinsicName(Call->getDirectCallee())
        << V->Tail;
    noteGuard(*this, *V);
    if (V->MaskVar)
      diag(V->MaskVar->getLocation(),
           V->ActiveMask ? "'%0' holds '__activemask()'" : "'%0' holds the mask",
           DiagnosticIDs::Note)
          << V->MaskVar->getName();
  }

  // Call-site context: the intrinsics of the functions this one calls, with
  // the lanes and the arguments of each call.
  for (const CallExpr *Call : D->calls()) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getDefinition() || !D->isReachable(Call) ||
        !analysis::maskedWarpIntrinsicName(Callee).empty())
      continue;
    const FunctionDecl *Def = Callee->getDefinition();
    if (Def == Function || !reachesIntrinsics(Def, 1, Manager))
      continue;
    SourceLocation Loc = SM.getExpansionLoc(beginOf(Call));
    if (SM.isInSystemHeader(Loc) || Reported.contains(Loc.getRawEncoding()))
      continue;
    reportThroughCall(Call, Call, Function, Def, 1, Aligned, Manager);
  }
}

bool WarpMaskMismatchCheck::reportThroughCall(
    const CallExpr *Outer, const CallExpr *Call, const FunctionDecl *Caller,
    const FunctionDecl *Callee, unsigned Depth, bool Aligned,
    AnalysisManager &Manager) {
  ASTContext &Ctx = Callee->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const analysis::FunctionDivergence *CalleeD = Manager.divergence(Callee);
  if (!CalleeD || !CalleeD->isAnalyzed())
    return false;
  // The walk of the callee as this chain of calls makes it.
  std::unique_ptr<WarpLaneSets> Chained;
  const WarpLaneSets *InCall = nullptr;
  if (Outer == Call) {
    InCall = &callWalk(Call, Callee, Caller, Manager);
  } else {
    Chained = std::make_unique<WarpLaneSets>(Callee, Ctx, Manager, Call,
                                             *ChainCaller);
    InCall = Chained.get();
  }
  std::vector<const CallExpr *> Sites = intrinsicSites(*CalleeD);
  LanesByIntrinsic ByName = lanesByIntrinsic(Sites, *InCall);
  Judge InContext{*InCall, *CalleeD, Callee, ByName,
                  Aligned, ReportActiveMask, Ctx};
  // What the callee shows alone (reported in it), and, for a call made
  // in a callee, what the callee's own call shows (reported there).
  const WarpLaneSets &Alone = ownWalk(Callee, Manager);
  LanesByIntrinsic AloneByName = lanesByIntrinsic(Sites, Alone);
  Judge ByItself{Alone, *CalleeD, Callee, AloneByName,
                 Manager.rowsAreWarpAligned(Callee), ReportActiveMask, Ctx};
  std::optional<Judge> Shorter;
  std::optional<LanesByIntrinsic> ShorterByName;
  if (Outer != Call) {
    const WarpLaneSets &Direct = callWalk(Call, Callee, Caller, Manager);
    ShorterByName = lanesByIntrinsic(Sites, Direct);
    Shorter.emplace(Judge{Direct, *CalleeD, Callee, *ShorterByName,
                          Manager.rowsAreWarpAligned(Caller),
                          ReportActiveMask, Ctx});
  }
  for (const CallExpr *Site : Sites) {
    std::optional<Verdict> V = InContext(Site);
    if (!V || V->ActiveMask || ByItself(Site) || (Shorter && (*Shorter)(Site)))
      continue;
    SourceLocation Loc = SM.getExpansionLoc(beginOf(Outer));
    Reported.insert(Loc.getRawEncoding());
    llvm::StringRef Name =
        analysis::maskedWarpIntrinsicName(Site->getDirectCallee());
    std::string Tail = V->Tail;
    diag(Loc, "call to '%0' reaches '%1' %2")
        << calleeDisplayName(Outer) << Name << Tail;
    diag(V->Loc, "'%0' is called here, in '%1'", DiagnosticIDs::Note)
        << Name << Callee->getNameAsString();
    noteGuard(*this, *V);
    return true;
  }
  if (Depth >= MaxContextDepth)
    return false;
  for (const CallExpr *Inner : CalleeD->calls()) {
    const FunctionDecl *Next = Inner->getDirectCallee();
    if (!Next || !Next->getDefinition() || !CalleeD->isReachable(Inner) ||
        !analysis::maskedWarpIntrinsicName(Next).empty())
      continue;
    const FunctionDecl *Def = Next->getDefinition();
    if (Def == Callee || Def == Caller ||
        !reachesIntrinsics(Def, Depth + 1, Manager))
      continue;
    const WarpLaneSets *Saved = ChainCaller;
    ChainCaller = InCall;
    bool Found = reportThroughCall(Outer, Inner, Callee, Def, Depth + 1,
                                   Aligned, Manager);
    ChainCaller = Saved;
    if (Found)
      return true;
  }
  return false;
}

} // namespace clang::tidy::cuda
