//===--- CudaBuiltins.cpp - the CUDA device API the analyses know ----------===//

#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::cuda::analysis {

namespace {

/// The built-in index variable a record type stands for
/// (__cuda_builtin_threadIdx_t and friends, declared by clang's CUDA
/// headers).
std::optional<BuiltinIndexRead::Variable> builtinVariableOfType(QualType T) {
  const auto *Record = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!Record || !Record->getIdentifier())
    return std::nullopt;
  return llvm::StringSwitch<std::optional<BuiltinIndexRead::Variable>>(
             Record->getName())
      .Case("__cuda_builtin_threadIdx_t", BuiltinIndexRead::ThreadIdx)
      .Case("__cuda_builtin_blockIdx_t", BuiltinIndexRead::BlockIdx)
      .Case("__cuda_builtin_blockDim_t", BuiltinIndexRead::BlockDim)
      .Case("__cuda_builtin_gridDim_t", BuiltinIndexRead::GridDim)
      .Default(std::nullopt);
}

/// The unqualified name of a declaration, or "" for operators, conversion
/// functions and other names that are not identifiers.
llvm::StringRef identifierOf(const NamedDecl *D) {
  if (const IdentifierInfo *II = D ? D->getIdentifier() : nullptr)
    return II->getName();
  return "";
}

char componentOfName(llvm::StringRef Name) {
  // Properties are x/y/z; their getters are __fetch_builtin_x/y/z.
  if (Name.consume_front("__fetch_builtin_") || Name.size() == 1)
    if (Name == "x" || Name == "y" || Name == "z")
      return Name[0];
  return 0;
}

/// The unqualified name of a function, or "" for operators and the like.
llvm::StringRef plainName(const FunctionDecl *FD) {
  if (!FD)
    return "";
  if (const IdentifierInfo *II = FD->getIdentifier())
    return II->getName();
  return "";
}

bool isGlobalOrBuiltin(const FunctionDecl *FD) {
  return FD->getBuiltinID() != 0 ||
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

QualType handleType(const Expr *Handle, bool ThroughPointer) {
  QualType T = Handle->getType();
  if (ThroughPointer && T->isPointerType())
    T = T->getPointeeType();
  return T.getNonReferenceType();
}

std::optional<GroupOperand> groupOfHandle(const Expr *Handle,
                                          bool ThroughPointer) {
  QualType T = handleType(Handle, ThroughPointer);
  std::optional<GroupKind> Kind = groupKindOfType(T);
  if (!Kind)
    return std::nullopt;
  GroupOperand Group;
  Group.Kind = *Kind;
  Group.Handle = Handle;
  if (*Kind == GroupKind::Tile)
    Group.TileSize = tileSizeOfType(T);
  return Group;
}

const char *barrierMethodSpelling(llvm::StringRef Method) {
  return llvm::StringSwitch<const char *>(Method)
      .Case("sync", "sync()")
      .Case("barrier_arrive", "barrier_arrive()")
      .Case("barrier_wait", "barrier_wait()")
      .Default(nullptr);
}

std::optional<Scope> barrierScopeOfGroup(GroupKind Kind) {
  switch (Kind) {
  case GroupKind::ThreadBlock:
    return Scope::Block;
  case GroupKind::ClusterGroup:
    return Scope::Cluster;
  case GroupKind::GridGroup:
  case GroupKind::MultiGridGroup:
    return Scope::Grid;
  default:
    // Tiles and coalesced groups synchronise within a warp (or a multi-warp
    // tile); the type-erased thread_group could be anything.
    return std::nullopt;
  }
}

ResultModel fixed(Level L, OriginKind Origin = OriginKind::Intrinsic) {
  ResultModel M;
  M.Rule = ResultRule::Fixed;
  M.FixedLevel = L;
  M.Origin = Origin;
  return M;
}

ResultModel warpCollective(int ValueArg, int MaskArg) {
  ResultModel M;
  M.Rule = ResultRule::WarpCollective;
  M.FixedLevel = Level::warp();
  M.ValueArg = ValueArg;
  M.MaskArg = MaskArg;
  M.Origin = OriginKind::Intrinsic;
  return M;
}

ResultModel shuffle(ResultRule Rule, int ValueArg, int SourceArg,
                    int WidthArg, Level Within) {
  ResultModel M;
  M.Rule = Rule;
  M.ValueArg = ValueArg;
  M.SourceArg = SourceArg;
  M.WidthArg = WidthArg;
  M.ShuffleLevel = Within;
  M.Origin = OriginKind::Intrinsic;
  return M;
}

/// The special registers, read as NVVM builtins or named in PTX.
std::optional<Level> specialRegisterLevel(llvm::StringRef Reg,
                                          OriginKind &Origin) {
  Origin = OriginKind::HardwareIndex;
  if (Reg.starts_with("tid") || Reg == "laneid")
    return Level::thread();
  if (Reg.starts_with("lanemask") || Reg.starts_with("clock") ||
      Reg == "globaltimer") {
    Origin = OriginKind::Intrinsic;
    return Level::thread();
  }
  if (Reg == "warpid")
    return Level::warp();
  if (Reg.starts_with("ctaid") || Reg == "smid" ||
      Reg.starts_with("cluster_ctaid") || Reg == "cluster_ctarank")
    return Level::block();
  if (Reg.starts_with("clusterid"))
    return Level::cluster();
  if (Reg.starts_with("ntid") || Reg.starts_with("nctaid") ||
      Reg.starts_with("nclusterid") || Reg.starts_with("cluster_nctaid") ||
      Reg == "cluster_nctarank" || Reg == "nwarpid" || Reg == "nsmid" ||
      Reg == "warpsize")
    return Level::grid();
  return std::nullopt;
}

/// The name of the enumerator of \p T (an enumeration) whose value is
/// \p V, lower-cased; "" when there is none.
std::string enumeratorName(QualType T, int64_t V) {
  if (const auto *ET = T->getAs<EnumType>())
    if (const EnumDecl *ED = ET->getDecl()->getDefinition())
      for (const EnumConstantDecl *C : ED->enumerators())
        if (C->getInitVal().getSExtValue() == V)
          return C->getName().lower();
  return {};
}

bool isAtomicName(llvm::StringRef Name) {
  return Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
         Name.starts_with("__atomic_") || Name.starts_with("__sync_fetch") ||
         Name.starts_with("__sync_val") || Name.starts_with("__sync_bool") ||
         Name.starts_with("__sync_lock");
}

} // namespace

