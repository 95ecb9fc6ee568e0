//===--- ThreadIndexEvalTest.cpp - index expressions for one thread -------===//

#include "checks/analysis/divergence/ThreadIndexEval.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

/// A condition and the value it must have.
using Guard = std::pair<const Expr *, bool>;

/// The leaves of the shared-memory analysis, without its divergence facts:
/// threadIdx and blockDim are the thread's and the block's, blockIdx and
/// gridDim and parameters symbols, nothing is written.
struct ConcreteThreads final : IndexEvaluator {
  ConcreteThreads(ASTContext &Ctx, IndexEvalRules Rules,
                  const FunctionDecl *Kernel)
      : IndexEvaluator(Ctx, Rules, Kernel, nullptr, nullptr) {}
  std::optional<IndexValue> builtin(BuiltinIndexRead::Variable Var,
                                    unsigned Dim,
                                    const ThreadEnv &En) override {
    if (Var == BuiltinIndexRead::ThreadIdx)
      return IndexValue::constant(En.Thread[Dim]);
    if (Var == BuiltinIndexRead::BlockDim)
      return IndexValue::constant(En.Block[Dim]);
    return IndexValue::symbol(builtinSymbol(Var, Dim));
  }
  bool isMutated(const VarDecl *) override { return false; }
  bool isGridUniformParameter(const ParmVarDecl *) override { return true; }
  bool isBlockUniformLocal(const DeclRefExpr *, bool) override {
    return false;
  }
};

const Expr *initOf(ParsedCuda &P, llvm::StringRef Name) {
  // Only k's locals: the CUDA headers declare parameters named `a` too.
  auto Found = match(
      varDecl(hasName(Name), hasAncestor(functionDecl(hasName("k")))).bind("v"),
      P.context());
  if (Found.size() != 1)
    return nullptr;
  return Found[0].getNodeAs<VarDecl>("v")->getInit();
}

std::vector<const ForStmt *> loopsOf(ParsedCuda &P, const FunctionDecl *F) {
  std::vector<const ForStmt *> Loops;
  for (const auto &Node :
       match(functionDecl(equalsNode(F), forEachDescendant(forStmt().bind("l"))),
             P.context()))
    Loops.push_back(Node.getNodeAs<ForStmt>("l"));
  llvm::sort(Loops, [&](const ForStmt *A, const ForStmt *B) {
    return P.context().getSourceManager().isBeforeInTranslationUnit(
        A->getBeginLoc(), B->getBeginLoc());
  });
  return Loops;
}

TEST(ThreadIndexEval, IndexValueArithmetic) {
  IndexValue A = IndexValue::symbol(1);
  A.scale(64).add(IndexValue::constant(5), 1);
  EXPECT_EQ(A.Constant, 5);
  ASSERT_EQ(A.Terms.size(), 1u);
  EXPECT_EQ(A.Terms[0].second, 64);
  EXPECT_TRUE(A.symbolsMultipleOf(32));
  EXPECT_FALSE(A.symbolsMultipleOf(128));
  // A symbol that cancels leaves no term.
  IndexValue B = A;
  B.add(A, -1);
  EXPECT_TRUE(B.isConstant());
  EXPECT_EQ(B.Constant, 0);
  // Terms stay sorted by symbol.
  IndexValue C = IndexValue::symbol(3);
  C.add(IndexValue::symbol(0), 1);
  ASSERT_EQ(C.Terms.size(), 2u);
  EXPECT_EQ(C.Terms[0].first, 0u);
  EXPECT_TRUE(IndexValue(C).scale(0).isConstant());
}

TEST(ThreadIndexEval, ConstantOperatorsAsC) {
  EXPECT_EQ(foldConstantOperator(BO_Div, -7, 2), -3);
  EXPECT_EQ(foldConstantOperator(BO_Rem, -7, 2), -1);
  EXPECT_FALSE(foldConstantOperator(BO_Div, 7, 0));
  EXPECT_EQ(foldConstantOperator(BO_Shl, 1, 62), int64_t{1} << 62);
  EXPECT_FALSE(foldConstantOperator(BO_Shl, 1, 63));
  EXPECT_EQ(foldConstantOperator(BO_And, 37, 31), 5);
  EXPECT_EQ(foldConstantOperator(BO_Xor, 5, 1), 4);
}

TEST(ThreadIndexEval, AlignedSymbolsKeepTheirLowBits) {
  // 64 * s + 37.
  IndexValue V = IndexValue::symbol(0);
  V.scale(64).add(IndexValue::constant(37), 1);
  EXPECT_EQ(alignedSymbolOperator(BO_And, V, IndexValue::constant(31)),
            IndexValue::constant(5));
  IndexValue TwiceSPlusOne = IndexValue::symbol(0);
  TwiceSPlusOne.scale(2).add(IndexValue::constant(1), 1);
  EXPECT_EQ(alignedSymbolOperator(BO_Shr, V, IndexValue::constant(5)),
            TwiceSPlusOne);
  IndexValue Plus39 = V; // 64 * s + 39
  Plus39.Constant = 39;
  EXPECT_EQ(alignedSymbolOperator(BO_Or, V, IndexValue::constant(2)), Plus39);
  // A modulus that is not a power of two, or a symbol not aligned to it.
  EXPECT_FALSE(alignedSymbolOperator(BO_Rem, V, IndexValue::constant(24)));
  EXPECT_FALSE(alignedSymbolOperator(BO_And, V, IndexValue::constant(127)));
  // Constants: no division by a non-positive constant here.
  EXPECT_FALSE(alignedSymbolOperator(BO_Div, IndexValue::constant(8),
                                     IndexValue::constant(-2)));
  EXPECT_EQ(alignedSymbolOperator(BO_Div, IndexValue::constant(9),
                                  IndexValue::constant(2)),
            IndexValue::constant(4));
}

