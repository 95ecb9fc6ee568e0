// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// A call of a member function is a write of its object only when the
// member may change the object (divergence/ObjectWrites.h): view and span
// accessors that read, or write only through the pointers the object holds,
// leave it as it was, so a lane-dependent access does not make the object's
// sizes lane-dependent (faiss's Tensor, NCCL's session objects).

struct View {
  float *p;
  int n;
  __device__ float &operator[](int i) { return p[i]; }
  __device__ int size() const { return n; }
};

// A span-like accessor under a lane-dependent ?: inside a loop on the size.
__global__ void viewAccessor(View v, float *out) {
  __shared__ float s[256];
  for (int r = 0; r < v.size(); ++r) {
    s[threadIdx.x] = threadIdx.x < 100 ? v[threadIdx.x] : 0.f;
    __syncthreads();
    out[r] = s[0];
    __syncthreads();
  }
}

template <typename T> struct Tensor;
template <typename T> struct SubTensor {
  __device__ SubTensor(Tensor<T> &t, T *d) : tensor(t), data(d) {}
  __device__ T &operator[](int i) { return data[i]; }
  Tensor<T> &tensor;
  T *data;
};
template <typename T> struct Tensor {
  T *data;
  int sizes[2];
  int strides[2];
  __device__ SubTensor<T> operator[](int i) {
    return SubTensor<T>(*this, data + i * strides[0]);
  }
  __device__ int getSize(int d) const { return sizes[d]; }
};

// A view made of the tensor by a non-const operator[].
__global__ void tensorRows(Tensor<float> in, float *out) {
  __shared__ float s[128];
  for (int r = 0; r < in.getSize(0); ++r) {
    s[threadIdx.x] = threadIdx.x < in.getSize(1) ? in[r][threadIdx.x] : 0.f;
    __syncthreads();
    out[r] = s[0];
    __syncthreads();
  }
}

// A member that does store a lane-dependent value in the object.
struct Counter {
  int n;
  __device__ void set(int v) { n = v; }
};
__global__ void realWrite(Counter c, float *out) {
  __shared__ float s[128];
  if (threadIdx.x < 5)
    c.set(threadIdx.x);
  for (int r = 0; r < c.n; ++r) {
    s[threadIdx.x] = r;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
  }
  __syncthreads(); // the threads that leave the loop early wait here
  out[threadIdx.x] = s[threadIdx.x];
}