std::optional<BuiltinIndexRead> asBuiltinIndexRead(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
    if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(
            PO->getSyntacticForm()->IgnoreParens())) {
      auto Var =
          builtinVariableOfType(Prop->getBaseExpr()->IgnoreParenImpCasts()
                                    ->getType());
      char Component =
          componentOfName(identifierOf(Prop->getPropertyDecl()));
      if (Var && Component)
        return BuiltinIndexRead{*Var, Component};
    }
    return std::nullopt;
  }
  // The semantic form of the property read: a call of __fetch_builtin_x().
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const auto *Member =
        dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts());
    if (!Member)
      return std::nullopt;
    auto Var = builtinVariableOfType(
        Member->getBase()->IgnoreParenImpCasts()->getType());
    char Component = componentOfName(identifierOf(Member->getMemberDecl()));
    if (Var && Component)
      return BuiltinIndexRead{*Var, Component};
    return std::nullopt;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (isa<VarDecl>(Ref->getDecl()))
      if (auto Var = builtinVariableOfType(Ref->getType()))
        return BuiltinIndexRead{*Var, 0};
  return std::nullopt;
}

llvm::StringRef builtinIndexName(BuiltinIndexRead::Variable V) {
  switch (V) {
  case BuiltinIndexRead::ThreadIdx:
    return "threadIdx";
  case BuiltinIndexRead::BlockIdx:
    return "blockIdx";
  case BuiltinIndexRead::BlockDim:
    return "blockDim";
  case BuiltinIndexRead::GridDim:
    return "gridDim";
  }
  return "";
}

std::optional<unsigned> tileSizeOfType(QualType T) {
  if (T.isNull())
    return std::nullopt;
  const CXXRecordDecl *Record = T.getCanonicalType()->getAsCXXRecordDecl();
  if (!Record)
    return std::nullopt;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Record)) {
    llvm::StringRef Name = identifierOf(Spec);
    bool IsTileTemplate = Name == "thread_block_tile" ||
                          Name == "__static_size_tile_base" ||
                          Name == "__static_size_thread_block_tile_base" ||
                          Name == "__single_warp_thread_block_tile" ||
                          Name == "__multi_warp_thread_block_tile" ||
                          Name == "thread_block_tile_impl";
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (IsTileTemplate && Args.size() > 0 &&
        Args[0].getKind() == TemplateArgument::Integral)
      return static_cast<unsigned>(Args[0].getAsIntegral().getZExtValue());
  }
  if (!Record->hasDefinition())
    return std::nullopt;
  for (const CXXBaseSpecifier &Base : Record->getDefinition()->bases())
    if (auto Size = tileSizeOfType(Base.getType()))
      return Size;
  return std::nullopt;
}

bool isCooperativeGroupsFunction(const FunctionDecl *FD) {
  return FD && isInCooperativeGroupsNamespace(FD);
}

std::optional<GroupOperand> groupOperandOf(const CallExpr *Call) {
  if (!Call)
    return std::nullopt;
  if (const auto *MemberCall = dyn_cast<CXXMemberCallExpr>(Call)) {
    const Expr *Object = MemberCall->getImplicitObjectArgument();
    if (!Object)
      return std::nullopt;
    bool Arrow = false;
    if (const auto *ME = dyn_cast<MemberExpr>(
            MemberCall->getCallee()->IgnoreParens()))
      Arrow = ME->isArrow();
    return groupOfHandle(Object, Arrow);
  }
  // Static members (thread_block::sync, tile::thread_rank, ...) called
  // through an object are plain calls of a MemberExpr.
  if (const auto *ME =
          dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts())) {
    if (isa<CXXMethodDecl>(ME->getMemberDecl()))
      return groupOfHandle(ME->getBase(), ME->isArrow());
    return std::nullopt;
  }
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return std::nullopt;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD)) {
    // Qualified static call: cg::thread_block::sync().
    if (auto Kind = groupKindOfRecord(Method->getParent())) {
      GroupOperand Group;
      Group.Kind = *Kind;
      return Group;
    }
    return std::nullopt;
  }
  if (isCooperativeGroupsFunction(FD) && Call->getNumArgs() > 0)
    return groupOfHandle(Call->getArg(0), /*ThroughPointer=*/false);
  return std::nullopt;
}

Level collectiveLevel(const GroupOperand &Group) {
  switch (Group.Kind) {
  case GroupKind::ThreadBlock:
    return Level::block();
  case GroupKind::ClusterGroup:
    return Level::cluster();
  case GroupKind::GridGroup:
  case GroupKind::MultiGridGroup:
    return Level::grid();
  case GroupKind::Tile:
    if (Group.TileSize)
      if (auto L = Level::tile(*Group.TileSize))
        return *L;
    return Level::thread();
  case GroupKind::CoalescedGroup:
  case GroupKind::ThreadGroup:
    return Level::thread();
  }
  return Level::thread();
}

