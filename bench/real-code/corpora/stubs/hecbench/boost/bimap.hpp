// cuda-tidy real-code stand-in, written from scratch: a two-way map type
// that hbc-cuda/parse.h declares a member of (its .cpp files use it).
#pragma once
namespace boost {
template <class L, class R> class bimap {};
}
