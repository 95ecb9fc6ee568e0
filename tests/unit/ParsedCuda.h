//===--- ParsedCuda.h - a CUDA snippet parsed for analysis unit tests -----===//
//
// Parses device code with the real CUDA 13 headers (device side, sm_90) and
// finds its functions by name. <cassert> and WARP_SIZE come first.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TESTS_UNIT_PARSEDCUDA_H
#define CUDA_TIDY_TESTS_UNIT_PARSEDCUDA_H

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::cuda::analysis {

class ParsedCuda {
public:
  explicit ParsedCuda(llvm::StringRef Code) {
    std::vector<std::string> Args = {
        "-x", "cuda", "--cuda-device-only", "--cuda-path=/usr/local/cuda",
        "-I/usr/local/cuda/include/cccl", "-Wno-unknown-cuda-version",
        "--cuda-gpu-arch=sm_90", "-std=c++17",
        "-resource-dir=" CUDA_TIDY_TEST_RESOURCE_DIR};
    std::string Source = "#include <cassert>\n#define WARP_SIZE 32\n";
    Source += Code.str();
    AST = tooling::buildASTFromCodeWithArgs(Source, Args, "shape.cu");
  }
  bool parsedCleanly() const {
    return AST && !AST->getDiagnostics().hasErrorOccurred();
  }
  ASTContext &context() { return AST->getASTContext(); }
  /// The first non-dependent definition named \p Name (an instantiation
  /// for a template).
  const FunctionDecl *function(llvm::StringRef Name) {
    for (const auto &Node :
         ast_matchers::match(ast_matchers::functionDecl(ast_matchers::hasName(Name), ast_matchers::isDefinition()).bind("f"),
               context()))
      if (const auto *FD = Node.getNodeAs<FunctionDecl>("f"))
        if (!FD->isDependentContext())
          return FD;
    ADD_FAILURE() << "no function " << Name.str();
    return nullptr;
  }
  /// The calls of a function named \p Callee in \p F's body, in the order
  /// the matcher visits them (source order).
  std::vector<const CallExpr *> callsOf(const FunctionDecl *F,
                                        llvm::StringRef Callee) {
    using namespace ast_matchers;
    std::vector<const CallExpr *> Calls;
    for (const auto &Node :
         match(functionDecl(equalsNode(F),
                            forEachDescendant(
                                callExpr(callee(functionDecl(hasName(Callee))))
                                    .bind("c"))),
               context()))
      Calls.push_back(Node.getNodeAs<CallExpr>("c"));
    return Calls;
  }

private:
  std::unique_ptr<ASTUnit> AST;
};

} // namespace clang::tidy::cuda::analysis

#endif
