//===--- MemoryBudget.cpp - counting each file's allocations --------------===//

#include "tool/driver/support/MemoryBudget.h"

#include <algorithm>
#include <cstdint>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <optional>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#ifdef __has_feature
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) ||   \
    __has_feature(thread_sanitizer)
#define CUDA_TIDY_NO_ALLOCATOR_COUNT 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
#define CUDA_TIDY_NO_ALLOCATOR_COUNT 1
#endif

namespace clang::tidy::cuda::driver {

#ifndef CUDA_TIDY_NO_ALLOCATOR_COUNT
namespace {
// Plain data, no constructor: read by the allocator before anything of the
// program is initialized, and set up for a new thread without allocating.
__attribute__((tls_model("initial-exec"))) thread_local MemoryAccount
    *Current = nullptr;
__attribute__((tls_model("initial-exec"))) thread_local unsigned Deferred = 0;
// What every counted thread holds together (the sum of the accounts'
// changes), and the most it may (0: no bound). Constant-initialized: the
// allocator reads them before static constructors run.
std::atomic<std::int64_t> ProcessBytes{0};
std::atomic<std::int64_t> ProcessLimit{0};
} // namespace
#endif

void setProcessMemoryLimit(std::int64_t Bytes) {
#ifndef CUDA_TIDY_NO_ALLOCATOR_COUNT
  ProcessLimit.store(Bytes, std::memory_order_relaxed);
#else
  (void)Bytes;
#endif
}

std::int64_t processAccountedBytes() {
#ifndef CUDA_TIDY_NO_ALLOCATOR_COUNT
  return ProcessBytes.load(std::memory_order_relaxed);
#else
  return 0;
#endif
}

MemoryStopDeferred::MemoryStopDeferred() {
#ifndef CUDA_TIDY_NO_ALLOCATOR_COUNT
  ++Deferred;
#endif
}

MemoryStopDeferred::~MemoryStopDeferred() {
#ifndef CUDA_TIDY_NO_ALLOCATOR_COUNT
  --Deferred;
#endif
}

bool memoryStopDeferredOnThisThread() {
#ifndef CUDA_TIDY_NO_ALLOCATOR_COUNT
  return Deferred > 0;
#else
  return false;
#endif
}

void setThreadMemoryAccount(MemoryAccount *Account) {
#ifndef CUDA_TIDY_NO_ALLOCATOR_COUNT
  Current = Account;
#else
  (void)Account;
#endif
}

bool memoryBudgetEnforced() {
#ifndef CUDA_TIDY_NO_ALLOCATOR_COUNT
  return true;
#else
  return false;
#endif
}

namespace {
/// The number in a cgroup limit file ("max", or one that cannot be read:
/// none).
std::optional<std::uint64_t> cgroupLimit(const char *Path) {
  std::FILE *F = std::fopen(Path, "r");
  if (!F)
    return std::nullopt;
  char Text[64] = {};
  const bool Read = std::fgets(Text, sizeof Text, F) != nullptr;
  std::fclose(F);
  if (!Read || Text[0] < '0' || Text[0] > '9')
    return std::nullopt;
  errno = 0;
  const unsigned long long N = std::strtoull(Text, nullptr, 10);
  if (errno || N == 0)
    return std::nullopt;
  return N;
}
} // namespace

std::uint64_t memoryAvailableBytes() {
  std::uint64_t Bytes = UINT64_MAX;
  const long Pages = ::sysconf(_SC_PHYS_PAGES);
  const long PageSize = ::sysconf(_SC_PAGESIZE);
  if (Pages > 0 && PageSize > 0)
    Bytes = static_cast<std::uint64_t>(Pages) *
            static_cast<std::uint64_t>(PageSize);
  // A container's limit (cgroup v2, then v1, which says "no limit" with a
  // huge number), then the address-space limit (ulimit -v): past either,
  // the process is killed or its allocations and thread starts fail.
  for (const char *Path : {"/sys/fs/cgroup/memory.max",
                           "/sys/fs/cgroup/memory/memory.limit_in_bytes"})
    if (std::optional<std::uint64_t> Limit = cgroupLimit(Path))
      Bytes = std::min(Bytes, *Limit);
  // The address space also holds the executable and the workers' stacks
  // (512 MiB reserved each, ParallelRun.cpp): a worker's and its
  // replacement's are set aside.
  constexpr std::uint64_t NotForData = 1280ULL << 20;
  struct rlimit AddressSpace;
  if (::getrlimit(RLIMIT_AS, &AddressSpace) == 0 &&
      AddressSpace.rlim_cur != RLIM_INFINITY)
    Bytes = std::min<std::uint64_t>(
        Bytes, AddressSpace.rlim_cur > 2 * NotForData
                   ? AddressSpace.rlim_cur - NotForData
                   : AddressSpace.rlim_cur / 2);
  return Bytes;
}

unsigned defaultFileMemoryLimitMiB() {
  constexpr unsigned Default = 4096;
  const std::uint64_t Available = memoryAvailableBytes();
  if (Available == UINT64_MAX)
    return Default;
  const unsigned long long HalfMiB = Available / 2 / (1024ULL * 1024);
  return static_cast<unsigned>(
      std::max<unsigned long long>(256, std::min<unsigned long long>(
                                            Default, HalfMiB)));
}

std::uint64_t processMemoryBudgetBytes(std::uint64_t FileLimitBytes) {
  const std::uint64_t Available = memoryAvailableBytes();
  if (Available == UINT64_MAX)
    return 0;
  return std::max(FileLimitBytes, Available / 4 * 3);
}

void tuneAllocatorForParsing(unsigned Jobs) {
#if defined(__GLIBC__) && !defined(CUDA_TIDY_NO_ALLOCATOR_COUNT)
  if (Jobs > 2 || std::getenv("CUDA_TIDY_NO_HEAP_TUNING"))
    return;
  // Under `ulimit -v` the reserve would count against the limit.
  struct rlimit AddressSpace;
  if (::getrlimit(RLIMIT_AS, &AddressSpace) != 0 ||
      AddressSpace.rlim_cur != RLIM_INFINITY)
    return;
  constexpr int Pad = 256 << 20;
  constexpr std::uintptr_t Huge = 2 << 20;
  ::mallopt(M_ARENA_MAX, 1);
  ::mallopt(M_TOP_PAD, Pad);
  ::mallopt(M_TRIM_THRESHOLD, 2 * Pad);
  // Grow the heap now (by the pad: a few blocks are enough), and advise
  // huge pages over what it grew by. Later growth of the heap past the pad
  // is a mapping of its own, with small pages, as before.
  char *const Before = static_cast<char *>(::sbrk(0));
  void *Blocks[64];
  unsigned Count = 0;
  while (Count < 64 && ::sbrk(0) == Before)
    Blocks[Count++] = std::malloc(64 << 10);
  char *const End = static_cast<char *>(::sbrk(0));
  const std::uintptr_t From =
      (reinterpret_cast<std::uintptr_t>(Before) + Huge - 1) & ~(Huge - 1);
  // sbrk's failure value is (void *)-1; compared as an address, so that no
  // integer becomes a pointer (the advised start is Before moved forward).
  if (reinterpret_cast<std::uintptr_t>(Before) !=
          static_cast<std::uintptr_t>(-1) &&
      reinterpret_cast<std::uintptr_t>(End) > From)
    (void)::madvise(Before + (From - reinterpret_cast<std::uintptr_t>(Before)),
                    reinterpret_cast<std::uintptr_t>(End) - From,
                    MADV_HUGEPAGE);
  while (Count)
    std::free(Blocks[--Count]);
#else
  (void)Jobs;
#endif
}

} // namespace clang::tidy::cuda::driver

