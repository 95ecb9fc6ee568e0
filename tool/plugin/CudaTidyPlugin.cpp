//===--- CudaTidyPlugin.cpp - the clang-tidy plugin front-end -------------===//
//
// The plugin is the check library and nothing else: the module registers
// itself (checks/CudaTidyModule.cpp) when clang-tidy dlopen()s this file.
// This translation unit exists so the plugin has a source of its own and
// a place to say so.
//
//===----------------------------------------------------------------------===//
