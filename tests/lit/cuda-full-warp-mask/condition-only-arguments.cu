// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// A callee whose only use of a parameter is the condition over a full-mask
// intrinsic: the call is judged by what it passes there, although the
// parameter decides neither the callee's return value nor its stores nor a
// barrier. Free functions, member functions and operators alike.

#define FULL 0xffffffffu

// Nothing returned, nothing stored: `tid` decides only the branch.
__device__ void settle(int tid, int n) {
  if (tid < n)
    __syncwarp(FULL);
}

__global__ void settleEachLane(int n) {
  settle(threadIdx.x, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'settle' reaches '__syncwarp' with a full warp mask under control flow that diverges within the warp (via call): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: this argument is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-8]]:7: note: this condition in 'settle' depends on it
  // CHECK-NOTES: :[[@LINE-8]]:16: note: '__syncwarp' is called here with a full warp mask
}

// The same callee passed values uniform across the warp: quiet.
__global__ void settleEachWarp(int n) {
  settle(threadIdx.x / 32, n);
  settle(blockIdx.x, n);
  settle(n, n);
}

// A member function: `first` decides only which lanes vote.
struct Voter {
  int limit;
  __device__ void vote(int first, unsigned *out) const {
    if (first < limit)
      out[0] = __ballot_sync(FULL, 1);
  }
};

__global__ void voteEachLane(Voter voter, unsigned *out) {
  voter.vote(threadIdx.x % 32, out);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'vote' reaches '__ballot_sync' with a full warp mask under control flow that diverges within the warp (via call): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-2]]:14: note: this argument is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-9]]:9: note: this condition in 'vote' depends on it
  // CHECK-NOTES: :[[@LINE-9]]:30: note: '__ballot_sync' is called here with a full warp mask
}

__global__ void voteEachWarp(Voter voter, unsigned *out) {
  voter.vote(threadIdx.x / 32, out);
}

// A call operator: its parameter is the call's second argument.
struct Gate {
  __device__ void operator()(int lane) const {
    if (lane < 8)
      __syncwarp(FULL);
  }
};

__global__ void gateEachLane(Gate gate) {
  gate(threadIdx.x % 32);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'operator()' reaches '__syncwarp' with a full warp mask under control flow that diverges within the warp (via call): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-2]]:8: note: this argument is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-9]]:9: note: this condition in 'operator()' depends on it
  // CHECK-NOTES: :[[@LINE-9]]:18: note: '__syncwarp' is called here with a full warp mask
  gate(threadIdx.x / 32);
}
