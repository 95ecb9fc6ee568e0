// cuda-tidy real-code stand-in, written from scratch: ge-spmm-cuda names the
// namespace only (its option parser is commented out).
#pragma once
namespace boost { namespace program_options {} }