std::optional<BarrierCall> asBarrierCall(const CallExpr *Call) {
  if (!Call)
    return std::nullopt;
  const FunctionDecl *FD = Call->getDirectCallee();
  llvm::StringRef Name = plainName(FD);
  if (Name.empty())
    return std::nullopt;

  if (!isa<CXXMethodDecl>(FD) && isGlobalOrBuiltin(FD)) {
    std::optional<Scope> S =
        llvm::StringSwitch<std::optional<Scope>>(Name)
            .Cases({"__syncthreads", "__syncthreads_count", "__syncthreads_and",
                   "__syncthreads_or"}, Scope::Block)
            // bar.sync with an id and no thread count: the whole block.
            .Cases({"__barrier_sync", "__nvvm_barrier_sync", "__nvvm_barrier0"},
                   Scope::Block)
            .Cases({"__nvvm_bar0_popc", "__nvvm_bar0_and", "__nvvm_bar0_or"},
                   Scope::Block)
            .Cases({"__cluster_barrier_arrive", "__cluster_barrier_wait",
                   "__cluster_barrier_arrive_relaxed"}, Scope::Cluster)
            .Default(std::nullopt);
    if (!S)
      return std::nullopt;
    BarrierCall Barrier;
    Barrier.BarrierScope = *S;
    Barrier.Spelling = (Name + "()").str();
    if (Name.starts_with("__cluster_barrier_arrive"))
      Barrier.Part = BarrierPart::Arrive;
    else if (Name == "__cluster_barrier_wait")
      Barrier.Part = BarrierPart::Wait;
    return Barrier;
  }

  std::optional<GroupOperand> Group = groupOperandOf(Call);
  if (!Group)
    return std::nullopt;
  std::optional<Scope> S = barrierScopeOfGroup(Group->Kind);
  if (!S)
    return std::nullopt;
  BarrierCall Barrier;
  Barrier.BarrierScope = *S;
  Barrier.Group = Group->Handle;
  if (isa<CXXMethodDecl>(FD)) {
    const char *Method = barrierMethodSpelling(Name);
    if (!Method)
      return std::nullopt;
    Barrier.Spelling =
        (llvm::Twine(groupKindSpelling(Group->Kind)) + "::" + Method).str();
    if (Name == "barrier_arrive")
      Barrier.Part = BarrierPart::Arrive;
    else if (Name == "barrier_wait")
      Barrier.Part = BarrierPart::Wait;
    return Barrier;
  }
  if (Name != "sync" || !isCooperativeGroupsFunction(FD))
    return std::nullopt;
  Barrier.Spelling = (llvm::Twine("cooperative_groups::sync(") +
                      groupKindSpelling(Group->Kind) + ")")
                         .str();
  return Barrier;
}

Level inlineAsmOutputLevel(llvm::StringRef AsmText) {
  // A barrier reduction (`bar.red.or.pred`, `barrier.red.popc.u32`, with or
  // without `.cta`) hands every thread taking part the same result. The
  // threads taking part are the CTA or, with a thread count, whole warps
  // (the PTX ISA requires a multiple of the warp size), so the result is at
  // least warp-uniform: NCCL's `barrier_red_or` for a group of warps.
  for (llvm::StringRef Op : {"bar.red.", "barrier.red.", "barrier.cta.red.",
                             "bar.cta.red."})
    if (AsmText.contains(Op) && !AsmText.contains("atom.") &&
        !AsmText.contains("ld.") && !AsmText.contains("shfl."))
      return Level::warp();
  // Memory operations and lane exchanges give per-thread results whatever
  // their operands; a vote is shared by the warp.
  for (llvm::StringRef Op : {"atom.", "ld.", "red.", "shfl.", "match.",
                             "activemask", "%laneid", "%tid", "%clock",
                             "%globaltimer", "%lanemask"})
    if (AsmText.contains(Op))
      return Level::thread();
  Level Result = Level::grid();
  bool Found = false;
  size_t Pos = 0;
  while ((Pos = AsmText.find('%', Pos)) != llvm::StringRef::npos) {
    ++Pos;
    // "%%reg" in the asm string is the PTX register "%reg".
    if (Pos < AsmText.size() && AsmText[Pos] == '%')
      ++Pos;
    size_t End = Pos;
    while (End < AsmText.size() &&
           (isalnum(static_cast<unsigned char>(AsmText[End])) ||
            AsmText[End] == '_' || AsmText[End] == '.'))
      ++End;
    llvm::StringRef Reg = AsmText.slice(Pos, End);
    Reg = Reg.split('.').first;
    OriginKind Ignored;
    if (auto L = specialRegisterLevel(Reg, Ignored)) {
      Result = std::min(Result, *L);
      Found = true;
    }
    Pos = End;
  }
  if (AsmText.contains("vote."))
    return std::min(Result, Level::warp());
  // No special register: the outputs are computed from the inputs, which
  // the analysis joins itself (signalled by Grid).
  return Found ? Result : Level::grid();
}

bool isLaneIdRead(llvm::StringRef AsmText) {
  llvm::StringRef Text = AsmText.trim();
  Text.consume_back(";");
  Text = Text.trim();
  // "mov.u32 %0, %%laneid" (or .s32/.b32), one instruction, output 0.
  if (!Text.consume_front("mov."))
    return false;
  auto [Type, Operands] = Text.split(' ');
  if (Type != "u32" && Type != "s32" && Type != "b32")
    return false;
  auto [Destination, Source] = Operands.split(',');
  return Destination.trim() == "%0" &&
         (Source.trim() == "%%laneid" || Source.trim() == "%laneid");
}

