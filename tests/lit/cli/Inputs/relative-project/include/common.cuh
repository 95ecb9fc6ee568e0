#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
