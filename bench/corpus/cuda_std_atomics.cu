// libcu++: cuda::atomic_ref for a device-wide counter, cuda::std::span for
// bounds, and a ticket lock built on them.
#include <cuda/atomic>
#include <cuda/std/span>

struct TicketLock {
  unsigned Next;
  unsigned Serving;
};

__device__ void acquire(TicketLock &Lock) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> Next(Lock.Next);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> Serving(Lock.Serving);
  unsigned Ticket = Next.fetch_add(1, cuda::std::memory_order_relaxed);
  while (Serving.load(cuda::std::memory_order_acquire) != Ticket)
    __nanosleep(32);
}

__device__ void release(TicketLock &Lock) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> Serving(Lock.Serving);
  Serving.fetch_add(1, cuda::std::memory_order_release);
}

__global__ void countMatches(cuda::std::span<const int> Data, int Needle,
                             unsigned *Count) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> Total(*Count);
  unsigned Local = 0;
  for (size_t I = blockIdx.x * blockDim.x + threadIdx.x; I < Data.size();
       I += gridDim.x * blockDim.x)
    Local += Data[I] == Needle;
  if (Local)
    Total.fetch_add(Local, cuda::std::memory_order_relaxed);
}

__global__ void appendUnderLock(TicketLock *Lock, int *List, int *Size,
                                const int *Items, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N || threadIdx.x % 32 != 0)
    return;
  acquire(*Lock);
  List[(*Size)++] = Items[I];
  __threadfence();
  release(*Lock);
}

void count(const int *Data, size_t N, int Needle, unsigned *Count) {
  countMatches<<<256, 256>>>(cuda::std::span<const int>(Data, N), Needle,
                             Count);
}