std::optional<ResultModel> knownResultModel(const CallExpr *Call,
                                            bool AssumeWarpAlignedRows) {
  const FunctionDecl *FD = Call->getDirectCallee();
  llvm::StringRef Name = plainName(FD);
  if (Name.empty())
    return std::nullopt;

  // Cooperative groups: members of group handles and free functions that
  // take a group first.
  if (std::optional<GroupOperand> Group = groupOperandOf(Call)) {
    Level Collective = collectiveLevel(*Group);
    bool IsMember = isa<CXXMethodDecl>(FD);
    if (IsMember) {
      if (Name == "thread_rank" || Name == "thread_index")
        return fixed(Level::thread(), OriginKind::HardwareIndex);
      if (Name == "meta_group_rank") {
        // The rank of the tile within its parent: the same for the whole
        // tile, and only for it.
        if (Group->Kind == GroupKind::Tile && Group->TileSize)
          return fixed(Collective, OriginKind::HardwareIndex);
        return fixed(Level::thread(), OriginKind::HardwareIndex);
      }
      if (Name == "group_index" || Name == "block_index" ||
          Name == "block_rank")
        return fixed(Level::block(), OriginKind::HardwareIndex);
      if (Name == "cluster_rank" || Name == "cluster_index")
        return fixed(Level::cluster(), OriginKind::HardwareIndex);
      if (Name == "size" || Name == "num_threads" || Name == "group_dim" ||
          Name == "dim_threads" || Name == "meta_group_size" ||
          Name == "num_blocks" || Name == "dim_blocks" ||
          Name == "num_clusters" || Name == "dim_clusters" ||
          Name == "is_valid") {
        // A coalesced group's size is how many lanes arrived together:
        // shared by them, not by the warp.
        if (Group->Kind == GroupKind::CoalescedGroup ||
            Group->Kind == GroupKind::ThreadGroup)
          return fixed(Level::thread());
        return fixed(Level::grid());
      }
      if (Name == "shfl")
        return shuffle(ResultRule::ShuffleIndexed, 0, 1, -1, Collective);
      if (Name == "shfl_down" || Name == "shfl_up" || Name == "shfl_xor")
        return shuffle(ResultRule::ShuffleRelative, 0, 1, -1, Collective);
      if (Name == "any" || Name == "all" || Name == "ballot" ||
          Name == "match_all")
        return Collective == Level::warp() ? warpCollective(0, -1)
                                           : fixed(Collective);
      if (Name == "match_any")
        return fixed(Level::thread());
      if (Name == "sync" || Name == "barrier_arrive" ||
          Name == "barrier_wait")
        return fixed(Level::grid());
      return std::nullopt;
    }
    if (Name == "reduce")
      return Collective == Level::warp() ? warpCollective(1, -1)
                                         : fixed(Collective);
    if (Name == "invoke_one_broadcast")
      return fixed(Collective);
    if (Name == "inclusive_scan" || Name == "exclusive_scan" ||
        Name == "thread_rank")
      return fixed(Level::thread(), Name == "thread_rank"
                                        ? OriginKind::HardwareIndex
                                        : OriginKind::Intrinsic);
    if (Name == "group_size" || Name == "num_threads")
      return fixed(Level::grid());
    if (Name == "sync" || Name == "tiled_partition" ||
        Name == "labeled_partition" || Name == "binary_partition") {
      ResultModel M;
      M.Rule = ResultRule::GroupHandle;
      return M;
    }
    return std::nullopt;
  }

  if (isa<CXXMethodDecl>(FD)) {
    // libcu++ atomics: cuda::atomic<T>::fetch_add, atomic_ref::exchange...
    // The stores return nothing; every other access returns a value of the
    // location, which other threads may change at any time.
    const CXXRecordDecl *Record = cast<CXXMethodDecl>(FD)->getParent();
    std::optional<AtomicAccess> Access = atomicMemberAccess(Name);
    if (Record && Record->getIdentifier() &&
        Record->getName().contains("atomic") && Access &&
        *Access != AtomicAccess::Write)
      return fixed(Level::thread(), OriginKind::AtomicResult);
    return std::nullopt;
  }

  if (isCooperativeGroupsFunction(FD)) {
    if (Name == "this_thread_block" || Name == "this_grid" ||
        Name == "this_cluster" || Name == "coalesced_threads" ||
        Name == "this_multi_grid") {
      ResultModel M;
      M.Rule = ResultRule::GroupHandle;
      return M;
    }
    return std::nullopt;
  }

  if (!isGlobalOrBuiltin(FD))
    return std::nullopt;

  if (isAtomicName(Name))
    return fixed(Level::thread(), OriginKind::AtomicResult);

  if (Name.consume_front("__nvvm_read_ptx_sreg_")) {
    OriginKind Origin;
    std::optional<Level> L = specialRegisterLevel(Name, Origin);
    if (!L)
      return fixed(Level::thread());
    // threadIdx.y and .z are shared by a warp only when each row of the
    // block is a whole number of warps.
    if ((Name == "tid_y" || Name == "tid_z") && AssumeWarpAlignedRows)
      L = Level::warp();
    return fixed(*L, Origin);
  }

  return llvm::StringSwitch<std::optional<ResultModel>>(Name)
      .Cases({"__activemask", "__nvvm_activemask", "__lanemask_lt",
             "__lanemask_le", "__lanemask_eq", "__lanemask_ge",
             "__lanemask_gt"}, fixed(Level::thread()))
      .Cases({"clock", "clock64", "__globaltimer", "__clock", "__clock64"},
             fixed(Level::thread()))
      .Cases({"__match_any_sync", "__match32_any_sync", "__match64_any_sync"},
             fixed(Level::thread()))
      .Cases({"__ballot_sync", "__any_sync", "__all_sync", "__uni_sync"},
             warpCollective(1, 0))
      .Cases({"__ballot", "__any", "__all"}, fixed(Level::warp()))
      .Cases({"__match_all_sync", "__match32_all_sync", "__match64_all_sync"},
             warpCollective(1, 0))
      .Cases({"__nvvm_vote_ballot_sync", "__nvvm_vote_any_sync",
             "__nvvm_vote_all_sync", "__nvvm_vote_uni_sync"},
             warpCollective(1, 0))
      .Cases({"__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
             "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync"},
             warpCollective(1, 0))
      .Cases({"__syncthreads_count", "__syncthreads_and", "__syncthreads_or"},
             fixed(Level::block()))
      .Cases({"__nvvm_bar0_popc", "__nvvm_bar0_and", "__nvvm_bar0_or"},
             fixed(Level::block()))
      .Case("__shfl_sync",
            shuffle(ResultRule::ShuffleIndexed, 1, 2, 3, Level::warp()))
      .Case("__shfl", shuffle(ResultRule::ShuffleIndexed, 0, 1, 2,
                              Level::warp()))
      .Cases({"__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"},
             shuffle(ResultRule::ShuffleRelative, 1, 2, 3, Level::warp()))
      .Cases({"__shfl_up", "__shfl_down", "__shfl_xor"},
             shuffle(ResultRule::ShuffleRelative, 0, 1, 2, Level::warp()))
      .Cases({"__builtin_expect", "__builtin_expect_with_probability",
             "__builtin_assume_aligned"}, [] {
               ResultModel M;
               M.Rule = ResultRule::FirstArgument;
               return M;
             }())
      .Default(std::nullopt);
}

