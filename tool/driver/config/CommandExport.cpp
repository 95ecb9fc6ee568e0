//===--- CommandExport.cpp - a clang-ready compile database ---------------===//

#include "tool/driver/config/CommandExport.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy::cuda::driver {

llvm::Expected<size_t>
exportCompileCommands(const tooling::CompilationDatabase &Commands,
                      llvm::ArrayRef<std::string> Files, llvm::StringRef Dir) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create '%s': %s",
                                   Dir.str().c_str(), EC.message().c_str());
  llvm::json::Array Entries;
  llvm::StringSet<> Seen;
  for (const std::string &File : Files) {
    if (!Seen.insert(File).second)
      continue;
    for (const tooling::CompileCommand &Command :
         Commands.getCompileCommands(File)) {
      llvm::json::Array Arguments;
      for (const std::string &Arg : Command.CommandLine)
        Arguments.push_back(Arg);
      Entries.push_back(llvm::json::Object{
          {"directory", Command.Directory},
          {"file", Command.Filename},
          {"arguments", std::move(Arguments)},
      });
    }
  }
  const size_t Count = Entries.size();

  llvm::SmallString<256> Target(Dir);
  llvm::sys::path::append(Target, "compile_commands.json");
  // LLVM's own temporary-file-and-rename writer.
  if (llvm::Error Written =
          llvm::writeToOutput(Target, [&](llvm::raw_ostream &OS) {
            OS << llvm::formatv("{0:2}",
                                llvm::json::Value(std::move(Entries)))
               << "\n";
            return llvm::Error::success();
          }))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "cannot write '%s': %s",
        Target.c_str(), llvm::toString(std::move(Written)).c_str());
  return Count;
}

} // namespace clang::tidy::cuda::driver
