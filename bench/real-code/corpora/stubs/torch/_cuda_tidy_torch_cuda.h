// Stand-in for PyTorch's CUDA helpers (ATen/cuda/CUDAContext.h,
// c10/cuda/CUDAGuard.h, c10/cuda/CUDAStream.h), written from scratch for
// cuda-tidy's real-code benchmark: declarations only.
#pragma once

#include <optional>

#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cublasLt.h>

#include "_cuda_tidy_torch.h"

namespace c10 {
namespace cuda {

class CUDAStream {
 public:
  enum Unchecked { UNCHECKED };
  CUDAStream() = default;
  cudaStream_t stream() const;
  operator cudaStream_t() const { return stream(); }
  c10::Device device() const;
  c10::DeviceIndex device_index() const;
  int64_t id() const;
  void synchronize() const;
  bool query() const;
  bool operator==(const CUDAStream&) const;
  bool operator!=(const CUDAStream&) const;
};

CUDAStream getCurrentCUDAStream(c10::DeviceIndex device_index = -1);
CUDAStream getDefaultCUDAStream(c10::DeviceIndex device_index = -1);
CUDAStream getStreamFromPool(bool isHighPriority = false,
                             c10::DeviceIndex device = -1);
CUDAStream getStreamFromExternal(cudaStream_t, c10::DeviceIndex);
void setCurrentCUDAStream(CUDAStream);
c10::DeviceIndex current_device();
c10::DeviceIndex device_count();
void set_device(c10::DeviceIndex);
void device_synchronize();

struct CUDAGuard {
  explicit CUDAGuard(c10::DeviceIndex);
  explicit CUDAGuard(c10::Device);
  CUDAGuard(const CUDAGuard&) = delete;
  ~CUDAGuard();
  void set_device(c10::Device);
  void set_index(c10::DeviceIndex);
  c10::Device original_device() const;
  c10::Device current_device() const;
};

struct OptionalCUDAGuard {
  OptionalCUDAGuard();
  explicit OptionalCUDAGuard(std::optional<c10::Device>);
  explicit OptionalCUDAGuard(c10::Device);
  explicit OptionalCUDAGuard(std::optional<c10::DeviceIndex>);
  explicit OptionalCUDAGuard(c10::DeviceIndex);
  explicit OptionalCUDAGuard(int);
  explicit OptionalCUDAGuard(int64_t);
  OptionalCUDAGuard(const OptionalCUDAGuard&) = delete;
  ~OptionalCUDAGuard();
  void set_device(c10::Device);
  void set_index(c10::DeviceIndex);
  void reset();
  std::optional<c10::Device> original_device() const;
  std::optional<c10::Device> current_device() const;
};

struct CUDAStreamGuard {
  explicit CUDAStreamGuard(CUDAStream);
  ~CUDAStreamGuard();
};
struct OptionalCUDAStreamGuard {
  OptionalCUDAStreamGuard();
  explicit OptionalCUDAStreamGuard(CUDAStream);
  explicit OptionalCUDAStreamGuard(std::optional<CUDAStream>);
  ~OptionalCUDAStreamGuard();
};

struct CUDACachingAllocatorStub {
  at::DataPtr allocate(size_t) const;
  void* raw_alloc(size_t);
  void* raw_alloc_with_stream(size_t, cudaStream_t);
  void raw_delete(void*);
};
namespace CUDACachingAllocator {
void* raw_alloc(size_t);
void* raw_alloc_with_stream(size_t, cudaStream_t);
void raw_delete(void*);
CUDACachingAllocatorStub* get();
}  // namespace CUDACachingAllocator

}  // namespace cuda
}  // namespace c10

namespace at {
namespace cuda {
using namespace c10::cuda;
cudaDeviceProp* getCurrentDeviceProperties();
cudaDeviceProp* getDeviceProperties(c10::DeviceIndex device);
int warp_size();
cublasHandle_t getCurrentCUDABlasHandle();
bool is_available();
void* getCurrentCUDABlasLtHandle();
struct CUDAEvent {
  CUDAEvent();
  explicit CUDAEvent(unsigned int flags);
  void record(const CUDAStream&);
  void record();
  void block(const CUDAStream&);
  void synchronize() const;
  float elapsed_time(const CUDAEvent&) const;
  cudaEvent_t event() const;
  operator cudaEvent_t() const;
};
namespace detail {
bool hasPrimaryContext(c10::DeviceIndex);
}
}  // namespace cuda
}  // namespace at

namespace torch {
namespace cuda {
bool is_available();
int64_t device_count();
void synchronize(int64_t device_index = -1);
}  // namespace cuda
}  // namespace torch

namespace at {
namespace cuda {
struct CUDAGraph {
  CUDAGraph();
  using MempoolId_t = std::pair<unsigned long long, unsigned long long>;
  void capture_begin(MempoolId_t pool = {0, 0},
                     cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal);
  void capture_end();
  void replay();
  void reset();
};
enum class CaptureStatus { None, Active, Invalidated };
CaptureStatus currentStreamCaptureStatus();
inline void assertNotCapturing(const std::string&) {}
}  // namespace cuda
}  // namespace at
