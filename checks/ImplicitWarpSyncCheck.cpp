//===--- ImplicitWarpSyncCheck.cpp - cuda-implicit-warp-sync --------------===//

#include "checks/ImplicitWarpSyncCheck.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/memory/GlobalAccesses.h"
#include "checks/analysis/memory/SharedAccesses.h"
#include "checks/analysis/memory/WarpExchanges.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"


using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using analysis::SharedAccess;
using analysis::ThreadCoord;

void ImplicitWarpSyncCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void ImplicitWarpSyncCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!Kernel || Kernel->isDependentContext() || !Kernel->getBody())
    return;
  ASTContext &Ctx = *Result.Context;
  for (const analysis::SharedAccessSite &Site :
       analysis::AnalysisManager::forContext(Ctx, analysis::AnalysisOptions())
           .sharedAccessSites(Kernel, analysis::Scope::Warp))
    report(*Site.Accesses, *Site.Divergence, Site.Call, Ctx);

  // Global-memory scratch and wmma tiles: the kernel's own accesses, then
  // each call that passes a pointer, for the threads that make it.
  analysis::AnalysisManager &Manager =
      analysis::AnalysisManager::forContext(Ctx, analysis::AnalysisOptions());
  if (const analysis::FunctionDivergence *D = Manager.divergence(Kernel)) {
    analysis::GlobalAccessAnalysis Own(Kernel, Ctx, Manager);
    reportMemory(Own, *D, nullptr, Ctx);
  }
  for (const CallExpr *Call : analysis::pointerArgumentCalls(Kernel)) {
    const FunctionDecl *Callee = Call->getDirectCallee()->getDefinition();
    const analysis::FunctionDivergence *D = Manager.divergence(Callee);
    if (!D)
      continue;
    analysis::GlobalAccessOptions Options;
    Options.Call = Call;
    Options.Caller = Kernel;
    analysis::GlobalAccessAnalysis AtCall(Callee, Ctx, Manager, Options);
    reportMemory(AtCall, *D, Call, Ctx);
  }
}

void ImplicitWarpSyncCheck::reportMemory(
    const analysis::GlobalAccessAnalysis &Accesses,
    const analysis::FunctionDivergence &D, const CallExpr *Call,
    ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const analysis::MemoryExchange &Exchange : Accesses.exchanges()) {
    const analysis::MemoryExchangeRead &First = Exchange.Reads.front();
    SourceLocation Loc = SM.getExpansionLoc(First.Read->Where->getBeginLoc());
    if (!Reported.insert(Loc.getRawEncoding()).second)
      continue;
    // __syncwarp() before each racing read's statement, when its write is in
    // an earlier statement of the same block and the warp reaches the
    // statement together.
    std::vector<FixItHint> Fixes;
    llvm::DenseSet<const Stmt *> Done;
    for (const analysis::MemoryExchangeRead &Each : Exchange.Reads) {
      auto [Statement, Block] =
          analysis::enclosingStatement(Each.Read->Where, Ctx);
      auto [WriteStatement, WriteBlock] =
          analysis::enclosingStatement(Each.Write->Where, Ctx);
      if (!Statement || !WriteStatement || WriteBlock != Block ||
          WriteStatement == Statement || !Statement->getBeginLoc().isFileID() ||
          D.divergenceAt(Statement, analysis::Scope::Warp) ||
          (Call && D.controlUniformity(Statement).dependsOnSymbols()) ||
          !SM.isBeforeInTranslationUnit(WriteStatement->getBeginLoc(),
                                        Statement->getBeginLoc())) {
        Fixes.clear();
        break;
      }
      if (!Done.insert(Statement).second)
        continue;
      StringRef Indent =
          Lexer::getIndentationForLine(Statement->getBeginLoc(), SM);
      Fixes.push_back(FixItHint::CreateInsertion(
          Statement->getBeginLoc(), "__syncwarp();\n" + Indent.str()));
    }
    std::string Base = Exchange.Base->getName().str();
    std::string Reader = "thread " + std::to_string(First.Witness.Reader);
    {
      auto Warning =
          Exchange.Tile
              ? diag(Loc, "lanes of one warp read the tile that "
                          "wmma::store_matrix_sync wrote to '%0' with no "
                          "__syncwarp() between: the store's lane-to-element "
                          "mapping is unspecified, so %1 can read %2 as "
                          "another lane of its warp stored it")
              : diag(Loc, "lanes of one warp exchange data through global "
                          "memory '%0' with no __syncwarp() between the write "
                          "and the read: %1 reads %2 while thread %3 writes "
                          "it");
      Warning << Base << Reader << First.Witness.Cell;
      if (!Exchange.Tile)
        Warning << std::to_string(First.Witness.Writer);
      for (const FixItHint &Fix : Fixes)
        Warning << Fix;
    }
    diag(SM.getExpansionLoc(First.Write->Where->getBeginLoc()),
         Exchange.Tile ? "the warp's store_matrix_sync of the tile"
                       : "the other lane's write",
         DiagnosticIDs::Note);
    llvm::SmallPtrSet<const Expr *, 8> Later;
    const Expr *FirstLater = nullptr;
    for (const analysis::MemoryExchangeRead &Each : Exchange.Reads)
      if (Each.Read != First.Read && Later.insert(Each.Read->Where).second &&
          !FirstLater)
        FirstLater = Each.Read->Where;
    if (Later.size() == 1)
      diag(SM.getExpansionLoc(FirstLater->getBeginLoc()),
           "1 later read of '%0' in this sequence also races with another "
           "lane's write",
           DiagnosticIDs::Note)
          << Base;
    else if (Later.size() > 1)
      diag(SM.getExpansionLoc(FirstLater->getBeginLoc()),
           "%0 later reads of '%1' in this sequence also race with another "
           "lane's write",
           DiagnosticIDs::Note)
          << static_cast<unsigned>(Later.size()) << Base;
    if (Call)
      diag(SM.getExpansionLoc(Call->getBeginLoc()),
           "'%0' accesses '%1' through its parameter, for the threads that "
           "make this call",
           DiagnosticIDs::Note)
          << Call->getDirectCallee()->getName() << Base;
  }
}

