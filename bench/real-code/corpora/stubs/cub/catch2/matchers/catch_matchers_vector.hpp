// cuda-tidy bench stand-in (our own, not Catch2): declarations in catch_stub.hpp
#pragma once
#include "../catch_stub.hpp"