#ifndef CUDA_TIDY_NO_ALLOCATOR_COUNT

// glibc's allocator under its exported names: the replacements below hand
// every call to it, so memory from any of them can go to any free.
// NOLINTBEGIN(bugprone-reserved-identifier,readability-identifier-naming)
extern "C" {
void *__libc_malloc(size_t Size);
void __libc_free(void *Ptr);
void *__libc_calloc(size_t Nmemb, size_t Size);
void *__libc_realloc(void *Ptr, size_t Size);
void *__libc_memalign(size_t Alignment, size_t Size);
}
// NOLINTEND(bugprone-reserved-identifier,readability-identifier-naming)

namespace {

using clang::tidy::cuda::driver::Current;
using clang::tidy::cuda::driver::Deferred;
using clang::tidy::cuda::driver::ProcessBytes;
using clang::tidy::cuda::driver::ProcessLimit;

/// Counts \p Ptr, just allocated by this thread; stops the thread for good
/// when that takes its account past its limit, or every counted thread
/// together past the process's.
void allocated(void *Ptr) {
  clang::tidy::cuda::driver::MemoryAccount *Account = Current;
  if (!Account || !Ptr)
    return;
  const auto Size = static_cast<std::int64_t>(malloc_usable_size(Ptr));
  const std::int64_t Now =
      Account->Bytes.fetch_add(Size, std::memory_order_relaxed) + Size;
  const std::int64_t Together =
      ProcessBytes.fetch_add(Size, std::memory_order_relaxed) + Size;
  const std::int64_t Bound = ProcessLimit.load(std::memory_order_relaxed);
  const bool OverProcess = Bound > 0 && Together > Bound;
  const bool OverOwn = Account->Limit > 0 && Now > Account->Limit;
  if (OverOwn || OverProcess) {
    if (!OverOwn)
      Account->OverProcessLimit.store(true, std::memory_order_relaxed);
    Account->Exceeded.store(true, std::memory_order_release);
    if (Deferred)
      return; // holding a lock of the run: stop at the next allocation
    // The run abandons the file (ParallelRun.cpp); this thread holds no
    // lock of the allocator here, and never returns into the analysis.
    for (;;)
      ::pause();
  }
}

void freeing(void *Ptr) {
  clang::tidy::cuda::driver::MemoryAccount *Account = Current;
  if (!Account || !Ptr)
    return;
  const auto Size = static_cast<std::int64_t>(malloc_usable_size(Ptr));
  Account->Bytes.fetch_sub(Size, std::memory_order_relaxed);
  ProcessBytes.fetch_sub(Size, std::memory_order_relaxed);
}

} // namespace

