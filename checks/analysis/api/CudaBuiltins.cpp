//===--- CudaBuiltins.cpp - the CUDA device API the analyses know ----------===//

#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
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
    const CXXRecordDecl *Record = cast<CXXMethodDecl>(FD)->getParent();
    if (Record && Record->getIdentifier() &&
        Record->getName().contains("atomic") &&
        (Name.starts_with("fetch_") || Name == "exchange" ||
         Name.starts_with("compare_exchange") || Name == "load" ||
         Name == "wait"))
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

} // namespace clang::tidy::cuda::analysis
