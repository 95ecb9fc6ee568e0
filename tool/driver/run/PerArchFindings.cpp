//===--- PerArchFindings.cpp - which architectures saw a finding ----------===//

#include "tool/driver/run/PerArchFindings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <set>
#include <tuple>

namespace clang::tidy::cuda::driver {
namespace {

/// What makes two findings one: clang-tidy's own duplicate test.
using FindingKey =
    std::tuple<std::string, unsigned, std::string, std::string>;

FindingKey keyOf(const ClangTidyError &E) {
  return {E.Message.FilePath, E.Message.FileOffset, E.DiagnosticName,
          E.Message.Message};
}

/// sm_80 < sm_90 < sm_100 < sm_120a: by the number, then the suffix.
bool archBefore(llvm::StringRef A, llvm::StringRef B) {
  auto Split = [](llvm::StringRef Arch) {
    llvm::StringRef Rest = Arch.drop_while([](char C) { return !llvm::isDigit(C); });
    llvm::StringRef Digits = Rest.take_while(llvm::isDigit);
    unsigned Number = 0;
    (void)Digits.getAsInteger(10, Number);
    return std::tuple(Number, Rest.drop_front(Digits.size()), Arch);
  };
  return Split(A) < Split(B);
}

std::string joined(std::vector<std::string> Archs) {
  llvm::sort(Archs, [](const std::string &A, const std::string &B) {
    return archBefore(A, B);
  });
  return llvm::join(Archs, ", ");
}

} // namespace

std::vector<ClangTidyError>
mergeCommandFindings(std::vector<CommandFindings> Commands) {
  std::set<std::string> DeviceArchs;
  for (const CommandFindings &Command : Commands)
    if (!Command.DeviceArch.empty())
      DeviceArchs.insert(Command.DeviceArch);

  struct Seen {
    size_t Index; ///< into Merged
    std::set<std::string> Archs;
    bool ByHost = false;
  };
  std::map<FindingKey, Seen> ByKey;
  std::vector<ClangTidyError> Merged;
  for (CommandFindings &Command : Commands)
    for (ClangTidyError &Error : Command.Errors) {
      auto [It, New] = ByKey.try_emplace(keyOf(Error), Seen{Merged.size(), {}});
      if (Command.DeviceArch.empty())
        It->second.ByHost = true;
      else
        It->second.Archs.insert(Command.DeviceArch);
      if (New) {
        Merged.push_back(std::move(Error));
        continue;
      }
      // The same finding again: as clang-tidy's merge, it is an error if any
      // command's copy is one.
      Merged[It->second.Index].IsWarningAsError |= Error.IsWarningAsError;
    }

  if (DeviceArchs.size() > 1)
    for (const auto &[Key, What] : ByKey) {
      if (What.ByHost || What.Archs.empty() ||
          What.Archs.size() == DeviceArchs.size())
        continue;
      std::vector<std::string> Missing;
      for (const std::string &Arch : DeviceArchs)
        if (!What.Archs.count(Arch))
          Missing.push_back(Arch);
      ClangTidyError &Error = Merged[What.Index];
      tooling::DiagnosticMessage Note(
          "found when analyzed for " +
          joined({What.Archs.begin(), What.Archs.end()}) + "; not for " +
          joined(Missing) + " (--cuda-gpu-arch)");
      Note.FilePath = Error.Message.FilePath;
      Note.FileOffset = Error.Message.FileOffset;
      Error.Notes.push_back(std::move(Note));
    }

  // One command: clang-tidy's own order, untouched (findings of two checks
  // at one place keep the order the consumer gave them; the cache-identity
  // test compares it with plain clang-tidy's). Several: by place, each
  // command's order kept within a place.
  if (Commands.size() <= 1)
    return Merged;
  std::vector<size_t> Order(Merged.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](size_t A, size_t B) {
    return std::tie(Merged[A].Message.FilePath, Merged[A].Message.FileOffset, A) <
           std::tie(Merged[B].Message.FilePath, Merged[B].Message.FileOffset, B);
  });
  std::vector<ClangTidyError> Sorted;
  Sorted.reserve(Merged.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(Merged[I]));
  return Sorted;
}

void sortAsClangTidy(std::vector<ClangTidyError> &Errors) {
  auto Key = [&](size_t I) {
    const tooling::DiagnosticMessage &M = Errors[I].Message;
    return std::tie(M.FilePath, M.FileOffset, Errors[I].DiagnosticName,
                    M.Message);
  };
  std::vector<size_t> Order(Errors.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  if (llvm::is_sorted(Order, [&](size_t A, size_t B) { return Key(A) < Key(B); }))
    return;
  // Stable by the index (no std::stable_sort: its buffer is deprecated).
  llvm::sort(Order, [&](size_t A, size_t B) {
    return std::tuple_cat(Key(A), std::tie(A)) <
           std::tuple_cat(Key(B), std::tie(B));
  });
  std::vector<ClangTidyError> Sorted;
  Sorted.reserve(Errors.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(Errors[I]));
  Errors = std::move(Sorted);
}

} // namespace clang::tidy::cuda::driver
