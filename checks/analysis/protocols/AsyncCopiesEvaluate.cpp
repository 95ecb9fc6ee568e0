//===--- AsyncCopiesEvaluate.cpp - the queues of copies in flight --------===//
//
// The evaluate phase of the asynchronous-copy analysis (AsyncCopiesImpl.h):
// what each statement does to the queues of copies in flight (a copy, a
// commit, a wait, a barrier, a call whose body waits), and the accesses to
// a buffer that meet a copy not waited for yet.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/protocols/AsyncCopiesImpl.h"
#include "checks/analysis/core/KernelWalk.h"

namespace clang::tidy::cuda::analysis {

using namespace asynccopy;

namespace asynccopy {

void addQueue(State &S, const Queue &Q) {
  if (llvm::is_contained(S, Q))
    return;
  S.push_back(Q);
  if (S.size() <= MaxQueues)
    return;
  // Too many paths: one queue holding what any of them holds, aligned at
  // the newest stage (which the wait counts keep).
  Queue Merged;
  size_t Longest = 0;
  for (const Queue &Each : S)
    Longest = std::max(Longest, Each.Committed.size());
  Merged.Committed.resize(Longest);
  for (const Queue &Each : S) {
    size_t Shift = Longest - Each.Committed.size();
    for (size_t I = 0; I < Each.Committed.size(); ++I) {
      Stage &Into = Merged.Committed[Shift + I];
      Into.Copies |= Each.Committed[I].Copies;
      Into.Staged |= Each.Committed[I].Staged;
      if (!Into.LeftBy)
        Into.LeftBy = Each.Committed[I].LeftBy;
    }
    Merged.Open |= Each.Open;
    Merged.BarrierTied |= Each.BarrierTied;
    Merged.DoneForThisThread |= Each.DoneForThisThread;
    if (!Merged.DoneBy)
      Merged.DoneBy = Each.DoneBy;
  }
  S.clear();
  S.push_back(std::move(Merged));
}

/// A commit makes a stage even with no copy in it (cp.async.commit_group
/// of nothing): the wait counts stay right.
void push(Queue &Q, CopySet Copies) {
  Q.Committed.push_back({Copies, false, nullptr});
  if (Q.Committed.size() > MaxStages) {
    Q.Committed[1].Copies |= Q.Committed[0].Copies;
    Q.Committed[1].Staged = true;
    Q.Committed.erase(Q.Committed.begin());
  }
}

} // namespace asynccopy

std::optional<std::pair<Region, bool>>
AsyncCopyAnalysis::Impl::accessAt(const DeclRefExpr *Ref,
                                  const Expr *&Whole) const {
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || InDestination.contains(Ref))
    return std::nullopt;
  Region R;
  if (Buffers.contains(Var)) {
    R.Buffer = Var;
  } else if (std::optional<Place> Target = aliasTarget(Var, FD, 0);
             Target && Target->Var && Buffers.contains(Target->Var)) {
    R.Buffer = Target->Var;
    R.Indices = Target->Indices;
    R.ThroughAlias = true;
  } else {
    return std::nullopt;
  }
  std::vector<const Expr *> Own;
  const Expr *E = Ref;
  bool Writes = false;
  while (true) {
    const Stmt *Parent = Parents->getParentIgnoreParens(E);
    const auto *PE = dyn_cast_or_null<Expr>(Parent);
    if (!PE)
      return std::nullopt;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(PE)) {
      // Loading a pointer variable is not an access to what it points to.
      if (Cast->getCastKind() == CK_LValueToRValue &&
          (E != Ref || !Var->getType()->isPointerType()))
        break;
      E = PE;
      continue;
    }
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(PE)) {
      if (Sub->getBase()->IgnoreParens() != E)
        return std::nullopt;
      Own.push_back(Sub->getIdx());
      E = PE;
      continue;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(PE)) {
      if (Member->isArrow())
        Own.push_back(nullptr);
      E = PE;
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(PE)) {
      if (U->getOpcode() == UO_Deref) {
        Own.push_back(nullptr);
        E = PE;
        continue;
      }
      if (U->isIncrementDecrementOp()) {
        Writes = true;
        break;
      }
      if (U->getOpcode() == UO_AddrOf) {
        E = PE;
        continue;
      }
      return std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(PE)) {
      if (B->isAssignmentOp() && B->getLHS()->IgnoreParens() == E) {
        Writes = true;
        break;
      }
      return std::nullopt;
    }
    if (const auto *Call = dyn_cast<CallExpr>(PE)) {
      // A pointer handed to a parameter that points to const is read
      // (wmma::load_matrix_sync, a copy's source); anything else is not
      // followed.
      if (CopyIndex.contains(Call))
        break; // a copy's source (its destination is not an access)
      if (isa<CXXOperatorCallExpr>(Call))
        return std::nullopt;
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return std::nullopt;
      for (unsigned A = 0; A < Call->getNumArgs(); ++A) {
        if (Call->getArg(A)->IgnoreParens() != E)
          continue;
        unsigned ParamIndex = A;
        if (ParamIndex >= Callee->getNumParams())
          return std::nullopt;
        QualType T = Callee->getParamDecl(ParamIndex)->getType();
        if ((T->isPointerType() || T->isReferenceType()) &&
            T->getPointeeType().isConstQualified())
          break;
        return std::nullopt;
      }
      break;
    }
    return std::nullopt;
  }
  Whole = E;
  for (const Expr *Index : Own)
    if (R.ThroughAlias && !R.Indices.empty())
      break;
    else
      R.Indices.push_back(Index);
  R.Leading = R.Indices.empty() ? nullptr : R.Indices.front();
  return std::make_pair(std::move(R), Writes);
}

