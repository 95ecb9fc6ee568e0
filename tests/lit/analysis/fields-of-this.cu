// RUN: %check_cuda_tidy %s cuda-divergent-barrier,cuda-full-warp-mask %t
// The fields of an object are values of their own, inside its member
// functions as in the function that owns it. A warp-cooperative selector
// keeps a per-lane field (`lane_ = threadIdx.x % 32`) beside a counter every
// lane updates with the same ballot count; a persistent-tile scheduler keeps
// a per-lane prefix sum beside a tile index and a problem index that only
// warp-wide shuffles and ballots set (vllm's WarpSelect, cutlass's
// GroupedProblemVisitor). Taking `*this` as one value made the counter and
// the indices as divergent as the per-lane field, and every barrier or
// shuffle under a test of them a finding.

struct Selector {
  __device__ explicit Selector(float threshold)
      : lane_(threadIdx.x % 32), count_(0), threshold_(threshold) {
    extern __shared__ float staging[];
    stage_ = staging + (threadIdx.x / 32) * 32;
  }
  // Every lane adds the same ballot count: the counter stays warp-uniform,
  // and so does the test before the warp-wide flush.
  __device__ void add(float v) {
    bool keep = v > threshold_;
    unsigned kept = __ballot_sync(0xffffffffu, keep);
    int &count = count_;
    if (keep)
      stage_[count + __popc(kept & ((1u << lane_) - 1))] = v;
    count += __popc(kept);
    if (count_ >= 32) {
      __syncwarp();
      flush(stage_[lane_]);
      count_ -= 32;
    }
  }
  __device__ void flush(float v) {
    float best = v;
    for (int o = 16; o > 0; o /= 2)
      best = fmaxf(best, __shfl_xor_sync(0xffffffffu, best, o));
    threshold_ = best;
  }
  int lane_;
  int count_;
  float threshold_;
  float *stage_;
};

__global__ void selectRows(const float *in, int rows) {
  Selector s(0.5f);
  for (int r = 0; r < rows; ++r)
    s.add(in[r * 32 + threadIdx.x % 32]);
}

// A scheduler with its indices in a base class: each lane holds the end of
// one problem's tiles (per lane); the warp's broadcast of the lane that
// holds the current problem decides whether the block's tile is in it.
struct TileCursor {
  __device__ explicit TileCursor(int first) : tile_(first), problem_(0) {}
  __device__ void advance(int by) { tile_ += by; }
  int tile_;
  int problem_;
};

struct Scheduler : TileCursor {
  __device__ Scheduler(const int *tiles, int problems, int first)
      : TileCursor(first), tiles_(tiles), problems_(problems), end_(0) {}
  __device__ bool next() {
    int lane = threadIdx.x % 32;
    end_ = lane < problems_ ? tiles_[lane] : 0;
    for (int d = 1; d < 32; d *= 2) {
      int below = __shfl_up_sync(0xffffffffu, end_, d);
      if (lane >= d)
        end_ += below;
    }
    int &problem = problem_;
    problem = __popc(__ballot_sync(0xffffffffu, end_ <= tile_));
    int last = __shfl_sync(0xffffffffu, end_, 31);
    return tile_ < last;
  }
  const int *tiles_;
  int problems_;
  int end_;
};

__global__ void persistent(const int *tiles, int problems, float *out) {
  __shared__ float partial[256];
  Scheduler s(tiles, problems, blockIdx.x);
  while (s.next()) {
    partial[threadIdx.x] = out[s.problem_ * 256 + threadIdx.x];
    __syncthreads();
    out[s.tile_] = partial[(threadIdx.x + 1) % 256];
    __syncthreads();
    s.advance(gridDim.x);
  }
}

// The cursor moves by a per-thread amount: the loop's test differs between
// the threads of a block.
__global__ void unevenCursor(const int *tiles, int problems, float *out) {
  __shared__ float partial[256];
  Scheduler s(tiles, problems, blockIdx.x);
  while (s.next()) {
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: call to 'next' reaches '__shfl_up_sync' with a full warp mask under control flow that diverges within the warp (loop trip count): lanes that left the loop are named in the mask [cuda-full-warp-mask]
    partial[threadIdx.x] = out[s.problem_ * 256 + threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    out[s.tile_] = partial[(threadIdx.x + 1) % 256];
    s.advance(threadIdx.x % 2 + 1);
  }
}

// A constructor that stores the thread's index into the field the loop
// tests: every thread starts elsewhere.
__global__ void perThreadStart(const int *tiles, int problems, float *out) {
  __shared__ float partial[256];
  TileCursor c(threadIdx.x);
  while (c.tile_ < problems) {
    partial[threadIdx.x] = out[c.tile_];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    out[c.tile_] = partial[(threadIdx.x + 1) % 256];
    c.advance(gridDim.x * blockDim.x);
  }
}