llvm::StringRef maskedWarpIntrinsicName(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || isa<CXXMethodDecl>(FD) ||
      FD->getNumParams() == 0 ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
      !FD->getParamDecl(0)->getType()->isIntegerType())
    return {};
  llvm::StringRef Name = FD->getName();
  bool Known =
      llvm::StringSwitch<bool>(Name)
          .Cases({"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                  "__shfl_xor_sync"},
                 true)
          .Cases({"__ballot_sync", "__any_sync", "__all_sync", "__uni_sync"},
                 true)
          .Cases({"__match_any_sync", "__match_all_sync", "__syncwarp"}, true)
          .Cases({"__reduce_add_sync", "__reduce_min_sync",
                  "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
                  "__reduce_xor_sync"},
                 true)
          .Default(false);
  return Known ? Name : llvm::StringRef();
}

std::optional<ShuffleKind> maskedShuffleKind(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ShuffleKind>>(Name)
      .Case("__shfl_sync", ShuffleKind::Idx)
      .Case("__shfl_up_sync", ShuffleKind::Up)
      .Case("__shfl_down_sync", ShuffleKind::Down)
      .Case("__shfl_xor_sync", ShuffleKind::Xor)
      .Default(std::nullopt);
}

bool isSyncWarpName(llvm::StringRef Name) { return Name == "__syncwarp"; }

bool isBallotSyncName(llvm::StringRef Name) { return Name == "__ballot_sync"; }

bool isActiveMaskFunction(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && FD->getName() == "__activemask";
}

bool isBitCountFunction(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(FD->getName())
      .Cases({"__ffs", "__ffsll", "__popc", "__popcll", "__fns", "__clz",
              "__clzll", "__brev"},
             true)
      .Default(false);
}

bool isUnmarkedDeviceStop(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() &&
         llvm::StringSwitch<bool>(FD->getName())
             .Cases({"__assert_fail", "__assertfail", "__trap", "abort"}, true)
             .Default(false);
}

std::optional<ThreadScope> threadFenceScope(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ThreadScope>>(Name)
      .Case("__threadfence_block", ThreadScope::Block)
      .Case("__threadfence", ThreadScope::Device)
      .Case("__threadfence_system", ThreadScope::System)
      .Default(std::nullopt);
}

bool isAtomicThreadFenceName(llvm::StringRef Name) {
  return Name == "atomic_thread_fence";
}

std::optional<LibcuxxNamespace> libcuxxNamespaceOf(const Decl *D) {
  if (!D)
    return std::nullopt;
  bool Std = false;
  bool Cuda = false;
  for (const DeclContext *Ctx = D->getDeclContext(); Ctx;
       Ctx = Ctx->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(Ctx)) {
      Std |= NS->getName() == "std";
      Cuda |= NS->getName() == "cuda";
    }
  if (!Cuda)
    return std::nullopt;
  return Std ? LibcuxxNamespace::CudaStd : LibcuxxNamespace::Cuda;
}

bool isMemoryOrderType(QualType T) {
  if (T.isNull())
    return false;
  const auto *ET = T.getCanonicalType()->getAs<EnumType>();
  return ET && ET->getDecl()->getName().contains("memory_order");
}

MemoryOrder memoryOrderOfValue(QualType T, int64_t V) {
  std::string Name = enumeratorName(T, V);
  if (Name.empty()) // libcu++: relaxed, consume, acquire, release, acq_rel, seq_cst
    switch (V) {
    case 0:
      return MemoryOrder::Relaxed;
    case 1:
      return MemoryOrder::Consume;
    case 2:
      return MemoryOrder::Acquire;
    case 3:
      return MemoryOrder::Release;
    case 4:
      return MemoryOrder::AcqRel;
    default:
      return MemoryOrder::SeqCst;
    }
  llvm::StringRef N(Name);
  if (N.contains("relaxed"))
    return MemoryOrder::Relaxed;
  if (N.contains("consume"))
    return MemoryOrder::Consume;
  if (N.contains("acq_rel"))
    return MemoryOrder::AcqRel;
  if (N.contains("acquire"))
    return MemoryOrder::Acquire;
  if (N.contains("release"))
    return MemoryOrder::Release;
  return MemoryOrder::SeqCst;
}

std::optional<ThreadScope> threadScopeOfValue(QualType T, int64_t V) {
  std::string Name = enumeratorName(T, V);
  llvm::StringRef N(Name);
  if (N.contains("block"))
    return ThreadScope::Block;
  if (N.contains("device"))
    return ThreadScope::Device;
  if (N.contains("system"))
    return ThreadScope::System;
  if (N.contains("thread"))
    return ThreadScope::Thread;
  switch (V) { // libcu++'s __ATOMIC_SYSTEM/DEVICE/BLOCK/THREAD
  case 0:
    return ThreadScope::System;
  case 1:
    return ThreadScope::Device;
  case 2:
    return ThreadScope::Block;
  default:
    return ThreadScope::Thread;
  }
}

