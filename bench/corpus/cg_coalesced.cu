// coalesced_threads() and labeled partitions for work that only some
// threads take on.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ int appendToQueue(int *Queue, int *Tail, int Item) {
  cg::coalesced_group Active = cg::coalesced_threads();
  int Base = 0;
  if (Active.thread_rank() == 0)
    Base = atomicAdd(Tail, Active.size());
  Base = Active.shfl(Base, 0);
  int Slot = Base + Active.thread_rank();
  Queue[Slot] = Item;
  return Slot;
}

__global__ void filterPositive(const int *In, int N, int *Queue, int *Tail) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N && In[I] > 0)
    appendToQueue(Queue, Tail, In[I]);
}

__global__ void groupByKey(const int *Keys, const float *Values, float *Sums,
                           int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  cg::coalesced_group Active = cg::coalesced_threads();
  cg::coalesced_group Same = cg::labeled_partition(Active, Keys[I]);
  float Sum = Values[I];
  for (unsigned Offset = 1; Offset < Same.size(); Offset <<= 1) {
    float Other = Same.shfl_down(Sum, Offset);
    if (Same.thread_rank() + Offset < Same.size())
      Sum += Other;
  }
  if (Same.thread_rank() == 0)
    atomicAdd(&Sums[Keys[I]], Sum);
}
