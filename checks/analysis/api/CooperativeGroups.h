//===--- CooperativeGroups.h - facts about the cooperative_groups API -----===//
//
// What the checks need to recognise in <cooperative_groups.h>: which types are
// group handles and which scope of threads each one spans. CUDA declares the
// API inside a versioned, non-inline namespace (cooperative_groups::__v1), so
// plain qualified-name matchers miss it; everything here walks the enclosing
// namespaces instead.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_COOPERATIVEGROUPS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_COOPERATIVEGROUPS_H

#include "llvm/ADT/StringRef.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class CXXRecordDecl;
class Decl;
class Expr;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// The kinds of group handle cooperative_groups offers.
enum class GroupKind {
  ThreadGroup,    ///< cg::thread_group, the type-erased handle.
  ThreadBlock,    ///< cg::thread_block.
  Tile,           ///< cg::thread_block_tile<N[, Parent]> and its bases.
  CoalescedGroup, ///< cg::coalesced_group (also dynamic tiled partitions).
  GridGroup,      ///< cg::grid_group.
  ClusterGroup,   ///< cg::cluster_group.
  MultiGridGroup, ///< cg::multi_grid_group (removed in CUDA 13).
};

/// True when \p D is declared in namespace cooperative_groups (at any depth,
/// including its versioned and details sub-namespaces).
bool isInCooperativeGroupsNamespace(const Decl *D);

/// The group kind of a class, following base classes, or nullopt when the
/// class is not a group handle (cg::plus<T>, cg::greater<T>, ... are not).
std::optional<GroupKind> groupKindOfRecord(const CXXRecordDecl *Record);

/// The group kind of a type after stripping typedefs and top-level
/// qualifiers, or nullopt. References and pointers are not handles.
std::optional<GroupKind> groupKindOfType(QualType Type);

/// "thread_block", "thread_block_tile", ... for messages.
const char *groupKindSpelling(GroupKind Kind);

/// A member function of a group handle that every member of the group must
/// reach: `sync`, the shuffles, the votes, the matches.
bool isCollectiveMemberName(llvm::StringRef Name);
/// A free function of cooperative_groups that takes a group first and that
/// every member must reach: reductions, scans, `invoke_one`, `sync`,
/// `memcpy_async` and its waits.
bool isCollectiveFunctionName(llvm::StringRef Name);
/// `tiled_partition`, `labeled_partition`, `binary_partition`.
bool isPartitionName(llvm::StringRef Name);
/// A collective whose contract concerns only the members that have not
/// exited, so that after a `return` from the kernel it is still well
/// defined: `sync` and the votes (a shuffle reads an exited member).
bool toleratesExitedMembers(llvm::StringRef Name);
/// `labeled_partition`, `binary_partition`: the partitions made on a value
/// each thread gives (a label, a predicate).
bool isKeyedPartitionName(llvm::StringRef Name);
/// `tiled_partition`.
bool isTiledPartitionName(llvm::StringRef Name);
/// `thread_rank`: a member's index in its group.
bool isThreadRankName(llvm::StringRef Name);
/// `meta_group_rank`: a tile's index among the tiles of its parent.
bool isMetaGroupRankName(llvm::StringRef Name);
/// A member function of a group handle whose result every member of the
/// group shares: the sizes (`size`, `num_threads`, `meta_group_size`),
/// `meta_group_rank`, and the votes (`any`, `all`, `ballot`).
bool isGroupInvariantMemberName(llvm::StringRef Name);
/// A free function of cooperative_groups that takes a group first and whose
/// result every member of the group shares: `reduce`.
bool isGroupInvariantFunctionName(llvm::StringRef Name);
/// A name that contains "thread_rank": cg's `thread_rank` and the helpers
/// code wraps around it (`warp_thread_rank()`, `block_thread_rank()`), read
/// as picking threads by their index.
bool mentionsThreadRank(llvm::StringRef Name);

/// What a cooperative-groups query tells a thread about itself or its group.
enum class GroupQuery {
  ThreadRank,  ///< Its linear index in the group.
  ThreadIndex, ///< Its 3-D index in the group (a dim3).
  NumThreads,  ///< How many threads the group has.
  DimThreads,  ///< The group's 3-D extent in threads (a dim3).
};

/// The query a member function of a group handle named \p Name makes:
/// `thread_rank` ThreadRank, `thread_index` ThreadIndex, `num_threads` and
/// `size` NumThreads, `dim_threads` and `group_dim` DimThreads; nullopt for
/// any other name.
std::optional<GroupQuery> groupMemberQuery(llvm::StringRef Name);

/// The query a cooperative_groups free function that takes a group makes:
/// `thread_rank(g)` ThreadRank, `group_size(g)` NumThreads; nullopt for any
/// other name.
std::optional<GroupQuery> groupFunctionQuery(llvm::StringRef Name);

/// The handle `this_thread_block()` (ThreadBlock), `this_grid()`
/// (GridGroup) or `this_cluster()` (ClusterGroup) makes, by the function's
/// name; nullopt for any other name.
std::optional<GroupKind> implicitGroupKind(llvm::StringRef Name);

/// How a call that synchronizes the whole grid is spelled in messages
/// ("grid_group::sync()", "grid_group::barrier_arrive()",
/// "grid_group::barrier_wait()", "cooperative_groups::sync(grid_group)"), or
/// nullptr when \p Call is not one. Such a call needs every block of the grid
/// resident at once, which only a cooperative launch guarantees. A sync on
/// the type-erased thread_group is not recognised: which group it holds is
/// only known at run time.
const char *gridSyncSpelling(const CallExpr *Call);

/// The value a partition splits its parent on: the predicate of
/// `binary_partition(parent, pred)`, the label of
/// `labeled_partition(parent, label)`; nullptr for any other call.
const Expr *partitionKey(const CallExpr *MadeBy);

/// Whether \p Condition is decided by \p Key alone (`key`, `!key`,
/// `key == c` with c uniform over \p IsUniform), every variable \p Key reads
/// holding one value throughout \p Function. Every member of a partition
/// made on \p Key agrees on such a condition: within the partition it is
/// uniform, whatever it is across the parent.
bool isDecidedByPartitionKey(const Expr *Condition, const Expr *Key,
                             const FunctionDecl *Function, ASTContext &Context,
                             llvm::function_ref<bool(const Expr *)> IsUniform);

/// Every value local \p Var of \p Function is given: its initializer and
/// the right side of each plain `=` to it. nullopt when anything else can
/// change it: a compound assignment, ++/--, its address taken, a non-const
/// reference bound to it, or no initializer and no assignment.
std::optional<llvm::SmallVector<const Expr *, 4>>
assignedValues(const VarDecl *Var, const FunctionDecl *Function);

} // namespace clang::tidy::cuda::analysis

#endif