std::optional<ThreadScope> libcuxxAtomicScope(QualType T) {
  if (T.isNull())
    return std::nullopt;
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec)
    return std::nullopt;
  llvm::StringRef Name = Spec->getName();
  if (Name != "atomic_ref" && Name != "atomic")
    return std::nullopt;
  std::optional<LibcuxxNamespace> NS = libcuxxNamespaceOf(Spec);
  if (!NS)
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (*NS == LibcuxxNamespace::Cuda && Args.size() >= 2 &&
      Args[1].getKind() == TemplateArgument::Integral)
    return threadScopeOfValue(Args[1].getIntegralType(),
                              Args[1].getAsIntegral().getSExtValue());
  return ThreadScope::System;
}

std::optional<AtomicAccess> atomicMemberAccess(llvm::StringRef Name) {
  if (Name == "load" || Name == "wait")
    return AtomicAccess::Read;
  if (Name == "store")
    return AtomicAccess::Write;
  if (Name == "exchange" || Name.starts_with("fetch_") ||
      isCompareExchangeName(Name))
    return AtomicAccess::ReadModifyWrite;
  return std::nullopt;
}

bool isCompareExchangeName(llvm::StringRef Name) {
  return Name.starts_with("compare_exchange");
}

std::optional<ThreadScope> atomicFunctionScope(llvm::StringRef Name) {
  llvm::StringRef Stem = Name;
  ThreadScope Scope = ThreadScope::Device;
  if (Stem.consume_back("_block"))
    Scope = ThreadScope::Block;
  else if (Stem.consume_back("_system"))
    Scope = ThreadScope::System;
  static constexpr llvm::StringLiteral Atomics[] = {
      "atomicAdd", "atomicSub", "atomicExch", "atomicMin",
      "atomicMax", "atomicInc", "atomicDec", "atomicCAS",
      "atomicAnd", "atomicOr",  "atomicXor"};
  if (!llvm::is_contained(Atomics, Stem))
    return std::nullopt;
  return Scope;
}

bool isAtomicCasName(llvm::StringRef Name) {
  return Name.starts_with("atomicCAS");
}

bool hasAtomicPrefix(llvm::StringRef Name) {
  return Name.starts_with("atomic");
}

bool mayReadOthersStateByName(llvm::StringRef Name) {
  return Name.starts_with("atomic") || Name.starts_with("__atomic") ||
         Name.contains("load") || Name.starts_with("__ld");
}

std::optional<CacheHintedAccess> cacheHintedAccess(llvm::StringRef Name) {
  CacheHintedAccess Load;
  CacheHintedAccess CoherentLoad;
  CoherentLoad.BypassesL1 = true;
  CacheHintedAccess Store;
  Store.IsStore = true;
  return llvm::StringSwitch<std::optional<CacheHintedAccess>>(Name)
      .Cases({"__ldcg", "__ldcv", "__ldlu"}, CoherentLoad)
      .Cases({"__ldg", "__ldca", "__ldcs"}, Load)
      .Cases({"__stcg", "__stcs", "__stwt", "__stwb"}, Store)
      .Default(std::nullopt);
}

bool isInPtxNamespace(const Decl *D) {
  if (!D)
    return false;
  // cuda::ptx (in any inline namespace of cuda).
  bool Ptx = false;
  llvm::StringRef Outer;
  for (const DeclContext *Ctx = D->getDeclContext(); Ctx;
       Ctx = Ctx->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(Ctx)) {
      Ptx |= NS->getName() == "ptx";
      Outer = NS->getName();
    }
  return Ptx && Outer == "cuda";
}

std::optional<BarrierPart> ptxClusterBarrierPart(const FunctionDecl *FD) {
  llvm::StringRef Name = plainName(FD);
  if (Name.empty() || !isInPtxNamespace(FD))
    return std::nullopt;
  if (Name.starts_with("barrier_cluster_arrive"))
    return BarrierPart::Arrive;
  if (Name.starts_with("barrier_cluster_wait"))
    return BarrierPart::Wait;
  return std::nullopt;
}

bool isClusterSharedRankMapping(const FunctionDecl *FD) {
  llvm::StringRef Name = plainName(FD);
  if (Name == "__cluster_map_shared_rank")
    return true;
  if (Name == "map_shared_rank")
    return isInCooperativeGroupsNamespace(FD);
  if (Name == "mapa")
    return isInPtxNamespace(FD);
  return false;
}

bool isInWmmaNamespace(const Decl *D) {
  if (!D)
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
  if (!NS || NS->getName() != "wmma")
    return false;
  const auto *Outer = dyn_cast<NamespaceDecl>(NS->getDeclContext());
  return Outer && Outer->getName() == "nvcuda";
}

bool isWmmaStoreMatrixSync(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && FD->getName() == "store_matrix_sync" &&
         isInWmmaNamespace(FD);
}

std::optional<WmmaLayout> wmmaLayoutOf(const NamedDecl *D) {
  if (!D || !D->getIdentifier())
    return std::nullopt;
  return llvm::StringSwitch<std::optional<WmmaLayout>>(D->getName())
      .Case("mem_row_major", WmmaLayout::RowMajor)
      .Case("mem_col_major", WmmaLayout::ColMajor)
      .Default(std::nullopt);
}

