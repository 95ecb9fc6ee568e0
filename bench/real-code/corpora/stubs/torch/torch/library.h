// cuda-tidy real-code stand-in (bench/real-code/corpora/stubs/torch): declarations in _cuda_tidy_torch.h.
#pragma once
#include <_cuda_tidy_torch.h>
