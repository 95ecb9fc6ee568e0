// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.AssumeBlockDimXMultipleOf32: true}}"
// A packed tensor accessor (PyTorch's GenericPackedTensorAccessor) holds its
// sizes and strides in arrays of its own; its non-const `operator[]` makes
// a view of one row from `index_t *new_sizes = this->sizes_ + 1`, a pointer
// into the object that it only hands to the view's `const index_t *`
// parameter. Nothing can be stored through it: the call changes nothing of
// the accessor. Taking it for a write made every store through a view,
// under `threadIdx.x == 0`, a write of the accessor under a lane-dependent
// branch, and every size read from it lane-dependent, even one read before
// the loop (FBGEMM lru_cache_populate.cu:47/61).

template <typename T, int N> struct RowView {
  __device__ RowView(T *data, const int *sizes, const int *strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  __device__ RowView<T, N - 1> operator[](int i) {
    return RowView<T, N - 1>(data_ + strides_[0] * i, sizes_ + 1,
                             strides_ + 1);
  }
  T *data_;
  const int *sizes_;
  const int *strides_;
};

template <typename T> struct RowView<T, 1> {
  __device__ RowView(T *data, const int *sizes, const int *strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  __device__ T &operator[](int i) { return data_[strides_[0] * i]; }
  T *data_;
  const int *sizes_;
  const int *strides_;
};

template <typename T, int N> struct Packed {
  __host__ __device__ int size(int d) const { return sizes_[d]; }
  __device__ RowView<T, N - 1> operator[](int i) {
    int *new_sizes = this->sizes_ + 1;
    int *new_strides = this->strides_ + 1;
    return RowView<T, N - 1>(this->data_ + this->strides_[0] * i, new_sizes,
                             new_strides);
  }
  // Writes its own sizes through a local pointer: a write of the object.
  __device__ RowView<T, N - 1> reshapedRow(int i) {
    int *new_sizes = this->sizes_ + 1;
    new_sizes[0] = 1;
    return RowView<T, N - 1>(this->data_ + this->strides_[0] * i, new_sizes,
                             this->strides_ + 1);
  }
  T *data_;
  int sizes_[N];
  int strides_[N];
};

// One warp per set; lane 0 records the insertion through a view.
__global__ void insert(const int *sets, const int *count,
                       Packed<long, 2> state, long stamp) {
  const int C = state.size(0);
  for (int n = blockIdx.x * blockDim.y + threadIdx.y; n < *count;
       n += gridDim.x * blockDim.y) {
    const int set = sets[n];
    if (set == C)
      continue;
    long slot = __shfl_sync(0xffffffffu, (long)threadIdx.x, 0);
    if (threadIdx.x == 0)
      state[set][slot] = stamp;
  }
}

// The same with a member that does write the sizes: the size read in the
// next iteration may differ between lanes.
__global__ void insertReshaped(const int *sets, const int *count,
                               Packed<long, 2> state, long stamp) {
  const int C = state.size(0);
  for (int n = blockIdx.x * blockDim.y + threadIdx.y; n < *count;
       n += gridDim.x * blockDim.y) {
    const int set = sets[n];
    if (set == C)
      continue;
    long slot = __shfl_sync(0xffffffffu, (long)threadIdx.x, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
    if (threadIdx.x == 0)
      state.reshapedRow(set)[slot] = stamp;
  }
}
