// Prints the facts about the GPU and the CUDA runtime that the runner records
// with the evidence. Not a case.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int Count = 0;
  cudaError_t Err = cudaGetDeviceCount(&Count);
  if (Err != cudaSuccess || Count == 0) {
    std::printf("error=%s\n", Err != cudaSuccess ? cudaGetErrorName(Err)
                                                   : "no CUDA device");
    return 1;
  }
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, 0) != cudaSuccess)
    return 1;
  int Runtime = 0, Driver = 0;
  cudaRuntimeGetVersion(&Runtime);
  cudaDriverGetVersion(&Driver);
  std::printf("name=%s\n", Prop.name);
  std::printf("compute_capability=%d.%d\n", Prop.major, Prop.minor);
  std::printf("sms=%d\n", Prop.multiProcessorCount);
  std::printf("runtime_version=%d.%d\n", Runtime / 1000, (Runtime % 1000) / 10);
  std::printf("driver_api_version=%d.%d\n", Driver / 1000, (Driver % 1000) / 10);
  std::printf("devices=%d\n", Count);
  return 0;
}
