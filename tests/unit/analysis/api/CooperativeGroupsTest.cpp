//===--- CooperativeGroupsTest.cpp - the group API's names ----------------===//
//
// The names of cooperative_groups the checks ask about: the partitions, the
// ranks, the calls whose result every member shares, the queries a thread
// makes about itself and its group, and the functions that make the
// implicit handles.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/api/CooperativeGroups.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::analysis {
namespace {

TEST(CooperativeGroups, PartitionNames) {
  EXPECT_TRUE(isTiledPartitionName("tiled_partition"));
  EXPECT_FALSE(isTiledPartitionName("labeled_partition"));
  EXPECT_TRUE(isKeyedPartitionName("labeled_partition"));
  EXPECT_TRUE(isKeyedPartitionName("binary_partition"));
  EXPECT_FALSE(isKeyedPartitionName("tiled_partition"));
  // Every partition is one or the other.
  for (const char *Name :
       {"tiled_partition", "labeled_partition", "binary_partition"})
    EXPECT_TRUE(isPartitionName(Name) &&
                (isTiledPartitionName(Name) || isKeyedPartitionName(Name)))
        << Name;
}

TEST(CooperativeGroups, RanksAndSharedResults) {
  EXPECT_TRUE(isThreadRankName("thread_rank"));
  EXPECT_FALSE(isThreadRankName("meta_group_rank"));
  EXPECT_TRUE(isMetaGroupRankName("meta_group_rank"));
  EXPECT_FALSE(isMetaGroupRankName("thread_rank"));
  for (const char *Name : {"size", "num_threads", "meta_group_size",
                           "meta_group_rank", "any", "all", "ballot"})
    EXPECT_TRUE(isGroupInvariantMemberName(Name)) << Name;
  // A member's rank, a shuffle and a match differ between members.
  for (const char *Name : {"thread_rank", "shfl", "match_any", "sync", "reduce"})
    EXPECT_FALSE(isGroupInvariantMemberName(Name)) << Name;
  EXPECT_TRUE(isGroupInvariantFunctionName("reduce"));
  EXPECT_FALSE(isGroupInvariantFunctionName("inclusive_scan"));
  EXPECT_FALSE(isGroupInvariantFunctionName("size"));
}

TEST(CooperativeGroups, GroupQueries) {
  EXPECT_EQ(groupMemberQuery("thread_rank"), GroupQuery::ThreadRank);
  EXPECT_EQ(groupMemberQuery("thread_index"), GroupQuery::ThreadIndex);
  EXPECT_EQ(groupMemberQuery("num_threads"), GroupQuery::NumThreads);
  EXPECT_EQ(groupMemberQuery("size"), GroupQuery::NumThreads);
  EXPECT_EQ(groupMemberQuery("dim_threads"), GroupQuery::DimThreads);
  EXPECT_EQ(groupMemberQuery("group_dim"), GroupQuery::DimThreads);
  // group_size is the free function's name, not a member's.
  for (const char *Name :
       {"group_size", "meta_group_rank", "meta_group_size", "sync", ""})
    EXPECT_FALSE(groupMemberQuery(Name).has_value()) << Name;
  EXPECT_EQ(groupFunctionQuery("thread_rank"), GroupQuery::ThreadRank);
  EXPECT_EQ(groupFunctionQuery("group_size"), GroupQuery::NumThreads);
  for (const char *Name : {"num_threads", "size", "thread_index", "reduce"})
    EXPECT_FALSE(groupFunctionQuery(Name).has_value()) << Name;

  EXPECT_TRUE(mentionsThreadRank("thread_rank"));
  EXPECT_TRUE(mentionsThreadRank("warp_thread_rank"));
  EXPECT_FALSE(mentionsThreadRank("meta_group_rank"));
  EXPECT_FALSE(mentionsThreadRank("thread_index"));
}

TEST(CooperativeGroups, ImplicitHandles) {
  EXPECT_EQ(implicitGroupKind("this_thread_block"), GroupKind::ThreadBlock);
  EXPECT_EQ(implicitGroupKind("this_grid"), GroupKind::GridGroup);
  EXPECT_EQ(implicitGroupKind("this_cluster"), GroupKind::ClusterGroup);
  EXPECT_FALSE(implicitGroupKind("coalesced_threads").has_value());
  EXPECT_FALSE(implicitGroupKind("tiled_partition").has_value());
  EXPECT_FALSE(implicitGroupKind("this_multi_grid").has_value());
}

} // namespace
} // namespace clang::tidy::cuda::analysis
