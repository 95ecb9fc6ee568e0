// A C++ header: it keeps the flags of its C++ neighbour.
#pragma once
inline int add(int a, int b) { return a + b; }
