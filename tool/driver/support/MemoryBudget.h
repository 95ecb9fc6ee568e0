//===--- MemoryBudget.h - how much memory one file's analysis may take ----===//
//
// --file-memory-limit (issue 16 F6): nested macro invocations take memory
// quadratic in their depth (56 KB of source took 1.9 GB, 1.1 MB was killed by
// the kernel at 24 GB), so one hostile file could take a CI runner down and
// every other file's findings with it. Each worker counts, per file, the
// bytes its thread holds from the C allocator (malloc and friends, which
// operator new and LLVM's allocators end in): every allocation of the thread
// adds its usable size, every free subtracts it. A file whose count goes past
// the limit is stopped at that allocation: its thread sleeps there for good
// (a thread cannot be killed, and an allocation that failed would end the
// whole process), the run reports the file as failed with no findings, and a
// new worker takes its place, as for --file-time-limit.
//
// The count comes from replacing malloc, calloc, realloc, free and the
// aligned allocators with thin wrappers around glibc's own (__libc_malloc
// and friends, which glibc exports for this purpose). Sanitizer builds
// replace the allocator themselves, so there the wrappers are not built and
// no limit is enforced (memoryBudgetEnforced() is false).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_MEMORYBUDGET_H
#define CUDA_TIDY_TOOL_DRIVER_MEMORYBUDGET_H

#include <atomic>
#include <cstdint>

namespace clang::tidy::cuda::driver {

/// What one file's thread holds, and what it may.
struct MemoryAccount {
  /// Bytes allocated minus bytes freed by the thread since it took the
  /// account (may go below zero: it frees what was allocated before).
  std::atomic<std::int64_t> Bytes{0};
  /// The most Bytes may reach; 0: no limit.
  std::int64_t Limit = 0;
  /// Set when an allocation took Bytes past Limit, or every counted thread
  /// together past setProcessMemoryLimit's bound; the thread then sleeps in
  /// that allocation for good.
  std::atomic<bool> Exceeded{false};
  /// Set (with Exceeded) when it was the process's bound, not Limit.
  std::atomic<bool> OverProcessLimit{false};
};
/// Bounds what every thread with an account holds together (issue 38 G3:
/// with -j N, N running files could each take their own limit on top of
/// what abandoned ones keep): the thread whose allocation takes the sum past
/// \p Bytes stops as at its own limit. 0: no bound.
void setProcessMemoryLimit(std::int64_t Bytes);
/// What every thread with an account holds together now.
std::int64_t processAccountedBytes();

/// From now on, the calling thread's allocations and frees are counted in
/// \p Account (nullptr: no more). \p Account must outlive the thread's use
/// of it: a thread stopped over its limit uses it until the process ends.
void setThreadMemoryAccount(MemoryAccount *Account);

/// While one lives on a thread, an allocation past the limit does not stop
/// the thread (it marks the account exceeded; the thread stops at its next
/// allocation after the last one is gone): for code that allocates while it
/// holds a lock other workers take, which a stopped thread would hold for
/// good.
class MemoryStopDeferred {
public:
  MemoryStopDeferred();
  ~MemoryStopDeferred();
  MemoryStopDeferred(const MemoryStopDeferred &) = delete;
  MemoryStopDeferred &operator=(const MemoryStopDeferred &) = delete;
};

/// Whether a MemoryStopDeferred lives on the calling thread: it holds, or
/// may hold, a lock other workers take.
bool memoryStopDeferredOnThisThread();

/// Whether the allocator is counted in this build (not in sanitizer builds).
bool memoryBudgetEnforced();

/// The memory this process may use: the machine's physical memory, or less
/// where a cgroup limit or the address-space limit (ulimit -v) says so;
/// UINT64_MAX when none is known.
std::uint64_t memoryAvailableBytes();

/// The default of --file-memory-limit, in MiB: 4096, or half of
/// memoryAvailableBytes() when that is less (at least 256).
unsigned defaultFileMemoryLimitMiB();

/// What the files abandoned over the limit may hold together before no
/// more files are started (issue 38 G3: a stopped thread keeps its memory
/// until the process ends, so N hostile files held N times the limit):
/// three quarters of memoryAvailableBytes(), at least \p FileLimitBytes;
/// 0 when nothing is known.
std::uint64_t processMemoryBudgetBytes(std::uint64_t FileLimitBytes);

/// Sets glibc's allocator up for a parse (issue 39), before any worker
/// starts, when at most two run at once (\p Jobs) and the address space is
/// not limited: every thread allocates from the main heap (M_ARENA_MAX 1),
/// which is grown by 256 MiB at a time and not trimmed below 512 MiB free,
/// and its first 256 MiB are reserved now and marked for transparent huge
/// pages (madvise). A parse touches 100 to 200 MB of heap: 25,000 page
/// faults of 4 KiB became 1,200, and a cold run of binaryPartitionCG.cu
/// 20 to 25 % less CPU time (docs/performance.md). Nothing is touched that
/// the run does not use; a kernel without huge pages ignores the advice.
/// CUDA_TIDY_NO_HEAP_TUNING=1 leaves the allocator as it is.
void tuneAllocatorForParsing(unsigned Jobs);

} // namespace clang::tidy::cuda::driver

#endif