namespace {

/// The outermost namespace of \p D's context, or "".
llvm::StringRef outermostNamespace(const Decl *D) {
  llvm::StringRef Name;
  for (const DeclContext *Ctx = D->getDeclContext(); Ctx;
       Ctx = Ctx->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(Ctx))
      Name = NS->getName();
  return Name;
}

const CXXRecordDecl *recordOf(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->getAsCXXRecordDecl();
}

/// The record is cuda::<Name> (in any inline namespace of cuda).
bool isCudaRecord(const CXXRecordDecl *Record, llvm::StringRef Name) {
  return Record && Record->getName() == Name &&
         outermostNamespace(Record) == "cuda";
}

/// The first integral template argument of a specialization.
std::optional<llvm::APSInt>
firstIntegralArgument(const TemplateArgumentList *Args) {
  if (!Args)
    return std::nullopt;
  for (const TemplateArgument &Arg : Args->asArray())
    if (Arg.getKind() == TemplateArgument::Integral)
      return Arg.getAsIntegral();
  return std::nullopt;
}

/// cuda::pipeline<cuda::thread_scope_thread>: its waits complete the calling
/// thread's copies only. Read from the enumerator's name, not its value.
bool isThreadScopePipeline(QualType T) {
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(recordOf(T));
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return false;
  const TemplateArgument &Arg = Spec->getTemplateArgs()[0];
  if (Arg.getKind() != TemplateArgument::Integral)
    return false;
  const auto *Enum = Arg.getIntegralType()->getAs<EnumType>();
  if (!Enum)
    return false;
  for (const EnumConstantDecl *Constant :
       Enum->getDecl()->getDefinitionOrSelf()->enumerators())
    if (llvm::APSInt::isSameValue(Constant->getInitVal(), Arg.getAsIntegral()))
      return Constant->getName() == "thread_scope_thread";
  return false;
}

/// The value of the non-negative integer constant \p E.
std::optional<uint64_t> nonNegativeConstant(const Expr *E,
                                            const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult Result;
  if (!E->EvaluateAsInt(Result, Ctx) || Result.Val.getInt().isNegative())
    return std::nullopt;
  return Result.Val.getInt().getZExtValue();
}

/// The object of a member call, or the first argument of a free function.
const Expr *receiverOf(const CallExpr *Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    return Member->getImplicitObjectArgument();
  return Call->getNumArgs() > 0 ? Call->getArg(0) : nullptr;
}

} // namespace

std::optional<AsyncCopyCall> asAsyncCopyCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  llvm::StringRef Name = plainName(FD);
  AsyncCopyCall Copy;
  int DestinationArg = -1;
  int SourceArg = -1;
  if (Name == "memcpy_async" && isInCooperativeGroupsNamespace(FD)) {
    Copy.Api = AsyncCopyApi::CooperativeGroups;
    Copy.Spelling = "cooperative_groups::memcpy_async";
    DestinationArg = 1;
    // (group, dst, src, size) or (group, dst, dstCount, src, srcCount).
    SourceArg = Call->getNumArgs() == 5 ? 3 : 2;
  } else if (Name == "memcpy_async" && outermostNamespace(FD) == "cuda") {
    if (Call->getNumArgs() < 4)
      return std::nullopt;
    const CXXRecordDecl *Sync =
        recordOf(Call->getArg(Call->getNumArgs() - 1)->getType());
    if (isCudaRecord(Sync, "pipeline")) {
      Copy.Api = AsyncCopyApi::CudaPipeline;
      Copy.ThreadScope =
          isThreadScopePipeline(Call->getArg(Call->getNumArgs() - 1)->getType());
    } else if (Sync && Sync->getName() == "barrier") {
      Copy.Api = AsyncCopyApi::CudaBarrier;
    } else {
      return std::nullopt;
    }
    Copy.Spelling = "cuda::memcpy_async";
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I)->getType()->isPointerType()) {
        DestinationArg = static_cast<int>(I);
        SourceArg = static_cast<int>(I + 1);
        break;
      }
  } else if (Name == "__pipeline_memcpy_async") {
    Copy.Api = AsyncCopyApi::Primitive;
    Copy.ThreadScope = true;
    Copy.Spelling = "__pipeline_memcpy_async";
    DestinationArg = 0;
    SourceArg = 1;
  } else {
    return std::nullopt;
  }
  if (DestinationArg < 0 ||
      static_cast<unsigned>(DestinationArg) >= Call->getNumArgs())
    return std::nullopt;
  Copy.DestinationArg = static_cast<unsigned>(DestinationArg);
  Copy.SourceArg = static_cast<unsigned>(SourceArg);
  return Copy;
}

std::optional<unsigned> alignedSizeAlignment(QualType T) {
  if (T.isNull())
    return std::nullopt;
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(recordOf(T));
  if (!Spec || !isCudaRecord(Spec, "aligned_size_t"))
    return std::nullopt;
  if (std::optional<llvm::APSInt> N =
          firstIntegralArgument(&Spec->getTemplateArgs()))
    return static_cast<unsigned>(N->getZExtValue());
  return std::nullopt;
}

