// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py) for the
// nccl.h that NCCL's src/Makefile generates into $(BUILDDIR)/include from
// src/nccl.h.in, filling in the version of makefiles/version.mk.  The
// template's version macros hold ${nccl:...} placeholders; this header
// includes the template and defines them again with the values.
#pragma once
#include "../../../src/nccl.h.in"
#undef NCCL_MAJOR
#undef NCCL_MINOR
#undef NCCL_PATCH
#undef NCCL_SUFFIX
#undef NCCL_VERSION_CODE
#define NCCL_MAJOR 2
#define NCCL_MINOR 30
#define NCCL_PATCH 7
#define NCCL_SUFFIX ""
#define NCCL_VERSION_CODE 23007
