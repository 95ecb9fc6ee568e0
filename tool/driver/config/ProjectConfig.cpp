//===--- ProjectConfig.cpp - the project's .cuda-tidy.yaml ----------------===//

#include "tool/driver/config/ProjectConfig.h"
#include "tool/driver/config/ConfigValidation.h"

#include "llvm/Support/FileSystem.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <yaml-cpp/yaml.h>

namespace clang::tidy::cuda::driver {
namespace {

/// An error at a node: "file:line:col: message" (yaml-cpp counts from 0).
llvm::Error errorAt(llvm::StringRef Path, const YAML::Mark &Mark,
                    const llvm::Twine &Message) {
  return llvm::createStringError(
      std::make_error_code(std::errc::invalid_argument), "%s:%d:%d: %s",
      Path.str().c_str(), Mark.line + 1, Mark.column + 1,
      Message.str().c_str());
}

llvm::Expected<bool> readBool(llvm::StringRef Path, const YAML::Node &Node,
                              llvm::StringRef Key) {
  bool Value = false;
  if (!Node.IsScalar() || !YAML::convert<bool>::decode(Node, Value))
    return errorAt(Path, Node.Mark(),
                   "'" + Key + "' must be true or false");
  return Value;
}

llvm::Expected<std::string> readString(llvm::StringRef Path,
                                       const YAML::Node &Node,
                                       llvm::StringRef Key) {
  if (!Node.IsScalar())
    return errorAt(Path, Node.Mark(), "'" + Key + "' must be a string");
  return Node.Scalar();
}

llvm::Expected<std::vector<std::string>>
readStrings(llvm::StringRef Path, const YAML::Node &Node, llvm::StringRef Key) {
  if (!Node.IsSequence())
    return errorAt(Path, Node.Mark(),
                   "'" + Key + "' must be a list of strings");
  std::vector<std::string> Values;
  for (const YAML::Node &Item : Node) {
    if (!Item.IsScalar() || Item.Scalar().empty())
      return errorAt(Path, Item.Mark(),
                     "'" + Key + "' must be a list of non-empty strings");
    Values.push_back(Item.Scalar());
  }
  return Values;
}

} // namespace

llvm::Expected<ProjectConfig> parseProjectConfig(llvm::StringRef Text,
                                                 llvm::StringRef Path) {
  YAML::Node Root;
  try {
    Root = YAML::Load(Text.str());
  } catch (const YAML::Exception &E) {
    return errorAt(Path, E.mark, "invalid YAML: " + E.msg);
  }
  ProjectConfig Config;
  Config.Path = Path.str();
  if (Root.IsNull())
    return Config;
  if (!Root.IsMap())
    return errorAt(Path, Root.Mark(), "expected a mapping of settings");
  for (const auto &Entry : Root) {
    const auto Key = Entry.first.as<std::string>("");
    const YAML::Node &Value = Entry.second;
    if (Key == "launch") {
      if (!Value.IsMap())
        return errorAt(Path, Value.Mark(), "'launch' must be a mapping");
      for (const auto &Launch : Value) {
        const auto LaunchKey = Launch.first.as<std::string>("");
        if (LaunchKey != "block-dim-x-multiple-of-32")
          return errorAt(Path, Launch.first.Mark(),
                         "unknown key 'launch." + LaunchKey +
                             "' (known: block-dim-x-multiple-of-32)");
        auto B = readBool(Path, Launch.second, "launch." + LaunchKey);
        if (!B)
          return B.takeError();
        Config.BlockDimXMultipleOf32 = *B;
      }
    } else if (Key == "barrier-functions" || Key == "uniform-functions" ||
               Key == "exclude") {
      auto Values = readStrings(Path, Value, Key);
      if (!Values)
        return Values.takeError();
      (Key == "barrier-functions"   ? Config.BarrierFunctions
       : Key == "uniform-functions" ? Config.UniformFunctions
                                    : Config.Exclude) = std::move(*Values);
    } else if (Key == "platforms") {
      auto Values = readStrings(Path, Value, Key);
      if (!Values)
        return Values.takeError();
      for (size_t I = 0; I < Values->size(); ++I)
        if ((*Values)[I] != "cuda" && (*Values)[I] != "hip")
          return errorAt(Path, Value[I].Mark(),
                         "'platforms' lists 'cuda' and/or 'hip', not '" +
                             (*Values)[I] + "'");
      Config.Platforms = std::move(*Values);
    } else if (Key == "checks") {
      if (Value.IsSequence()) {
        auto Globs = readStrings(Path, Value, Key);
        if (!Globs)
          return Globs.takeError();
        Config.Checks = llvm::join(*Globs, ",");
      } else {
        auto S = readString(Path, Value, Key);
        if (!S)
          return S.takeError();
        Config.Checks = std::move(*S);
      }
    } else if (Key == "baseline") {
      auto S = readString(Path, Value, Key);
      if (!S)
        return S.takeError();
      Config.Baseline = std::move(*S);
    } else {
      return errorAt(Path, Entry.first.Mark(),
                     "unknown key '" + Key +
                         "' (known: launch, barrier-functions, "
                         "uniform-functions, platforms, exclude, baseline, "
                         "checks)");
    }
  }
  for (const std::string &Glob : Config.Exclude)
    if (auto Pattern = llvm::GlobPattern::create(Glob); !Pattern)
      return llvm::createStringError(
          std::make_error_code(std::errc::invalid_argument),
          "%s: invalid exclude pattern '%s': %s", Path.str().c_str(),
          Glob.c_str(), llvm::toString(Pattern.takeError()).c_str());
  return Config;
}

ClangTidyOptions::OptionMap ProjectConfig::checkOptions() const {
  ClangTidyOptions::OptionMap Options;
  if (BlockDimXMultipleOf32)
    Options[BlockDimXMultipleOf32Option] = ClangTidyOptions::ClangTidyValue(
        *BlockDimXMultipleOf32 ? "true" : "false");
  if (!BarrierFunctions.empty())
    Options[BarrierFunctionsOption] =
        ClangTidyOptions::ClangTidyValue(llvm::join(BarrierFunctions, ";"));
  if (!UniformFunctions.empty())
    Options[UniformFunctionsOption] =
        ClangTidyOptions::ClangTidyValue(llvm::join(UniformFunctions, ";"));
  if (!Platforms.empty())
    Options[PlatformsOption] =
        ClangTidyOptions::ClangTidyValue(llvm::join(Platforms, ","));
  return Options;
}

bool ProjectConfig::isExcluded(llvm::StringRef AbsolutePath) const {
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  llvm::StringRef Relative = AbsolutePath;
  if (!Relative.consume_front(Dir))
    return false;
  Relative = Relative.ltrim('/');
  for (const std::string &Glob : Exclude)
    if (auto Pattern = llvm::GlobPattern::create(Glob))
      if (Pattern->match(Relative))
        return true;
  return false;
}

llvm::Expected<std::optional<ProjectConfig>>
findProjectConfig(llvm::StringRef Directory) {
  llvm::SmallString<256> Dir(Directory);
  while (!Dir.empty()) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, ".cuda-tidy.yaml");
    if (llvm::sys::fs::exists(Candidate)) {
      auto Buffer = readInputFile(Candidate, ConfigFileMaxBytes);
      if (!Buffer)
        return Buffer.takeError();
      if (llvm::Error E = checkNestingDepth((*Buffer)->getBuffer(), Candidate,
                                            InputSyntax::Yaml))
        return std::move(E);
      auto Config = parseProjectConfig((*Buffer)->getBuffer(), Candidate);
      if (!Config)
        return Config.takeError();
      return std::optional<ProjectConfig>(std::move(*Config));
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return std::nullopt;
}

} // namespace clang::tidy::cuda::driver
