// cuda-tidy real-code stand-in, written from scratch: hbc-cuda's headers
// include it; only its .cpp files call into it.
#pragma once
namespace boost { namespace algorithm {} }
