//===--- CompileErrors.cpp - which function definitions do not compile ----===//

#include "checks/analysis/core/CompileErrors.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda::analysis {

SourceLocation firstCompileError(const FunctionDecl &Definition) {
  if (Definition.isInvalidDecl())
    return Definition.getLocation();
  // A constructor's member initialisers are part of what it does.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&Definition))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getInit() && Init->getInit()->containsErrors())
        return Init->getSourceLocation();
  const Stmt *Body = Definition.getBody();
  if (!Body)
    return {};
  // Depth first, children in order: the first error met is the first in
  // the source. An expression that contains errors marks its whole tree,
  // so the walk stops at the outermost one.
  llvm::SmallVector<const Stmt *, 32> Work = {Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *E = dyn_cast<Expr>(S); E && E->containsErrors())
      return E->getBeginLoc();
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D->isInvalidDecl())
          return D->getLocation();
    const size_t Before = Work.size();
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
    std::reverse(Work.begin() + Before, Work.end());
  }
  return {};
}

} // namespace clang::tidy::cuda::analysis