// NOLINTBEGIN(readability-identifier-naming): the C library's names.
extern "C" {

void *malloc(size_t Size) {
  void *Ptr = __libc_malloc(Size);
  allocated(Ptr);
  return Ptr;
}

void free(void *Ptr) {
  freeing(Ptr);
  __libc_free(Ptr);
}

void *calloc(size_t Nmemb, size_t Size) {
  void *Ptr = __libc_calloc(Nmemb, Size);
  allocated(Ptr);
  return Ptr;
}

void *realloc(void *Ptr, size_t Size) {
  if (Current && Ptr) {
    const size_t Before = malloc_usable_size(Ptr);
    void *Moved = __libc_realloc(Ptr, Size);
    if (!Moved && Size != 0)
      return nullptr; // Ptr is untouched
    Current->Bytes.fetch_sub(static_cast<std::int64_t>(Before),
                             std::memory_order_relaxed);
    ProcessBytes.fetch_sub(static_cast<std::int64_t>(Before),
                           std::memory_order_relaxed);
    allocated(Moved);
    return Moved;
  }
  void *Moved = __libc_realloc(Ptr, Size);
  allocated(Moved);
  return Moved;
}

void *memalign(size_t Alignment, size_t Size) {
  void *Ptr = __libc_memalign(Alignment, Size);
  allocated(Ptr);
  return Ptr;
}

void *aligned_alloc(size_t Alignment, size_t Size) {
  return memalign(Alignment, Size);
}

int posix_memalign(void **Memptr, size_t Alignment, size_t Size) {
  if (Alignment % sizeof(void *) != 0 ||
      (Alignment & (Alignment - 1)) != 0)
    return EINVAL;
  void *Ptr = memalign(Alignment, Size);
  if (!Ptr)
    return ENOMEM;
  *Memptr = Ptr;
  return 0;
}

void *valloc(size_t Size) {
  return memalign(static_cast<size_t>(::sysconf(_SC_PAGESIZE)), Size);
}

void *pvalloc(size_t Size) {
  const auto Page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return memalign(Page, (Size + Page - 1) / Page * Page);
}

} // extern "C"
// NOLINTEND(readability-identifier-naming)

#endif