bool AsyncCopyAnalysis::Impl::conflicts(const AsyncCopy &Copy,
                                        const Region &Access,
                                        bool Staged) const {
  if (!Copy.Buffer || Copy.Buffer != Access.Buffer)
    return false;
  std::optional<uint64_t> C =
      Copy.Leading ? constantOf(Copy.Leading, Ctx) : std::optional<uint64_t>(0);
  std::optional<uint64_t> A = Access.Leading ? constantOf(Access.Leading, Ctx)
                                             : std::optional<uint64_t>(0);
  // Constant places the copy provably misses: another row of a
  // multi-dimensional buffer (a copy no longer than a row), or an element
  // outside the copied bytes of a one-dimensional one.
  const ArrayType *Array = Ctx.getAsArrayType(Copy.Buffer->getType());
  bool Rows = Array && Array->getElementType()->isArrayType();
  bool Disjoint = false;
  QualType Element = Array ? Array->getElementType()
                           : Copy.Buffer->getType()->getPointeeType();
  if (C && A && Copy.Bytes && !Access.ThroughAlias && !Element.isNull() &&
      !Element->isIncompleteType() && !Element->isDependentType()) {
    uint64_t Size = Ctx.getTypeSizeInChars(Element).getQuantity();
    if (Rows)
      Disjoint = *Copy.Bytes <= Size && *C != *A;
    else
      Disjoint = *A * Size < *C * Size || *A * Size >= *C * Size + *Copy.Bytes;
  }
  if (!Staged)
    return !Disjoint;
  // A staged copy conflicts only where it provably lands: from the
  // buffer's start, the same constant row, or (one-dimensional) the very
  // element the access names.
  if (!Copy.Leading)
    return true;
  if (Rows)
    return C && A && *C == *A && Access.Leading;
  return sameSubscripts(Copy, Access);
}

bool AsyncCopyAnalysis::Impl::sameSubscripts(const AsyncCopy &Copy,
                                             const Region &Access) const {
  if (Access.ThroughAlias || Copy.Indices.size() > Access.Indices.size())
    return false;
  for (size_t I = 0; I < Copy.Indices.size(); ++I) {
    if (!Copy.Indices[I] || !Access.Indices[I])
      return false;
    llvm::FoldingSetNodeID L;
    llvm::FoldingSetNodeID R;
    Copy.Indices[I]->IgnoreParenImpCasts()->Profile(L, Ctx, true);
    Access.Indices[I]->IgnoreParenImpCasts()->Profile(R, Ctx, true);
    if (L != R)
      return false;
  }
  return !Copy.Indices.empty();
}

void AsyncCopyAnalysis::Impl::record(const Expr *Access, const Region &R,
                                     bool Writes, unsigned Copy,
                                     EarlyAccess::Reason Why,
                                     const CallExpr *Wait) {
  auto [It, New] = EarlyOf.try_emplace(Access, Early.size());
  if (!New) {
    // Keep the strongest reason, then the oldest copy.
    EarlyAccess &Old = Early[It->second];
    if (Why < Old.Why || (Why == Old.Why && Copy < Old.Copy)) {
      Old.Why = Why;
      Old.Copy = Copy;
      Old.Wait = Wait;
    }
    return;
  }
  Early.push_back({Access, R.Buffer, Writes, Copy, Why, Wait});
}

