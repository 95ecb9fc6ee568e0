//===--- GroupByValueCheck.cpp - cuda-group-by-value ----------------------===//

#include "checks/GroupByValueCheck.h"
#include "checks/analysis/api/CooperativeGroups.h"

#include "clang-tidy/utils/DeclRefExprUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Regex.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void GroupByValueCheck::registerMatchers(MatchFinder *Finder) {
  // Only record-typed parameters can be handles; the precise test needs the
  // base-class walk in analysis::groupKindOfType and runs in check().
  Finder->addMatcher(
      parmVarDecl(unless(isExpansionInSystemHeader()),
                  hasType(qualType(hasCanonicalType(recordType()))),
                  hasDeclContext(functionDecl().bind("function")))
          .bind("param"),
      this);
}

/// The declaration whose text the user wrote: the template pattern for an
/// instantiation (of a function template, a member of a class template or a
/// generic lambda), the function itself otherwise.
static const FunctionDecl *writtenFunction(const FunctionDecl *Function) {
  if (const FunctionDecl *Pattern = Function->getTemplateInstantiationPattern())
    return Pattern;
  return Function;
}

/// Why no fix is offered for this parameter, or an empty string when one is.
/// \p Instance is the function with concrete types (the instantiation for a
/// template), whose body tells whether the copy is modified: in a template
/// pattern every member call on a dependent type looks like a mutation.
static StringRef reasonAgainstFix(const FunctionDecl &Function,
                                  const FunctionDecl &Instance,
                                  const ParmVarDecl &Param,
                                  ASTContext &Context) {
  if (Function.hasAttr<CUDAGlobalAttr>())
    return "a kernel cannot take a reference to a device-side object";
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Function))
    if (Method->isVirtual())
      return "changing a virtual function's signature breaks its overrides";
  if (Param.isParameterPack())
    return "parameter packs are not rewritten";
  if (const FunctionDecl *Definition = Instance.getDefinition())
    if (const Stmt *Body = Definition->getBody()) {
      const ParmVarDecl *DefParam =
          Definition->getParamDecl(Param.getFunctionScopeIndex());
      if (!utils::decl_ref_expr::isOnlyUsedAsConst(*DefParam, *Body, Context,
                                                   0))
        return "the function modifies its copy of the handle";
    }
  return {};
}

/// Rewrites one declaration of the parameter from `T name` to
/// `const T &name`, or returns false when its text cannot be edited safely.
static bool addReferenceFix(const ParmVarDecl &Param, const SourceManager &SM,
                            const LangOptions &LangOpts,
                            std::vector<FixItHint> &Fixes) {
  const TypeSourceInfo *TSI = Param.getTypeSourceInfo();
  if (!TSI)
    return false;
  SourceRange TypeRange = TSI->getTypeLoc().getSourceRange();
  if (TypeRange.isInvalid() || TypeRange.getBegin().isMacroID() ||
      TypeRange.getEnd().isMacroID())
    return false;
  if (!Param.getType().isLocalConstQualified())
    Fixes.push_back(FixItHint::CreateInsertion(TypeRange.getBegin(), "const "));
  SourceLocation NameLoc = Param.getLocation();
  if (Param.getIdentifier() && NameLoc.isValid() && !NameLoc.isMacroID()) {
    Fixes.push_back(FixItHint::CreateInsertion(NameLoc, "&"));
    return true;
  }
  SourceLocation AfterType =
      Lexer::getLocForEndOfToken(TypeRange.getEnd(), 0, SM, LangOpts);
  if (AfterType.isInvalid())
    return false;
  Fixes.push_back(FixItHint::CreateInsertion(AfterType, " &"));
  return true;
}

/// The parameter's type as the user wrote it; for a template parameter,
/// also the group type it was instantiated with, without CUDA's versioned
/// namespace (cooperative_groups::__v1::thread_block reads as
/// cooperative_groups::thread_block).
static std::string displayedType(const ParmVarDecl &Written,
                                 const ParmVarDecl &Instance,
                                 const ASTContext &Context) {
  PrintingPolicy Policy(Context.getLangOpts());
  std::string AsWritten = "'" + Written.getType().getAsString(Policy) + "'";
  if (!Written.getType()->isDependentType())
    return AsWritten;
  std::string Concrete =
      Instance.getType().getCanonicalType().getAsString(Policy);
  static const llvm::Regex VersionedNamespace("cooperative_groups::__v[0-9]+::");
  while (VersionedNamespace.match(Concrete))
    Concrete = VersionedNamespace.sub("cooperative_groups::", Concrete);
  return AsWritten + " (here '" + Concrete + "')";
}

void GroupByValueCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Param = Result.Nodes.getNodeAs<ParmVarDecl>("param");
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  std::optional<analysis::GroupKind> Kind =
      analysis::groupKindOfType(Param->getType());
  if (!Kind)
    return;
  // Implicit functions (copy constructors of user classes, ...) have no
  // text to point at.
  if (Function->isImplicit())
    return;

  const FunctionDecl *Written = writtenFunction(Function);
  const unsigned Index = Param->getFunctionScopeIndex();
  if (Index >= Written->getNumParams())
    return;
  if (!Reported.insert({Written->getCanonicalDecl(), Index}).second)
    return;

  // Report where the body is, if the user wrote one: that is where the copy
  // happens and where a reviewer looks.
  const FunctionDecl *ReportedDecl =
      Written->getDefinition() ? Written->getDefinition() : Written;
  const ParmVarDecl *ReportedParam = ReportedDecl->getParamDecl(Index);
  if (Result.SourceManager->isInSystemHeader(ReportedParam->getLocation()))
    return;

  ASTContext &Context = *Result.Context;
  std::string Name = Param->getName().empty()
                         ? ("#" + llvm::Twine(Index + 1)).str()
                         : Param->getName().str();
  StringRef NoFixReason = reasonAgainstFix(*Written, *Function, *ReportedParam, Context);
  std::vector<FixItHint> Fixes;
  // Every declaration of the function changes together, or none does: a
  // definition whose signature no longer matches its prototype declares a
  // new overload.
  if (NoFixReason.empty()) {
    for (const FunctionDecl *Redecl : Written->redecls()) {
      if (Index >= Redecl->getNumParams() ||
          !addReferenceFix(*Redecl->getParamDecl(Index),
                           *Result.SourceManager, getLangOpts(), Fixes)) {
        NoFixReason = "a declaration of the parameter is spelled through a "
                      "macro";
        Fixes.clear();
        break;
      }
    }
  }

  diag(ReportedParam->getLocation(),
       "cooperative-groups handle '%0' of type %1 is passed by value; pass "
       "group handles by reference")
      << Name << displayedType(*ReportedParam, *Param, Context) << Fixes;
  if (!NoFixReason.empty())
    diag(ReportedParam->getLocation(), "no fix offered: %0",
         DiagnosticIDs::Note)
        << NoFixReason;
}

} // namespace clang::tidy::cuda
