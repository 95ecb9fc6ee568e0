// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Barriers in the cases of a switch.

__global__ void switchOnLaneGroup(float *out) {
  __shared__ float s[256];
  switch (threadIdx.x % 4) {
  case 0:
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (switch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:11: note: this condition is not uniform across the block
    break;
  default:
    s[threadIdx.x] = 0.0f;
    break;
  }
  out[threadIdx.x] = s[0];
}

__global__ void switchOnLoadedOpcode(const int *ops, float *out) {
  int op = ops[threadIdx.x];
  switch (op) {
  case 1:
  case 2:
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (switch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:11: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-7]]:7: note: 'op' depends on 'threadIdx.x'
    break;
  }
  out[threadIdx.x] = op;
}

// Switching on the block's own opcode: the whole block takes one case.
__global__ void switchOnBlockOpcode(const int *ops, float *out) {
  __shared__ float s[256];
  switch (ops[blockIdx.x]) {
  case 0:
    s[threadIdx.x] = 0.0f;
    __syncthreads();
    break;
  case 1:
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    break;
  default:
    return;
  }
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

// A barrier after the switch is reached by every thread again.
__global__ void barrierAfterSwitch(float *out) {
  __shared__ float s[256];
  switch (threadIdx.x % 3) {
  case 0:
    s[threadIdx.x] = 0.0f;
    break;
  case 1:
    s[threadIdx.x] = 1.0f;
    break;
  default:
    s[threadIdx.x] = 2.0f;
  }
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