void AsyncCopyAnalysis::Impl::apply(const Stmt *Element, State &S,
                                    bool Record) {
  if (const auto *Call = dyn_cast<CallExpr>(Element)) {
    if (auto It = CopyIndex.find(Call); It != CopyIndex.end()) {
      CopySet Bit = static_cast<CopySet>(1) << It->second;
      const AsyncCopy &Copy = Copies[It->second];
      for (Queue &Q : S) {
        switch (Copy.Api) {
        case AsyncCopyApi::CooperativeGroups:
          // It commits what is open with it.
          push(Q, Q.Open | Bit);
          Q.Open = 0;
          break;
        case AsyncCopyApi::CudaBarrier:
          Q.BarrierTied |= Bit;
          break;
        case AsyncCopyApi::CudaPipeline:
        case AsyncCopyApi::Primitive:
          Q.Open |= Bit;
          break;
        }
      }
      return;
    }
    if (auto It = Untracked.find(Call); It != Untracked.end()) {
      if (It->second == AsyncCopyApi::CooperativeGroups)
        for (Queue &Q : S) {
          push(Q, Q.Open);
          Q.Open = 0;
        }
      return;
    }
    if (isAsyncCommit(Call)) {
      for (Queue &Q : S) {
        push(Q, Q.Open);
        Q.Open = 0;
      }
      return;
    }
    if (std::optional<AsyncWait> Wait = asAsyncWait(Call)) {
      State Next;
      for (Queue Q : S) {
        CopySet Completed = 0;
        switch (Wait->K) {
        case AsyncWait::All:
          for (const Stage &St : Q.Committed)
            Completed |= St.Copies;
          Q.Committed.clear();
          if (!Wait->ThreadScope) {
            // cg::wait: the whole group's copies, the uncommitted too.
            Completed |= Q.Open;
            Q.Open = 0;
          }
          break;
        case AsyncWait::KeepNewest:
        case AsyncWait::Oldest: {
          // Complete the oldest stages (all but the newest Keep, or one),
          // and mark the ones left as left by this wait.
          size_t Keep = Wait->K == AsyncWait::KeepNewest
                            ? Wait->Keep
                            : (Q.Committed.empty() ? 0 : Q.Committed.size() - 1);
          while (Q.Committed.size() > Keep) {
            Completed |= Q.Committed.front().Copies;
            Q.Committed.erase(Q.Committed.begin());
          }
          for (Stage &St : Q.Committed) {
            St.Staged = true;
            St.LeftBy = Call;
          }
          break;
        }
        case AsyncWait::Barrier:
          Q.BarrierTied = 0;
          break;
        }
        if (Wait->ThreadScope && Completed) {
          Q.DoneForThisThread |= Completed;
          Q.DoneBy = Call;
        }
        addQueue(Next, Q);
      }
      S = std::move(Next);
      return;
    }
    if (std::optional<BarrierCall> Barrier = asBarrierCall(Call);
        Barrier && Barrier->BarrierScope >= Scope::Block) {
      State Next;
      for (Queue Q : S) {
        Q.DoneForThisThread = 0;
        Q.DoneBy = nullptr;
        addQueue(Next, Q);
      }
      S = std::move(Next);
      return;
    }
    if (calleeWaits(Call->getDirectCallee())) {
      S.assign(1, Queue());
      return;
    }
    return;
  }
  // Accesses change nothing in flight: only the recording pass looks.
  const auto *Ref = dyn_cast<DeclRefExpr>(Element);
  if (!Ref || !Record)
    return;
  const Expr *Whole = nullptr;
  std::optional<std::pair<Region, bool>> Access = accessAt(Ref, Whole);
  if (!Access)
    return;
  const Region &R = Access->first;
  bool Writes = Access->second;
  for (const Queue &Q : S) {
    auto Each = [&](CopySet Set, auto Fn) {
      for (unsigned I = 0; Set; ++I, Set >>= 1)
        if (Set & 1)
          Fn(I);
    };
    for (const Stage &St : Q.Committed)
      Each(St.Copies, [&](unsigned I) {
        if (conflicts(Copies[I], R, St.Staged))
          record(Whole, R, Writes, I,
                 St.Staged ? EarlyAccess::LeftInFlight : EarlyAccess::NoWait,
                 St.LeftBy);
      });
    Each(Q.Open | Q.BarrierTied, [&](unsigned I) {
      if (conflicts(Copies[I], R, false))
        record(Whole, R, Writes, I, EarlyAccess::NoWait, nullptr);
    });
    Each(Q.DoneForThisThread, [&](unsigned I) {
      if (conflicts(Copies[I], R, false) && !sameSubscripts(Copies[I], R))
        record(Whole, R, Writes, I, EarlyAccess::OtherThreads, Q.DoneBy);
    });
  }
}

void AsyncCopyAnalysis::Impl::transfer(const CFGBlock *Block, State &S,
                                       bool Record) {
  forEachStmtOf(*Block,
                [&](const Stmt *Element) { apply(Element, S, Record); });
}

} // namespace clang::tidy::cuda::analysis
