// cuda-tidy real-code stand-in (bench/real-code/corpora/stubs/torch).
#pragma once
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR 10
#define TORCH_VERSION_PATCH 0
#define TORCH_VERSION "2.10.0"
