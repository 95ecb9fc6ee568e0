//===--- WarpLaneSetsWalk.cpp - the lanes that reach each call ------------===//
//
// The walk of the lane-set analysis (WarpLaneSetsImpl.h): one pass over the
// body's statements in order, carrying the lanes of each warp that get
// there; branches split them by their decoded conditions and join them
// again, early exits take their lanes out of what follows, and each call
// records the lanes that reach it.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/lanes/WarpLaneSetsImpl.h"

#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda::analysis {

using namespace lanesets;

namespace {

/// Lanes of two paths that meet again.
State joinPaths(const State &A, const State &B, Split How,
                const State &Before, bool ArmsEscaped) {
  State R = A;
  R.Exited = A.Exited | B.Exited;
  if (How == Split::Unknown && !ArmsEscaped) {
    // Every lane that went into either arm comes out: the warp is whole
    // again, as it was before the branch.
    State Whole = Before;
    Whole.Exited = R.Exited;
    return Whole;
  }
  R.Lanes = A.Lanes | B.Lanes;
  if (How == Split::Decoded)
    R.Exact = A.Exact && B.Exact;
  else if (A.Lanes.empty())
    R.Exact = B.Exact;
  else if (B.Lanes.empty())
    R.Exact = A.Exact;
  else
    R.Exact = A.Exact && B.Exact && A.Lanes == B.Lanes;
  if (How == Split::Unknown)
    R.Exact = false;
  if (R.Lanes == Before.Lanes) {
    R.Guard = Before.Guard;
    R.GuardHolds = Before.GuardHolds;
  } else if (!A.Guard || A.Lanes.empty()) {
    R.Guard = B.Guard;
    R.GuardHolds = B.GuardHolds;
  }
  return R;
}

/// A call after which the thread does not go on: declared noreturn, or one
/// of the device-side stops clang's CUDA wrappers declare without the
/// attribute (`assert` calls __assert_fail).
bool doesNotReturn(const FunctionDecl *Callee) {
  if (!Callee)
    return false;
  if (Callee->isNoReturn())
    return true;
  return isUnmarkedDeviceStop(Callee);
}

bool containsGoto(const Stmt *S) {
  if (!S)
    return false;
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  return llvm::any_of(S->children(),
                      [](const Stmt *Child) { return containsGoto(Child); });
}

} // namespace

bool WarpLaneSets::Impl::escapedSince(size_t FirstExit,
                                      size_t FrameDepth) const {
  for (size_t I = FirstExit; I < Exits.size(); ++I)
    if (Exits[I] < static_cast<int>(FrameDepth))
      return true;
  return false;
}

void WarpLaneSets::Impl::record(const CallExpr *Call, const State &S) {
  LaneReach R;
  R.Lanes = S.Lanes;
  R.Exited = S.Exited;
  R.Exact = S.Exact;
  R.Guard = S.Guard;
  R.GuardHolds = S.GuardHolds;
  auto [It, New] = Reach.try_emplace(Call, R);
  if (!New) {
    It->second.Lanes = It->second.Lanes | R.Lanes;
    It->second.Exact = false;
    return;
  }
  Order.push_back(Call);
}

State WarpLaneSets::Impl::stopHere(const State &In) {
  State Out = In.stopped();
  if (IsKernel)
    Out.Exited = Out.Exited | In.Lanes;
  for (Frame &F : Frames)
    F.Returned = F.Returned | In.Lanes;
  Exits.push_back(-1);
  return Out;
}

State WarpLaneSets::Impl::branch(const Expr *Cond, const Stmt *Then,
                                 const Stmt *Else, const State &In) {
  Split How;
  size_t FirstExit = Exits.size();
  State ThenIn = restrict(In, Cond, true, How);
  State ElseIn = restrict(In, Cond, false, How);
  State ThenOut = walk(Then, ThenIn);
  State ElseOut = Else ? walk(Else, ElseIn) : ElseIn;
  return joinPaths(ThenOut, ElseOut, How, In,
                   escapedSince(FirstExit, Frames.size()));
}