void ImplicitWarpSyncCheck::report(
    const analysis::SharedAccessAnalysis &Accesses,
    const analysis::FunctionDivergence &D, const CallExpr *Call,
    ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const analysis::WarpExchange &Exchange :
       analysis::warpExchanges(Accesses, Ctx)) {
    const std::vector<analysis::RacingRead> &Reads = Exchange.Reads;
    const std::vector<const SharedAccess *> &Members = Exchange.Members;
    const analysis::RacingRead &First = Reads.front();
    SourceLocation Loc = SM.getExpansionLoc(First.Read->Where->getBeginLoc());
    if (!Reported.insert(Loc.getRawEncoding()).second)
      continue;
    ThreadCoord Shape = Accesses.blockShape();

    // Fix-its: __syncwarp() before each racing read's statement whose write
    // is in an earlier statement; a racing `x op= y` in its register form.
    std::vector<FixItHint> Fixes;
    bool Fixable = true;
    llvm::DenseSet<const Stmt *> Done;
    const Stmt *PreviousRewritten = nullptr;
    const CompoundStmt *PreviousBlock = nullptr;
    for (const analysis::RacingRead &Each : Reads) {
      auto [Statement, Block] = analysis::enclosingStatement(Each.Read->Where, Ctx);
      auto [WriteStatement, WriteBlock] = analysis::enclosingStatement(Each.Write->Where, Ctx);
      if (!Statement || !Statement->getBeginLoc().isFileID() ||
          !Statement->getEndLoc().isFileID() ||
          D.divergenceAt(Statement, analysis::Scope::Warp) ||
          (Call && D.controlUniformity(Statement).dependsOnSymbols())) {
        Fixable = false;
        break;
      }
      if (!Done.insert(Statement).second)
        continue;
      // Is the write in this statement (a lane's update racing with its
      // neighbour's), or in an earlier statement of this block?
      bool SameStatement = WriteStatement == Statement;
      bool Earlier = WriteBlock == Block && WriteStatement &&
                     SM.isBeforeInTranslationUnit(WriteStatement->getBeginLoc(),
                                                  Statement->getBeginLoc());
      if (!SameStatement && !Earlier) {
        Fixable = false;
        break;
      }
      // The statement before this one in its block.
      const Stmt *Prior = nullptr;
      for (const Stmt *S : Block->body()) {
        if (S == Statement)
          break;
        Prior = S;
      }
      bool OrderedByPrevious =
          PreviousBlock == Block && PreviousRewritten && Prior == PreviousRewritten;
      std::string Prefix =
          OrderedByPrevious || !Each.WriteBefore ? "" : "__syncwarp();";
      // A racing `x op= y` on the array: its own store can race with the
      // other lanes' reads of this step too; the register form orders both.
      const auto *Update = dyn_cast<CompoundAssignOperator>(Statement);
      const SharedAccess *Target = nullptr;
      if (Update)
        for (const SharedAccess *M : Members)
          if (M->Where == Update->getLHS()->IgnoreParens() &&
              M->K == SharedAccess::ReadWrite)
            Target = M;
      if (Update && Target) {
        // x op= y  ->  { T v = x op y; __syncwarp(); x = v; __syncwarp(); }
        CharSourceRange LHS =
            CharSourceRange::getTokenRange(Update->getLHS()->getSourceRange());
        CharSourceRange RHS =
            CharSourceRange::getTokenRange(Update->getRHS()->getSourceRange());
        StringRef L = Lexer::getSourceText(LHS, SM, Ctx.getLangOpts());
        StringRef R = Lexer::getSourceText(RHS, SM, Ctx.getLangOpts());
        QualType Type = Update->getLHS()->getType().getUnqualifiedType();
        if (L.empty() || R.empty()) {
          Fixable = false;
          break;
        }
        std::string Op = BinaryOperator::getOpcodeStr(
                             BinaryOperator::getOpForCompoundAssignment(
                                 Update->getOpcode()))
                             .str();
        std::string Text = Prefix.empty() ? "" : Prefix + " ";
        Text += "{ ";
        Text += Type.getAsString(Ctx.getPrintingPolicy());
        Text += " warpSyncValue = ";
        Text += L;
        Text += " " + Op + " (";
        Text += R;
        Text += "); __syncwarp(); ";
        Text += L;
        Text += " = warpSyncValue; __syncwarp(); }";
        // The statement with its semicolon.
        SourceLocation End = Lexer::findLocationAfterToken(
            Statement->getEndLoc(), tok::semi, SM, Ctx.getLangOpts(), false);
        if (End.isInvalid()) {
          Fixable = false;
          break;
        }
        Fixes.push_back(FixItHint::CreateReplacement(
            CharSourceRange::getCharRange(Statement->getBeginLoc(), End), Text));
        PreviousRewritten = Statement;
        PreviousBlock = Block;
        continue;
      }
      if (SameStatement) {
        Fixable = false; // a read and its racing write in one plain statement
        break;
      }
      if (!Prefix.empty()) {
        StringRef Indent =
            Lexer::getIndentationForLine(Statement->getBeginLoc(), SM);
        Fixes.push_back(FixItHint::CreateInsertion(
            Statement->getBeginLoc(), Prefix + "\n" + Indent.str()));
      }
      PreviousRewritten = nullptr;
    }
    if (!Fixable)
      Fixes.clear();

    {
      auto Warning =
          diag(Loc, "lanes of one warp exchange data through __shared__ '%0' "
                    "with no __syncwarp() between the write and the read: %1 "
                    "reads %2 while %3 writes it");
      Warning << Exchange.Var->getName() << analysis::threadName(First.Witness.Second, Shape)
              << First.Witness.Cell << analysis::threadName(First.Witness.First, Shape);
      for (const FixItHint &Fix : Fixes)
        Warning << Fix;
    }
    diag(SM.getExpansionLoc(First.Write->Where->getBeginLoc()),
         "the other lane's write", DiagnosticIDs::Note);
    llvm::DenseSet<const Expr *> Later;
    for (const analysis::RacingRead &Each : Reads)
      if (Each.Read != First.Read)
        Later.insert(Each.Read->Where);
    const Expr *FirstLater = nullptr;
    for (const analysis::RacingRead &Each : Reads)
      if (Each.Read != First.Read && !FirstLater)
        FirstLater = Each.Read->Where;
    SourceLocation LaterLoc =
        FirstLater ? SM.getExpansionLoc(FirstLater->getBeginLoc()) : Loc;
    if (Later.size() == 1)
      diag(LaterLoc,
           "1 later read of '%0' in this sequence also races with another "
           "lane's write",
           DiagnosticIDs::Note)
          << Exchange.Var->getName();
    else if (Later.size() > 1)
      diag(LaterLoc,
           "%0 later reads of '%1' in this sequence also race with another "
           "lane's write",
           DiagnosticIDs::Note)
          << static_cast<unsigned>(Later.size()) << Exchange.Var->getName();
    if (llvm::any_of(Reads, [](const analysis::RacingRead &Each) {
          return Each.Read->Where->getType().isVolatileQualified();
        }))
      diag(Loc,
           "'volatile' makes each access go to memory but orders nothing "
           "between lanes: since Volta the lanes of a warp are not in "
           "lockstep, and only __syncwarp() orders one lane's store before "
           "another's load",
           DiagnosticIDs::Note);
    if (Call)
      diag(SM.getExpansionLoc(Call->getBeginLoc()),
           "'%0' accesses '%1' through its parameter, for the threads that "
           "make this call, which are all in one warp for each pair",
           DiagnosticIDs::Note)
          << Call->getDirectCallee()->getName() << Exchange.Var->getName();
  }
}

} // namespace clang::tidy::cuda