TEST(ThreadIndexEval, ExpressionsForOneThread) {
  ParsedCuda P(R"cu(
__global__ void k(int n) {
  int a = threadIdx.x * 4 + blockDim.x;
  int b = (blockIdx.x * 64 + threadIdx.x) & 31;
  int c = n + threadIdx.x - n;
  int d = threadIdx.x < 2 ? 10 : 20;
  int e = a + 1;
  int f = threadIdx.y + n;
  float g = (float)threadIdx.x;
  bool h = threadIdx.x == 3 && n + 1 == 1 + n;
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  const FunctionDecl *K = P.function("k");
  ThreadEnv En;
  En.Thread = {3, 1, 0};
  En.Block = {32, 2, 1};
  ConcreteThreads Race(P.context(), IndexEvalRules{}, K);
  auto ValueOf = [&](IndexEvaluator &E, llvm::StringRef Name) {
    return E.eval(initOf(P, Name), En);
  };
  EXPECT_EQ(ValueOf(Race, "a"), IndexValue::constant(44));
  // Only constants go through `&` here.
  EXPECT_FALSE(ValueOf(Race, "b"));
  EXPECT_EQ(ValueOf(Race, "c"), IndexValue::constant(3));
  EXPECT_EQ(ValueOf(Race, "d"), IndexValue::constant(20));
  // A local through its initializer.
  EXPECT_EQ(ValueOf(Race, "e"), IndexValue::constant(45));
  // n's symbol, made when "c" was evaluated.
  unsigned N = Race.symbol(K->getParamDecl(0), "n");
  EXPECT_EQ(Race.symbolName(N), "n");
  IndexValue OnePlusN = IndexValue::symbol(N);
  OnePlusN.add(IndexValue::constant(1), 1);
  EXPECT_EQ(ValueOf(Race, "f"), OnePlusN);
  EXPECT_EQ(ValueOf(Race, "g"), IndexValue::constant(3));
  EXPECT_EQ(Race.truth(initOf(P, "h"), En), true);

  IndexEvalRules Scratch{/*MaxDepth=*/24, /*WrapWideConstants=*/true,
                         /*CastsMustBeIntegral=*/true,
                         /*TruthNeedsIntegralType=*/true,
                         NonLinearOperators::KeepAlignedSymbols};
  ConcreteThreads Warp(P.context(), Scratch, K);
  EXPECT_EQ(ValueOf(Warp, "b"), IndexValue::constant(3));
  EXPECT_FALSE(ValueOf(Warp, "g"));
  // blockIdx.x is the same symbol however it is reached.
  EXPECT_EQ(Warp.builtinSymbol(BuiltinIndexRead::BlockIdx, 0), 0u);
  EXPECT_EQ(Warp.symbolName(0), "blockIdx.x");
}

TEST(ThreadIndexEval, LoopsRunToTheirCounterValues) {
  ParsedCuda P(R"cu(
__global__ void k(int n) {
  for (int j = 1; j < 40; j <<= 1) {}
  for (int j = 0; j < 1000; ++j) {}
  int i;
  for (i = threadIdx.x; i < 8; i = i + 4) {}
  for (int j = 0; j < n; ++j) {}
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  const FunctionDecl *K = P.function("k");
  std::vector<const ForStmt *> Loops = loopsOf(P, K);
  ASSERT_EQ(Loops.size(), 4u);
  ThreadEnv En;
  En.Thread = {2, 0, 0};
  En.Block = {32, 1, 1};
  ConcreteThreads Eval(P.context(), IndexEvalRules{}, K);
  LoopRules Race; // the defaults: SharedAccesses' rules
  LoopRules Scratch{256, /*KeepValuesAtCap=*/false, /*MaxShift=*/40,
                    /*AnyAssignmentToCounter=*/false};

  const VarDecl *J0 = loopVariable(Loops[0], false);
  ASSERT_TRUE(J0);
  EXPECT_EQ(Eval.runLoop(Loops[0], J0, En, Race),
            (std::vector<int64_t>{1, 2, 4, 8, 16, 32}));

  const VarDecl *J1 = loopVariable(Loops[1], false);
  std::optional<std::vector<int64_t>> First = Eval.runLoop(Loops[1], J1, En, Race);
  // The first 64 iterations are kept.
  EXPECT_EQ(First.value_or(std::vector<int64_t>{}).size(), 64u);
  EXPECT_FALSE(Eval.runLoop(Loops[1], J1, En, Scratch));

  // `i = threadIdx.x` as the init: a counter only where assignments count.
  EXPECT_FALSE(loopVariable(Loops[2], false));
  const VarDecl *I = loopVariable(Loops[2], true);
  ASSERT_TRUE(I);
  EXPECT_EQ(Eval.runLoop(Loops[2], I, En, Race), (std::vector<int64_t>{2, 6}));
  // `i = i + 4` is no compound assignment.
  EXPECT_FALSE(Eval.runLoop(Loops[2], I, En, Scratch));

  // A bound that is a symbol does not run.
  const VarDecl *J3 = loopVariable(Loops[3], false);
  EXPECT_FALSE(Eval.runLoop(Loops[3], J3, En, Race));
}

TEST(ThreadIndexEval, BranchConditions) {
  ParsedCuda P(R"cu(
__global__ void k(int n, int *p) {
  if (n > 1) p[0] = 1; else p[1] = 2;
  p[2] = n ? p[3] : p[4];
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto Ifs = match(ifStmt(hasAncestor(functionDecl(hasName("k")))).bind("i"),
                   P.context());
  ASSERT_EQ(Ifs.size(), 1u);
  const auto *If = Ifs[0].getNodeAs<IfStmt>("i");
  EXPECT_EQ(branchCondition(If, If->getThen()),
            Guard(If->getCond(), true));
  EXPECT_EQ(branchCondition(If, If->getElse()),
            Guard(If->getCond(), false));
  EXPECT_FALSE(branchCondition(If, If->getCond()));
  auto Choices = match(
      conditionalOperator(hasAncestor(functionDecl(hasName("k")))).bind("c"),
      P.context());
  ASSERT_EQ(Choices.size(), 1u);
  const auto *Choice = Choices[0].getNodeAs<ConditionalOperator>("c");
  EXPECT_EQ(branchCondition(Choice, Choice->getFalseExpr()),
            Guard(Choice->getCond(), false));
}

/// The names of \p Vars, sorted.
std::vector<std::string> namesOf(const llvm::DenseSet<const VarDecl *> &Vars) {
  std::vector<std::string> Names;
  for (const VarDecl *Var : Vars)
    Names.push_back(Var->getNameAsString());
  llvm::sort(Names);
  return Names;
}

TEST(ThreadIndexEval, VariablesNotOnlyReadAndAssigned) {
  // What LaunchShape's mutation cache answers without ExprMutationAnalyzer:
  // assigned (as a whole, through `.` members, by ++/--, by a class's own
  // assignment operator) is changed for certain; a reference bound, an
  // address taken, an array or a capture is not a plain read, but whether
  // it changes is the analyzer's to say.
  ParsedCuda P(R"cu(
struct Inner { int b; };
struct Outer { Inner a; int c; };
struct Counter {
  Counter &operator+=(int);
  const Counter &operator=(int) const;
};
void takesRef(int &);
void takesPtr(const int *);
void host(int n) {
  dim3 block;
  block.x = 32;
  int stepped = 0;
  stepped++;
  Outer nested;
  nested.a.b = 2;
  int whole;
  whole = n;
  Counter counted;
  counted += 1;
  Counter constAssigned;
  constAssigned = 1;
  int byRef = 0;
  takesRef(byRef);
  int addressed = 0;
  takesPtr(&addressed);
  int array[4] = {};
  array[0] = 1;
  int captured = 0;
  auto f = [&captured] { return captured; };
  int read = n;
  takesPtr(&array[read + block.x + nested.c + f()]);
  Outer *pointer = &nested;
  pointer->c = 1;
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto Found = match(functionDecl(hasName("host"), isDefinition()).bind("f"),
                     P.context());
  ASSERT_EQ(Found.size(), 1u);
  const Stmt *Body = Found[0].getNodeAs<FunctionDecl>("f")->getBody();
  ParentMap Parents(const_cast<Stmt *>(Body));
  llvm::DenseSet<const VarDecl *> NotOnlyRead;
  llvm::DenseSet<const VarDecl *> Assigned;
  addVariablesNotOnlyRead(Body, Parents, NotOnlyRead, &Assigned,
                          /*WithArrays=*/true);
  EXPECT_EQ(namesOf(Assigned),
            (std::vector<std::string>{"block", "counted", "nested", "stepped",
                                      "whole"}));
  // (`f`: its call operator takes it by reference.)
  EXPECT_EQ(namesOf(NotOnlyRead),
            (std::vector<std::string>{
                "addressed", "array", "block", "byRef", "captured",
                "constAssigned", "counted", "f", "nested", "stepped",
                "whole"}));
  llvm::DenseSet<const VarDecl *> NoArrays;
  addVariablesNotOnlyRead(Body, Parents, NoArrays, /*Assigned=*/nullptr,
                          /*WithArrays=*/false);
  EXPECT_FALSE(llvm::is_contained(namesOf(NoArrays), "array"));
  EXPECT_TRUE(llvm::is_contained(namesOf(NoArrays), "captured"));
}

} // namespace
} // namespace clang::tidy::cuda::analysis