State WarpLaneSets::Impl::walkExpr(const Expr *E, State In) {
  if (!E)
    return In;
  if (isa<LambdaExpr>(E) || isa<BlockExpr>(E))
    return In;
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
    State S = walkExpr(Cond->getCond(), In);
    return branch(Cond->getCond(), Cond->getTrueExpr(),
                  Cond->getFalseExpr(), S);
  }
  if (const auto *Bin = dyn_cast<BinaryOperator>(E);
      Bin && Bin->isLogicalOp()) {
    State S = walkExpr(Bin->getLHS(), In);
    Split How;
    size_t FirstExit = Exits.size();
    bool And = Bin->getOpcode() == BO_LAnd;
    State RhsIn = restrict(S, Bin->getLHS(), And, How);
    State Short = restrict(S, Bin->getLHS(), !And, How);
    State RhsOut = walkExpr(Bin->getRHS(), RhsIn);
    return joinPaths(RhsOut, Short, How, S,
                     escapedSince(FirstExit, Frames.size()));
  }
  if (const auto *Binary = dyn_cast<BinaryConditionalOperator>(E)) {
    State S = walkExpr(Binary->getCommon(), In);
    State Maybe = S;
    Maybe.Exact = false;
    size_t FirstExit = Exits.size();
    State Out = walkExpr(Binary->getFalseExpr(), Maybe);
    return joinPaths(S, Out, Split::Unknown, S,
                     escapedSince(FirstExit, Frames.size()));
  }
  State S = In;
  for (const Stmt *Child : E->children())
    S = walk(Child, S);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    record(Call, S);
    if (doesNotReturn(Call->getDirectCallee()))
      return stopHere(S);
  }
  return S;
}

State WarpLaneSets::Impl::walkLoop(const Expr *Cond, const Stmt *Body,
                                   const Expr *Inc, bool CondFirst,
                                   const State &In) {
  size_t FirstRecord = Order.size();
  size_t FirstExit = Exits.size();
  State Enter = In;
  Split How = Split::Uniform;
  if (CondFirst && Cond) {
    Enter = walkExpr(Cond, Enter);
    Enter = restrict(Enter, Cond, true, How);
  }
  Frames.emplace_back();
  Frames.back().IsLoop = true;
  Frames.back().Entry = Enter;
  State BodyOut = walk(Body, Enter);
  Frame F = Frames.back();
  Frames.pop_back();
  State Around = BodyOut;
  if (F.AnyContinued)
    Around = joinPaths(BodyOut, F.Continued, Split::Uniform, Enter, true);
  Around = walkExpr(Inc, Around);
  if (!CondFirst && Cond) {
    Around = walkExpr(Cond, Around);
    Around = restrict(Around, Cond, true, How);
  }
  // The lanes that did not come around: a call none of them reached in
  // the first iteration sees the same lanes in every later one (its lanes
  // are those of the loop's entry less what the body's decoded conditions
  // and exits take, each the same every time).
  WarpLanes Left = Enter.Lanes.without(Around.Lanes);
  bool SameEveryIteration = How != Split::Unknown && Around.Exact;
  for (size_t I = FirstRecord; I < Order.size(); ++I) {
    LaneReach &R = Reach[Order[I]];
    if (!SameEveryIteration || !(R.Lanes & Left).empty())
      R.Exact = false;
  }
  State Out = In;
  Out.Exited = In.Exited | BodyOut.Exited | F.Broke.Exited |
               F.Continued.Exited;
  bool Returned = false;
  for (size_t I = FirstExit; I < Exits.size(); ++I)
    Returned |= Exits[I] < 0;
  if (Returned) {
    Out.Lanes = In.Lanes.without(F.Returned);
    Out.Exact = false;
    for (Frame &Outer : Frames)
      Outer.Returned = Outer.Returned | F.Returned;
  }
  return Out;
}

State WarpLaneSets::Impl::walkSwitch(const SwitchStmt *Switch, State In) {
  In = walk(Switch->getInit(), In);
  In = walk(Switch->getConditionVariableDeclStmt(), In);
  In = walkExpr(Switch->getCond(), In);
  size_t FirstExit = Exits.size();
  Frames.emplace_back();
  Frame &F = Frames.back();
  F.IsLoop = false;
  F.Entry = In;
  if (!isWarpUniform(Switch->getCond()))
    F.Entry.Exact = false;
  size_t Depth = Frames.size();
  walk(Switch->getBody(), In.stopped());
  Frames.pop_back();
  State Out = In;
  if (escapedSince(FirstExit, Depth - 1))
    Out.Exact = false;
  return Out;
}