std::optional<AsyncWait> asAsyncWait(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  llvm::StringRef Name = plainName(FD);
  if (Name.empty())
    return std::nullopt;
  AsyncWait Wait;
  if (isInCooperativeGroupsNamespace(FD) && !isa<CXXMemberCallExpr>(Call)) {
    if (Name == "wait") {
      Wait.Spelling = "cooperative_groups::wait";
      return Wait;
    }
    if (Name == "wait_prior") {
      std::optional<llvm::APSInt> N =
          firstIntegralArgument(FD->getTemplateSpecializationArgs());
      if (!N)
        return std::nullopt;
      Wait.K = AsyncWait::KeepNewest;
      Wait.Keep = static_cast<unsigned>(N->getZExtValue());
      Wait.Spelling =
          "cooperative_groups::wait_prior<" + std::to_string(Wait.Keep) + ">";
      return Wait;
    }
    return std::nullopt;
  }
  if (Name == "__pipeline_wait_prior") {
    Wait.ThreadScope = true;
    Wait.Spelling = "__pipeline_wait_prior";
    if (Call->getNumArgs() == 1)
      if (std::optional<uint64_t> N =
              nonNegativeConstant(Call->getArg(0), FD->getASTContext())) {
        Wait.K = *N == 0 ? AsyncWait::All : AsyncWait::KeepNewest;
        Wait.Keep = static_cast<unsigned>(*N);
        Wait.Spelling += "(" + std::to_string(*N) + ")";
      }
    // A wait count known only at run time: taken as a full wait.
    return Wait;
  }
  if (outermostNamespace(FD) != "cuda")
    return std::nullopt;
  const Expr *Receiver = receiverOf(Call);
  if (!Receiver)
    return std::nullopt;
  const CXXRecordDecl *Object = recordOf(Receiver->getType());
  if (isCudaRecord(Object, "pipeline")) {
    Wait.ThreadScope = isThreadScopePipeline(Receiver->getType());
    if (isa<CXXMemberCallExpr>(Call) &&
        (Name == "consumer_wait" || Name == "consumer_wait_for" ||
         Name == "consumer_wait_until")) {
      Wait.K = AsyncWait::Oldest;
      Wait.Spelling = "cuda::pipeline::" + Name.str();
      return Wait;
    }
    if (!isa<CXXMemberCallExpr>(Call) && Name == "pipeline_consumer_wait_prior") {
      std::optional<llvm::APSInt> N =
          firstIntegralArgument(FD->getTemplateSpecializationArgs());
      if (!N)
        return std::nullopt;
      Wait.Keep = static_cast<unsigned>(N->getZExtValue());
      Wait.K = Wait.Keep == 0 ? AsyncWait::All : AsyncWait::KeepNewest;
      Wait.Spelling =
          "cuda::pipeline_consumer_wait_prior<" + std::to_string(Wait.Keep) + ">";
      return Wait;
    }
    return std::nullopt;
  }
  if (Object && Object->getName() == "barrier" && isa<CXXMemberCallExpr>(Call) &&
      (Name == "arrive_and_wait" || Name == "wait")) {
    Wait.K = AsyncWait::Barrier;
    Wait.Spelling = "cuda::barrier::" + Name.str();
    return Wait;
  }
  return std::nullopt;
}

bool isAsyncCommit(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  llvm::StringRef Name = plainName(FD);
  if (Name == "__pipeline_commit")
    return true;
  if (Name != "producer_commit" && Name != "pipeline_producer_commit")
    return false;
  const Expr *Receiver = receiverOf(Call);
  return Receiver && isCudaRecord(recordOf(Receiver->getType()), "pipeline");
}

namespace {

bool isNamed(const Decl *D, llvm::StringRef Name) {
  const auto *ND = dyn_cast_or_null<NamedDecl>(D);
  return ND && ND->getIdentifier() && ND->getName() == Name;
}

} // namespace

std::optional<RuntimeLaunch> runtimeLaunchOf(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  llvm::StringRef Name = FD->getName();
  if (!FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return std::nullopt;
  Name.consume_back("_ptsz");
  Name.consume_back("_ptds");
  return llvm::StringSwitch<std::optional<RuntimeLaunch>>(Name)
      .Case("cudaLaunchKernel", RuntimeLaunch::LaunchKernel)
      .Case("cudaLaunchKernelEx", RuntimeLaunch::LaunchKernelEx)
      .Case("cudaLaunchKernelExC", RuntimeLaunch::LaunchKernelExC)
      .Case("cudaLaunchCooperativeKernel",
            RuntimeLaunch::LaunchCooperativeKernel)
      .Default(std::nullopt);
}

bool isLaunchConfigField(const Decl *D, LaunchConfigField Field) {
  switch (Field) {
  case LaunchConfigField::GridDim:
    return isNamed(D, "gridDim");
  case LaunchConfigField::Attrs:
    return isNamed(D, "attrs");
  case LaunchConfigField::NumAttrs:
    return isNamed(D, "numAttrs");
  case LaunchConfigField::Id:
    return isNamed(D, "id");
  case LaunchConfigField::Val:
    return isNamed(D, "val");
  case LaunchConfigField::Cooperative:
    return isNamed(D, "cooperative");
  }
  return false;
}

bool isCooperativeLaunchAttribute(const Decl *D) {
  return isNamed(D, "cudaLaunchAttributeCooperative");
}

std::optional<OccupancyQuery> occupancyQueryOf(llvm::StringRef Name) {
  if (Name.starts_with("cudaOccupancyMaxActiveBlocksPerMultiprocessor") ||
      Name.starts_with("cuOccupancyMaxActiveBlocksPerMultiprocessor"))
    return OccupancyQuery::MaxActiveBlocksPerMultiprocessor;
  if (Name.starts_with("cudaOccupancyMaxPotentialBlockSize") ||
      Name.starts_with("cuOccupancyMaxPotentialBlockSize"))
    return OccupancyQuery::MaxPotentialBlockSize;
  return std::nullopt;
}

bool isRuntimeBlockSizeSearch(llvm::StringRef Name) {
  return Name == "cudaOccupancyMaxPotentialBlockSize" ||
         Name == "cudaOccupancyMaxPotentialBlockSizeVariableSMem" ||
         Name == "cudaOccupancyMaxPotentialBlockSizeWithFlags" ||
         Name == "cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags";
}

bool isDeviceGetAttributeName(llvm::StringRef Name) {
  return Name == "cudaDeviceGetAttribute" || Name == "cuDeviceGetAttribute";
}

bool isMultiProcessorCountAttribute(const Decl *D) {
  return isNamed(D, "cudaDevAttrMultiProcessorCount") ||
         isNamed(D, "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT");
}

bool isMultiProcessorCountField(const Decl *D) {
  return isNamed(D, "multiProcessorCount");
}

bool isDim3Record(const NamedDecl *Record) {
  return Record && Record->getIdentifier() && Record->getName() == "dim3";
}

std::optional<unsigned> dimComponentIndex(llvm::StringRef FieldName) {
  return llvm::StringSwitch<std::optional<unsigned>>(FieldName)
      .Case("x", 0)
      .Case("y", 1)
      .Case("z", 2)
      .Default(std::nullopt);
}

} // namespace clang::tidy::cuda::analysis
