// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): NCCL's
// src/Makefile installs the DOCA GPUNetIO headers of
// src/transport/net_ib/gdaki/doca-gpunetio/include/ next to the nccl_device
// headers in $(BUILDDIR)/include, where gin_gdaki.h finds them as
// "doca_gpunetio/...".  This forwards to them in place.
#pragma once
#include "../../../../src/transport/net_ib/gdaki/doca-gpunetio/include/doca_gpunetio_device.h"