State WarpLaneSets::Impl::walk(const Stmt *S, State In) {
  if (!S)
    return In;
  if (const auto *E = dyn_cast<Expr>(S))
    return walkExpr(E, In);
  switch (S->getStmtClass()) {
  case Stmt::CompoundStmtClass: {
    for (const Stmt *Child : cast<CompoundStmt>(S)->body())
      In = walk(Child, In);
    return In;
  }
  case Stmt::IfStmtClass: {
    const auto *If = cast<IfStmt>(S);
    In = walk(If->getInit(), In);
    In = walk(If->getConditionVariableDeclStmt(), In);
    if (If->isConsteval())
      return In;
    In = walkExpr(If->getCond(), In);
    return branch(If->getCond(), If->getThen(), If->getElse(), In);
  }
  case Stmt::ForStmtClass: {
    const auto *For = cast<ForStmt>(S);
    In = walk(For->getInit(), In);
    In = walk(For->getConditionVariableDeclStmt(), In);
    return walkLoop(For->getCond(), For->getBody(), For->getInc(), true, In);
  }
  case Stmt::WhileStmtClass: {
    const auto *While = cast<WhileStmt>(S);
    In = walk(While->getConditionVariableDeclStmt(), In);
    return walkLoop(While->getCond(), While->getBody(), nullptr, true, In);
  }
  case Stmt::DoStmtClass: {
    const auto *Do = cast<DoStmt>(S);
    return walkLoop(Do->getCond(), Do->getBody(), nullptr, false, In);
  }
  case Stmt::CXXForRangeStmtClass: {
    const auto *Range = cast<CXXForRangeStmt>(S);
    In = walk(Range->getInit(), In);
    In = walk(Range->getRangeStmt(), In);
    In = walk(Range->getBeginStmt(), In);
    In = walk(Range->getEndStmt(), In);
    State Body = walk(Range->getLoopVarStmt(), In);
    (void)Body;
    return walkLoop(Range->getCond(), Range->getBody(), Range->getInc(),
                    true, In);
  }
  case Stmt::SwitchStmtClass:
    return walkSwitch(cast<SwitchStmt>(S), In);
  case Stmt::CaseStmtClass:
  case Stmt::DefaultStmtClass: {
    for (auto It = Frames.rbegin(); It != Frames.rend(); ++It)
      if (!It->IsLoop) {
        In = joinPaths(In, It->Entry, Split::Uniform, It->Entry, true);
        break;
      }
    return walk(cast<SwitchCase>(S)->getSubStmt(), In);
  }
  case Stmt::ReturnStmtClass: {
    In = walkExpr(cast<ReturnStmt>(S)->getRetValue(), In);
    return stopHere(In);
  }
  case Stmt::BreakStmtClass:
  case Stmt::ContinueStmtClass: {
    bool Continue = isa<ContinueStmt>(S);
    for (int I = static_cast<int>(Frames.size()) - 1; I >= 0; --I) {
      Frame &F = Frames[I];
      if (Continue && !F.IsLoop)
        continue;
      bool &Any = Continue ? F.AnyContinued : F.AnyBroke;
      State &Acc = Continue ? F.Continued : F.Broke;
      Acc = Any ? joinPaths(Acc, In, Split::Uniform, F.Entry, true) : In;
      Any = true;
      Exits.push_back(I);
      break;
    }
    return In.stopped();
  }
  case Stmt::CXXTryStmtClass: {
    In.Exact = false;
    break;
  }
  default:
    break;
  }
  for (const Stmt *Child : S->children())
    In = walk(Child, In);
  return In;
}

void WarpLaneSets::Impl::run() {
  State Entry;
  if (Site && CallerP) {
    // The lanes the caller brings (none when it never gets to the call).
    auto Found = CallerP->Reach.find(Site);
    Entry.Lanes = WarpLanes();
    if (Found != CallerP->Reach.end()) {
      Entry.Lanes = Found->second.Lanes;
      Entry.Exited = Found->second.Exited;
      Entry.Exact = Found->second.Exact;
      Entry.Guard = Found->second.Guard;
      Entry.GuardHolds = Found->second.GuardHolds;
    }
  }
  if (containsGoto(FD->getBody()))
    Entry.Exact = false;
  walk(FD->getBody(), Entry);
}

} // namespace clang::tidy::cuda::analysis
