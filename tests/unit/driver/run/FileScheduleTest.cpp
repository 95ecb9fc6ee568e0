//===--- FileScheduleTest.cpp - how -j workers get their files ------------===//

#include "tool/driver/run/ParallelRun.h"

#include "gtest/gtest.h"
#include <thread>

namespace clang::tidy::cuda::driver {
namespace {

using Step = FileSchedule::Step;

size_t expectRun(FileSchedule &S) {
  size_t File = ~size_t(0);
  EXPECT_EQ(S.tryNext(File), Step::Run);
  return File;
}

void expectStep(FileSchedule &S, Step Expected) {
  size_t File = ~size_t(0);
  EXPECT_EQ(S.tryNext(File), Expected);
}

// Two workers, groups {0,1,2} {3,4} {5}: while 0 builds the first preamble
// the second worker leads the next group, then takes the file of a group of
// its own, and waits only when every file left waits for a preamble.
TEST(FileSchedule, IdleWorkerLeadsAnotherGroupWhileAPreambleBuilds) {
  FileSchedule S({{0, 1, 2}, {3, 4}, {5}});
  EXPECT_EQ(expectRun(S), 0u);
  EXPECT_EQ(expectRun(S), 3u);
  EXPECT_EQ(expectRun(S), 5u);
  expectStep(S, Step::Wait);
  S.done(5);
  expectStep(S, Step::Wait); // 5 led nobody
  S.done(3);
  EXPECT_EQ(expectRun(S), 4u);
  expectStep(S, Step::Wait);
  S.done(0);
  EXPECT_EQ(expectRun(S), 1u);
  EXPECT_EQ(expectRun(S), 2u);
  expectStep(S, Step::Finished);
}

// Ready files come before new groups: a preamble leaves memory with its
// group's last file, so groups are finished in order.
TEST(FileSchedule, ReadyGroupFirst) {
  FileSchedule S({{0, 1}, {2, 3}});
  EXPECT_EQ(expectRun(S), 0u);
  S.done(0);
  EXPECT_EQ(expectRun(S), 1u);
  EXPECT_EQ(expectRun(S), 2u);
  S.done(1);
  expectStep(S, Step::Wait);
  S.done(2);
  EXPECT_EQ(expectRun(S), 3u);
  S.done(3);
  expectStep(S, Step::Finished);
}

// One worker: exactly the plan's order, never a wait.
TEST(FileSchedule, OneWorkerRunsThePlanInOrder) {
  FileSchedule S({{4, 0}, {1}, {3, 2}});
  std::vector<size_t> Order;
  while (std::optional<size_t> F = S.next()) {
    Order.push_back(*F);
    S.done(*F);
  }
  EXPECT_EQ(Order, (std::vector<size_t>{4, 0, 1, 3, 2}));
}

// next() blocks while the leader runs and wakes when it is done.
TEST(FileSchedule, NextWaitsForTheLeader) {
  FileSchedule S({{0, 1}});
  ASSERT_EQ(S.next(), std::optional<size_t>(0));
  std::optional<size_t> Second;
  std::thread Worker([&] { Second = S.next(); });
  S.done(0);
  Worker.join();
  EXPECT_EQ(Second, std::optional<size_t>(1));
  EXPECT_EQ(S.next(), std::nullopt);
}

// The leader's preamble is enough: its group's other files run while the
// leader is still analyzed (one group: the other worker would idle for the
// whole first file), and its done() later changes nothing.
TEST(FileSchedule, GroupStartsWhenTheLeaderHasItsPreamble) {
  FileSchedule S({{0, 1, 2}});
  EXPECT_EQ(expectRun(S), 0u);
  expectStep(S, Step::Wait);
  S.preambleReady(0);
  EXPECT_EQ(expectRun(S), 1u);
  EXPECT_EQ(expectRun(S), 2u);
  S.done(0);
  expectStep(S, Step::Finished);
}

// Only a group's leader makes its group ready.
TEST(FileSchedule, PreambleOfAFollowerChangesNothing) {
  FileSchedule S({{0, 1}, {2, 3}});
  EXPECT_EQ(expectRun(S), 0u);
  EXPECT_EQ(expectRun(S), 2u);
  S.preambleReady(1);
  S.preambleReady(3);
  expectStep(S, Step::Wait);
  S.preambleReady(2);
  EXPECT_EQ(expectRun(S), 3u);
}

TEST(FileSchedule, EmptyGroupsAreIgnored) {
  FileSchedule S({{}, {7}, {}});
  EXPECT_EQ(S.next(), std::optional<size_t>(7));
  EXPECT_EQ(S.next(), std::nullopt);
}

// Two steps (issue 21): every file is first asked of the result cache
// alone; the second step's plan is made once every file of the first is
// done, from what they found, and its groups run as any plan does.
TEST(FileSchedule, SecondStepIsPlannedOnceTheFirstIsDone) {
  unsigned Planned = 0;
  FileSchedule S({{0}, {1}, {2}}, [&] {
    ++Planned;
    return std::vector<std::vector<size_t>>{{2, 0}};
  });
  EXPECT_EQ(expectRun(S), 0u);
  EXPECT_EQ(expectRun(S), 1u);
  EXPECT_EQ(expectRun(S), 2u);
  expectStep(S, Step::Wait); // not Finished: the second step is to come
  S.done(1);
  S.done(2);
  expectStep(S, Step::Wait);
  EXPECT_EQ(Planned, 0u);
  S.done(0);
  EXPECT_EQ(Planned, 1u);
  // 2 leads its group; having finished a file of the first step does not
  // make its preamble ready for 0.
  EXPECT_EQ(expectRun(S), 2u);
  expectStep(S, Step::Wait);
  S.preambleReady(2);
  EXPECT_EQ(expectRun(S), 0u);
  S.done(0);
  S.done(2);
  expectStep(S, Step::Finished);
  EXPECT_EQ(Planned, 1u);
}

// Nothing left for the second step (the cache answered every file), and a
// first step with no file: the second plan is made at once.
TEST(FileSchedule, EmptySteps) {
  FileSchedule None({{0}}, [] { return std::vector<std::vector<size_t>>{}; });
  EXPECT_EQ(expectRun(None), 0u);
  None.done(0);
  expectStep(None, Step::Finished);
  FileSchedule AtOnce({}, [] { return std::vector<std::vector<size_t>>{{1}}; });
  EXPECT_EQ(expectRun(AtOnce), 1u);
  AtOnce.done(1);
  expectStep(AtOnce, Step::Finished);
}

// A worker waiting in next() for the second step wakes when the first
// step's last file is done.
TEST(FileSchedule, NextWaitsForTheSecondStep) {
  FileSchedule S({{0}}, [] { return std::vector<std::vector<size_t>>{{0}}; });
  ASSERT_EQ(S.next(), std::optional<size_t>(0));
  std::optional<size_t> Again;
  std::thread Worker([&] { Again = S.next(); });
  S.done(0);
  Worker.join();
  EXPECT_EQ(Again, std::optional<size_t>(0));
  S.done(0);
  EXPECT_EQ(S.next(), std::nullopt);
}

// Which files a run plans each alone: one, or a few when the result cache
// answered the others; a cold run of several files shares prefixes.
TEST(FileSchedule, PlanEachAlone) {
  EXPECT_TRUE(planEachAlone(0, 1));
  EXPECT_TRUE(planEachAlone(14, 1));
  EXPECT_TRUE(planEachAlone(10, MaxPlannedAlone));
  EXPECT_FALSE(planEachAlone(10, MaxPlannedAlone + 1));
  EXPECT_FALSE(planEachAlone(0, 2));
}

} // namespace
} // namespace clang::tidy::cuda::driver
