//===--- NvccSpellingRepairTest.cpp - nvcc spellings rewritten for clang --===//
//
// Each repair keeps the text's length and every byte outside the spelling
// it rewrites; the offsets are where clang 22 reports each error (checked
// against the real parser by tests/lit/cli/nvcc-spelling-repairs.test).

#include "tool/driver/config/NvccSpellingRepair.h"

#include "llvm/Support/VirtualFileSystem.h"
#include "gtest/gtest.h"

namespace clang::tidy::cuda::driver {
namespace {

/// The text after the repair of \p Message at the first \p Marker of
/// \p Text; "" when there is none.
std::string repaired(llvm::StringRef Message, llvm::StringRef Text,
                     llvm::StringRef Marker, size_t Past = 0) {
  const size_t At = Text.find(Marker);
  EXPECT_NE(At, llvm::StringRef::npos) << Marker.str();
  std::optional<SpellingRepair> Repair =
      repairForError(Message, Text, At + Past);
  if (!Repair)
    return "";
  std::string After = applyEdits(Text, Repair->Edits);
  EXPECT_EQ(After.size(), Text.size());
  EXPECT_FALSE(Repair->What.empty());
  return After;
}

constexpr llvm::StringLiteral SharedInit =
    "initialization is not supported for __shared__ variables";

TEST(NvccSpellingRepair, SharedObjectLosesSharedAndStatic) {
  EXPECT_EQ(repaired(SharedInit,
                     "  __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n",
                     "bar;"),
            "             cuda::barrier<cuda::thread_scope_block> bar;\n");
  EXPECT_EQ(repaired(SharedInit, "static __shared__ Pipe state ;", "state"),
            "                  Pipe state ;");
}

TEST(NvccSpellingRepair, SharedObjectShapesItDoesNotRewrite) {
  // An array, an initialiser, two declarators, __shared__ on another line
  // or spelled through a macro: left as they are.
  EXPECT_EQ(repaired(SharedInit, "__shared__ T bars[4];", "bars"), "");
  EXPECT_EQ(repaired(SharedInit, "__shared__ T bar = T();", "bar"), "");
  EXPECT_EQ(repaired(SharedInit, "__shared__ T a, b;", "a,"), "");
  EXPECT_EQ(repaired(SharedInit, "__shared__\n T bar;", "bar"), "");
  EXPECT_EQ(repaired(SharedInit, "SHARED T bar;", "bar"), "");
  // "__shared__" as part of a longer name is not the keyword.
  EXPECT_EQ(repaired(SharedInit, "my__shared__ T bar;", "bar"), "");
}

constexpr llvm::StringLiteral AsmEscape =
    "invalid % escape in inline assembly string";

TEST(NvccSpellingRepair, AsmRegisterGetsSecondPercent) {
  // clang points past the '%' ("%g" reads as a modifier): at the 'l'.
  EXPECT_EQ(repaired(AsmEscape,
                     R"(asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));)",
                     "%globaltimer", 2),
            R"(asm volatile("mov.u64 %0,%%globaltimer;" : "=l"(t));)");
  // A blank after the register when none follows a comma before it.
  EXPECT_EQ(repaired(AsmEscape, R"(asm("mov.u32 %0,%laneid; " : "=r"(l));)",
                     "%laneid"),
            R"(asm("mov.u32 %0,%%laneid;" : "=r"(l));)");
}

TEST(NvccSpellingRepair, AsmEscapesItLeavesAlone) {
  // Already "%%", an operand, and a string with no blank to give up.
  EXPECT_EQ(repaired(AsmEscape, R"(asm("mov %0, %%laneid;"))", "laneid"), "");
  EXPECT_EQ(repaired(AsmEscape, R"(asm("add %0, %1;"))", "%1"), "");
  EXPECT_EQ(repaired(AsmEscape, R"(asm("mov.u32%0,%laneid;"))", "%laneid"),
            "");
}

TEST(NvccSpellingRepair, AsmOperandsGetTheirComma) {
  const char *Text =
      R"(asm volatile("st.u8 [%1], %0;" ::"r"(v) "l"(p) : "memory");)";
  EXPECT_EQ(repaired("expected ')'", Text, R"("l")"),
            R"(asm volatile("st.u8 [%1], %0;" ::"r"(v),"l"(p) : "memory");)");
  // The same error elsewhere: a call missing its ')', no asm in sight.
  EXPECT_EQ(repaired("expected ')'", R"(f(g(x) "s");)", R"("s")"), "");
  // No blank to turn into the comma.
  EXPECT_EQ(repaired("expected ')'", R"x(asm("x" ::"r"(v)"l"(p));)x", R"("l")"),
            "");
}

TEST(NvccSpellingRepair, VariableLengthArrayLosesItsInitialiser) {
  constexpr llvm::StringLiteral Vla =
      "variable-sized object may not be initialized";
  // clang points at the bound.
  EXPECT_EQ(repaired(Vla, "  int s[n] = {0};\n", "n]"), "  int s[n]      ;\n");
  EXPECT_EQ(repaired(Vla, "float m[rows][cols] = {\n  {1}, {2}};",
                     "rows"),
            // "= {" and "  {1}, {2}}" blanked; the line break stays.
            "float m[rows][cols] " + std::string(3, ' ') + "\n" +
                std::string(11, ' ') + ";");
  EXPECT_EQ(repaired(Vla, "int s[n];", "n]"), "");
}

TEST(NvccSpellingRepair, OtherErrorsAreNotRepaired) {
  EXPECT_FALSE(repairForError("use of undeclared identifier 'x'", "x;", 0));
  EXPECT_FALSE(repairForError(SharedInit, "__shared__ T bar;", 999));
}

TEST(NvccSpellingRepair, PlanReadsTheFileOnceAndRepairsEachSpellingOnce) {
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  const std::string Text = "__global__ void k() {\n"
                           "  __shared__ cuda::barrier<B> bar;\n"
                           "}\n";
  FS->addFile("/p/k.cu", 0, llvm::MemoryBuffer::getMemBuffer(Text));
  ClangTidyError Error("clang-diagnostic-error", ClangTidyError::Error, "/p",
                       false);
  Error.Message.Message = SharedInit.str();
  Error.Message.FilePath = "k.cu"; // relative to the build folder
  Error.Message.FileOffset = Text.find("bar;");
  // Two template instances of one declaration: one repair.
  std::vector<ClangTidyError> Errors = {Error, Error};
  ClangTidyError Other = Error;
  Other.Message.Message = "use of undeclared identifier 'x'";
  Errors.push_back(Other);
  RepairPlan Plan = planSpellingRepairs(Errors, *FS);
  ASSERT_EQ(Plan.Files.size(), 1u);
  EXPECT_EQ(Plan.Files.begin()->first, "/p/k.cu");
  EXPECT_EQ(Plan.Files.begin()->second,
            "__global__ void k() {\n"
            "             cuda::barrier<B> bar;\n"
            "}\n");
  ASSERT_EQ(Plan.Notes.size(), 1u);
  EXPECT_EQ(Plan.Notes[0].rfind("/p/k.cu:2:31: ", 0), 0u) << Plan.Notes[0];

  // The overlay serves the repaired bytes and leaves other files alone.
  FS->addFile("/p/other.h", 0, llvm::MemoryBuffer::getMemBuffer("int x;"));
  auto Overlay = repairedFileSystem(FS, Plan.Files);
  EXPECT_EQ((*Overlay->getBufferForFile("/p/k.cu"))->getBuffer(),
            Plan.Files.begin()->second);
  EXPECT_EQ((*Overlay->getBufferForFile("/p/other.h"))->getBuffer(), "int x;");

  // A later round starts from the repaired bytes: nothing left to do.
  EXPECT_TRUE(planSpellingRepairs({Other}, *FS, Plan.Files).empty());
}

} // namespace
} // namespace clang::tidy::cuda::driver
