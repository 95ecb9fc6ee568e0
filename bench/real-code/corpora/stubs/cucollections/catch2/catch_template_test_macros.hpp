// cuda-tidy real-code stand-in for Catch2: see catch_stub.hpp.
#pragma once
#include "catch_stub.hpp"
