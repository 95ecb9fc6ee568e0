//===--- Reporters.cpp - findings for machines and for review -------------===//

#include "tool/driver/report/Reporters.h"
#include "checks/CudaTidyModule.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <optional>
#include <set>

namespace clang::tidy::cuda::driver {

/// A path as an RFC 3986 URI reference: every byte outside the unreserved
/// set and '/' is percent-encoded (spaces, quotes, '%', non-ASCII, ...).
static std::string uriFromPath(llvm::StringRef Path) {
  std::string Uri;
  for (const char Byte : Path) {
    const auto C = static_cast<unsigned char>(Byte);
    if (llvm::isAlnum(Byte) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/') {
      Uri.push_back(Byte);
      continue;
    }
    Uri += '%';
    Uri += llvm::hexdigit(C >> 4, /*LowerCase=*/false);
    Uri += llvm::hexdigit(C & 15, /*LowerCase=*/false);
  }
  return Uri;
}

void forEachUnsafeByte(llvm::StringRef Text,
                       llvm::function_ref<void(llvm::StringRef)> Copy,
                       llvm::function_ref<void(unsigned char)> Byte) {
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(Text.begin());
  const auto *End = reinterpret_cast<const llvm::UTF8 *>(Text.end());
  const llvm::UTF8 *Run = Begin;
  auto Flush = [&](const llvm::UTF8 *To) {
    if (To != Run)
      Copy(llvm::StringRef(reinterpret_cast<const char *>(Run),
                           static_cast<size_t>(To - Run)));
  };
  for (const llvm::UTF8 *P = Begin; P != End;) {
    const unsigned char C = *P;
    if (C >= 0x20 && C < 0x7f) {
      ++P;
      continue;
    }
    if (C >= 0x80) {
      const unsigned Length = llvm::getNumBytesForUTF8(C);
      const bool Legal = Length <= static_cast<unsigned>(End - P) &&
                         llvm::isLegalUTF8Sequence(P, P + Length);
      const bool C1 = Legal && C == 0xC2 && P[1] >= 0x80 && P[1] <= 0x9F;
      if (Legal && !C1) {
        P += Length;
        continue;
      }
      Flush(P);
      const unsigned Unsafe = C1 ? 2 : 1;
      for (unsigned I = 0; I < Unsafe; ++I)
        Byte(P[I]);
      P += Unsafe;
      Run = P;
      continue;
    }
    Flush(P); // C0 or DEL
    Byte(C);
    ++P;
    Run = P;
  }
  Flush(End);
}

std::string escapeForTerminal(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  forEachUnsafeByte(
      Text, [&](llvm::StringRef Safe) { Out += Safe; },
      [&](unsigned char C) {
        Out += "\\x";
        Out += llvm::hexdigit(C >> 4, /*LowerCase=*/false);
        Out += llvm::hexdigit(C & 15, /*LowerCase=*/false);
      });
  return Out;
}

bool needsTerminalEscape(llvm::StringRef Text) {
  bool Unsafe = false;
  forEachUnsafeByte(
      Text, [](llvm::StringRef) {}, [&](unsigned char) { Unsafe = true; });
  return Unsafe;
}

std::pair<std::vector<ClangTidyError>,
          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>>
withPrintableFileNames(llvm::ArrayRef<ClangTidyError> Errors,
                       llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base) {
  std::vector<ClangTidyError> Out(Errors.begin(), Errors.end());
  llvm::StringMap<std::string> Renamed; // real name -> printed name
  auto Printed = [&](const std::string &Name) -> std::string {
    if (Name.empty() || !needsTerminalEscape(Name))
      return Name;
    auto It = Renamed.try_emplace(Name, escapeForTerminal(Name)).first;
    return It->second;
  };
  // Messages too: a cross-file finding's note, kernel name and sync
  // spelling come from --join-index records, which anyone who can write the
  // folder writes; a newline there once started a line of the log of its
  // own (`::error file=...::` in a GitHub Actions log; issue 38 G13).
  auto PrintedText = [](std::string &Text) {
    if (needsTerminalEscape(Text))
      Text = escapeForTerminal(Text);
  };
  for (ClangTidyError &Error : Out) {
    Error.Message.FilePath = Printed(Error.Message.FilePath);
    PrintedText(Error.Message.Message);
    for (tooling::DiagnosticMessage &Note : Error.Notes) {
      Note.FilePath = Printed(Note.FilePath);
      PrintedText(Note.Message);
    }
    llvm::StringMap<tooling::Replacements> Fix;
    for (auto &[File, Replacements] : Error.Message.Fix) {
      const std::string To = Printed(File.str());
      tooling::Replacements Moved;
      for (const tooling::Replacement &R : Replacements)
        llvm::consumeError(Moved.add(tooling::Replacement(
            To, R.getOffset(), R.getLength(), R.getReplacementText())));
      Fix[To] = std::move(Moved);
    }
    Error.Message.Fix = std::move(Fix);
  }
  if (Renamed.empty())
    return {std::move(Out), std::move(Base)};
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
      new llvm::vfs::InMemoryFileSystem);
  for (const auto &Entry : Renamed) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Bytes =
        Base->getBufferForFile(Entry.getKey());
    if (Bytes)
      Memory->addFile(Entry.getValue(), 0,
                      llvm::MemoryBuffer::getMemBufferCopy(
                          (*Bytes)->getBuffer(), Entry.getValue()));
  }
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Overlay(
      new llvm::vfs::OverlayFileSystem(std::move(Base)));
  Overlay->pushOverlay(Memory);
  return {std::move(Out), Overlay};
}

static const char *levelName(const Finding &F) {
  return F.Level == Finding::Severity::Error ? "error" : "warning";
}

static const char *sarifLevel(const Finding &F);

/// \p Value as indented JSON text, with DEL and the C1 controls (U+0080 to
/// U+009F), which llvm::json leaves raw in strings and some terminals act
/// on, written as \u escapes (issue 16 F19). Outside strings JSON text is
/// ASCII, so every such byte is inside one.
static void writeJsonText(llvm::raw_ostream &OS, const llvm::json::Value &Value) {
  const std::string Text = llvm::formatv("{0:2}", Value).str();
  for (size_t I = 0; I < Text.size(); ++I) {
    const auto C = static_cast<unsigned char>(Text[I]);
    unsigned Escaped = 0;
    if (C == 0x7f) {
      Escaped = C;
    } else if (C == 0xC2 && I + 1 < Text.size()) {
      const auto Next = static_cast<unsigned char>(Text[I + 1]);
      if (Next >= 0x80 && Next <= 0x9F) {
        Escaped = Next;
        ++I;
      }
    }
    if (Escaped)
      OS << llvm::format("\\u%04x", Escaped);
    else
      OS << Text[I];
  }
  OS << "\n";
}

/// "file", and "fileUri" (the name's exact bytes, percent-encoded as in
/// SARIF) when the name is not UTF-8: JSON strings are Unicode, and
/// llvm::json writes each invalid byte as U+FFFD, which names another file
/// (issue 16 F19).
static void addFile(llvm::json::Object &Object, llvm::StringRef Key,
                    const std::string &File) {
  Object[Key] = File;
  if (!llvm::json::isUTF8(File))
    Object[(Key + "Uri").str()] = uriFromPath(File);
}

/// \p Text as a JSON string holds it exactly: unchanged when it is UTF-8;
/// else each byte of an invalid sequence written `\xHH` as text, as the
/// text report writes it, not the U+FFFD llvm::json puts. For rdjson and
/// GitLab Code Quality, whose fixed schemas have no room for JSON's
/// "fileUri" (reviewdog rejects a field it does not know; issue 38 G12).
static std::string exactText(llvm::StringRef Text) {
  if (llvm::json::isUTF8(Text))
    return Text.str();
  std::string Out;
  const auto *P = reinterpret_cast<const llvm::UTF8 *>(Text.begin());
  const auto *End = reinterpret_cast<const llvm::UTF8 *>(Text.end());
  while (P != End) {
    const unsigned Length = llvm::getNumBytesForUTF8(*P);
    if (Length <= static_cast<unsigned>(End - P) &&
        llvm::isLegalUTF8Sequence(P, P + Length)) {
      Out.append(reinterpret_cast<const char *>(P), Length);
      P += Length;
      continue;
    }
    Out += "\\x";
    Out += llvm::hexdigit(*P >> 4, /*LowerCase=*/false);
    Out += llvm::hexdigit(*P & 15, /*LowerCase=*/false);
    ++P;
  }
  return Out;
}

static llvm::json::Object pointJson(const SourcePoint &P,
                                    const ReportContext &Context) {
  llvm::json::Object Point{{"line", P.Line}, {"column", P.Column}};
  addFile(Point, "file", relativeTo(P.File, Context.Root));
  return Point;
}

void writeJson(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
               const ReportContext &Context) {
  llvm::json::Array Items;
  for (const Finding &F : Findings) {
    llvm::json::Array Notes;
    llvm::json::Array Fixes;
    for (const FindingNote &N : F.Notes) {
      llvm::json::Object Note = pointJson(N.Where, Context);
      Note["message"] = N.Message;
      Notes.push_back(std::move(Note));
    }
    for (const FindingFix &X : F.Fixes) {
      llvm::json::Object Fix{{"offset", X.Offset},
                             {"length", X.Length},
                             {"replacement", X.Replacement}};
      addFile(Fix, "file", relativeTo(X.File, Context.Root));
      Fixes.push_back(std::move(Fix));
    }
    llvm::json::Object Item = pointJson(F.Where, Context);
    Item["check"] = F.Check;
    Item["level"] = levelName(F);
    Item["tier"] = tierOf(F).str();
    Item["compilerError"] = F.IsCompilerError;
    Item["message"] = F.Message;
    Item["notes"] = std::move(Notes);
    Item["fixes"] = std::move(Fixes);
    Item["fingerprint"] = F.Fingerprint;
    // What the text output's how-to-fix note says (issue 37 §3), for the
    // tools that read this report instead of the terminal.
    if (!F.IsCompilerError) {
      if (llvm::StringRef Advice = checkFixAdvice(F.Check); !Advice.empty())
        Item["howToFix"] = Advice.str();
      if (std::string Uri = checkDocumentationUri(F.Check, Context);
          !Uri.empty())
        Item["helpUri"] = std::move(Uri);
    }
    Items.push_back(std::move(Item));
  }
  llvm::json::Value Root = llvm::json::Object{
      {"tool", "cuda-tidy"},
      {"version", Context.ToolVersion},
      {"schemaVersion", 1},
      {"findings", std::move(Items)}};
  writeJsonText(OS, Root);
}

static llvm::json::Object sarifRegion(const SourcePoint &Begin,
                                      const SourcePoint *End = nullptr) {
  llvm::json::Object Region{{"startLine", std::max(Begin.Line, 1u)},
                            {"startColumn", std::max(Begin.Column, 1u)}};
  if (End && End->Line) {
    Region["endLine"] = End->Line;
    Region["endColumn"] = std::max(End->Column, 1u);
  }
  return Region;
}

static llvm::json::Object sarifLocation(const SourcePoint &P,
                                        const ReportContext &Context,
                                        llvm::StringRef Message = {}) {
  llvm::json::Object Location{
      {"physicalLocation",
       llvm::json::Object{
           {"artifactLocation",
            llvm::json::Object{{"uri", uriFromPath(relativeTo(P.File, Context.Root))},
                               {"uriBaseId", "%SRCROOT%"}}},
           {"region", sarifRegion(P)}}}};
  if (!Message.empty())
    Location["message"] = llvm::json::Object{{"text", Message.str()}};
  return Location;
}

/// SARIF wants a rule's name to differ from its opaque id:
/// cuda-group-by-value is named CudaGroupByValue.
static std::string ruleDisplayName(llvm::StringRef Id) {
  std::string Name;
  bool Upper = true;
  for (char C : Id) {
    if (C == '-') {
      Upper = true;
      continue;
    }
    Name.push_back(Upper ? llvm::toUpper(C) : C);
    Upper = false;
  }
  return Name;
}

void writeSarif(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const ReportContext &Context) {
  llvm::json::Array Rules;
  std::map<std::string, unsigned> RuleIndex;
  // Every string goes into the JSON tree as a std::string: a json::Value
  // made from a StringRef does not copy it, and the compiler-error rule's
  // summary is a temporary (issue 15: its descriptions were freed memory).
  auto AddRule = [&](llvm::StringRef Id, llvm::StringRef Summary,
                     std::string HelpUri, std::string HelpText,
                     const char *DefaultLevel = "warning") {
    RuleIndex[Id.str()] = Rules.size();
    llvm::json::Object Rule{
        {"id", Id.str()},
        {"name", ruleDisplayName(Id)},
        {"shortDescription", llvm::json::Object{{"text", Summary.str()}}},
        {"fullDescription", llvm::json::Object{{"text", Summary.str()}}},
        {"help", llvm::json::Object{{"text", std::move(HelpText)}}},
        {"defaultConfiguration", llvm::json::Object{{"level", DefaultLevel}}}};
    if (!HelpUri.empty())
      Rule["helpUri"] = std::move(HelpUri);
    Rules.push_back(std::move(Rule));
  };
  for (const CheckDescription &Check : allCheckDescriptions()) {
    std::string Help = Context.DocsBaseUri + checkDocumentationPath(Check.Name);
    // The level of the check's own findings: a guideline's and an
    // advisory's are notes.
    Finding Probe;
    Probe.Check = Check.Name;
    AddRule(Check.Name, Check.Summary, Help, "See " + Help, sarifLevel(Probe));
  }
  llvm::json::Array Results;
  for (const Finding &F : Findings) {
    if (!RuleIndex.count(F.Check)) {
      // Compiler diagnostics (clang-diagnostic-*) are no check of ours.
      std::string Summary = F.IsCompilerError
                                ? "the compiler could not parse the file"
                                : "diagnostic " + F.Check;
      AddRule(F.Check, Summary, "",
              Summary + "; cuda-tidy analyzes only what compiles.",
              F.IsCompilerError ? "error" : "warning");
    }
    llvm::json::Object Result{
        {"ruleId", F.Check},
        {"ruleIndex", RuleIndex[F.Check]},
        {"level", sarifLevel(F)},
        {"properties", llvm::json::Object{{"tier", tierOf(F).str()}}},
        {"message", llvm::json::Object{{"text", F.Message}}},
        {"locations", llvm::json::Array{sarifLocation(F.Where, Context)}},
        {"partialFingerprints",
         llvm::json::Object{{"cudaTidyFingerprint/v1", F.Fingerprint}}}};
    if (!F.Notes.empty()) {
      llvm::json::Array Related;
      unsigned Id = 0;
      for (const FindingNote &N : F.Notes) {
        llvm::json::Object L = sarifLocation(N.Where, Context, N.Message);
        L["id"] = Id++;
        Related.push_back(std::move(L));
      }
      Result["relatedLocations"] = std::move(Related);
    }
    if (!F.Fixes.empty()) {
      // One SARIF fix per finding; its changes are grouped by file.
      std::map<std::string, llvm::json::Array> ByFile;
      for (const FindingFix &X : F.Fixes)
        ByFile[uriFromPath(relativeTo(X.File, Context.Root))].push_back(llvm::json::Object{
            {"deletedRegion", sarifRegion(X.Begin, &X.End)},
            {"insertedContent", llvm::json::Object{{"text", X.Replacement}}}});
      llvm::json::Array Changes;
      for (auto &[File, Replacements] : ByFile)
        Changes.push_back(llvm::json::Object{
            {"artifactLocation", llvm::json::Object{{"uri", File},
                                                    {"uriBaseId", "%SRCROOT%"}}},
            {"replacements", std::move(Replacements)}});
      Result["fixes"] = llvm::json::Array{llvm::json::Object{
          {"description", llvm::json::Object{{"text", F.Message}}},
          {"artifactChanges", std::move(Changes)}}};
    }
    Results.push_back(std::move(Result));
  }
  llvm::json::Value Log = llvm::json::Object{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       llvm::json::Array{llvm::json::Object{
           {"tool",
            llvm::json::Object{
                {"driver",
                 llvm::json::Object{
                     {"name", "cuda-tidy"},
                     {"version", Context.ToolVersion},
                     {"semanticVersion", Context.ToolVersion},
                     {"informationUri", Context.DocsBaseUri + "README.md"},
                     {"rules", std::move(Rules)}}}}},
           {"originalUriBaseIds",
            llvm::json::Object{
                {"%SRCROOT%",
                 llvm::json::Object{{"uri", "file://" + uriFromPath(Context.Root) + "/"}}}}},
           {"results", std::move(Results)}}}}};
  writeJsonText(OS, Log);
}

std::string escapeGitHubData(llvm::StringRef Text) {
  std::string Out;
  // Control bytes (ESC, BEL, ..., the C1 controls) would reach the log raw
  // and can spoof it, and invalid UTF-8 would reach it as U+FFFD (issue 16
  // F19): all are percent-encoded (GitHub shows the escape as text; CR, LF
  // and '%' it decodes).
  forEachUnsafeByte(
      Text,
      [&](llvm::StringRef Safe) {
        for (char C : Safe)
          if (C == '%')
            Out += "%25";
          else
            Out.push_back(C);
      },
      [&](unsigned char C) {
        Out += '%';
        Out += llvm::hexdigit(C >> 4, /*LowerCase=*/false);
        Out += llvm::hexdigit(C & 15, /*LowerCase=*/false);
      });
  return Out;
}

std::string escapeGitHubProperty(llvm::StringRef Text) {
  std::string Out;
  for (char C : escapeGitHubData(Text)) {
    if (C == ':')
      Out += "%3A";
    else if (C == ',')
      Out += "%2C";
    else
      Out.push_back(C);
  }
  return Out;
}

void writeGitHubAnnotations(llvm::raw_ostream &OS,
                            const std::vector<Finding> &Findings,
                            const ReportContext &Context) {
  for (const Finding &F : Findings) {
    std::string Message = F.Message;
    for (const FindingNote &N : F.Notes)
      Message += "\n" + relativeTo(N.Where.File, Context.Root) + ":" +
                 std::to_string(N.Where.Line) + ":" +
                 std::to_string(N.Where.Column) + ": note: " + N.Message;
    // A diagnostic with no location (a compiler error about the command
    // line) names no file: `file=,line=0` would point at nothing.
    OS << "::" << levelName(F) << " ";
    if (!F.Where.File.empty()) {
      OS << "file="
         << escapeGitHubProperty(relativeTo(F.Where.File, Context.Root)) << ",";
      if (F.Where.Line)
        OS << "line=" << F.Where.Line << ",col=" << F.Where.Column << ",";
    }
    // --compile-errors=warn: a warning that says the file was not analyzed,
    // not an error the gate ignores.
    const bool NotAnalyzed =
        F.IsCompilerError && F.Level == Finding::Severity::Warning;
    if (NotAnalyzed)
      Message.insert(0, "not analyzed: the file does not compile "
                        "(--compile-errors=warn; the functions that compile "
                        "were analyzed): ");
    // The how-to-fix line of the text output, last (issue 37 §3).
    if (!F.IsCompilerError) {
      const llvm::StringRef Advice = checkFixAdvice(F.Check);
      const std::string Uri = checkDocumentationUri(F.Check, Context);
      if (!Advice.empty() || !Uri.empty()) {
        Message += "\nhow to fix: ";
        if (!Advice.empty())
          Message += Advice.str() + (Uri.empty() ? "" : "; ");
        if (!Uri.empty())
          Message += "see " + Uri;
      }
    }
    OS << "title="
       << escapeGitHubProperty(NotAnalyzed ? "not analyzed (" + F.Check + ")"
                                           : F.Check)
       << "::" << escapeGitHubData(Message) << "\n";
  }
}

llvm::StringRef tierOf(const Finding &F) {
  if (F.IsCompilerError)
    return "compiler error";
  for (const CheckDescription &Check : allCheckDescriptions())
    if (Check.Name == F.Check &&
        llvm::StringRef(Check.Summary).starts_with("opt-in advisory"))
      return "advisory";
  // A handle passed by value works; the Programming Guide recommends a
  // reference. Most findings on real code are this one (29 of 35 on
  // cuda-samples, issue 37), so it must not read as a bug.
  if (F.Check == "cuda-group-by-value")
    return "guideline";
  if (llvm::StringRef(F.Message).contains("potential:"))
    return "potential";
  return "definite";
}

ReviewSeverity severityOf(const Finding &F) {
  const llvm::StringRef Tier = tierOf(F);
  // Under --compile-errors=warn a compiler error is at warning level: the
  // file was not analyzed, which the gate lets pass.
  if (Tier == "compiler error")
    return F.Level == Finding::Severity::Error ? ReviewSeverity::Blocker
                                               : ReviewSeverity::Minor;
  if (Tier == "guideline" || Tier == "advisory")
    return ReviewSeverity::Note;
  if (F.Level == Finding::Severity::Error)
    return ReviewSeverity::Error;
  return Tier == "potential" ? ReviewSeverity::Minor : ReviewSeverity::Warning;
}

/// SARIF's level: error, warning or note (a potential finding is a warning:
/// SARIF has no level between warning and note).
static const char *sarifLevel(const Finding &F) {
  switch (severityOf(F)) {
  case ReviewSeverity::Blocker:
  case ReviewSeverity::Error:
    return "error";
  case ReviewSeverity::Warning:
  case ReviewSeverity::Minor:
    return "warning";
  case ReviewSeverity::Note:
    return "note";
  }
  return "warning";
}

std::string checkDocumentationUri(llvm::StringRef Check,
                                  const ReportContext &Context) {
  for (const CheckDescription &Known : allCheckDescriptions())
    if (Known.Name == Check)
      return Context.DocsBaseUri + checkDocumentationPath(Check);
  return "";
}

llvm::StringRef checkFixAdvice(llvm::StringRef Check) {
  // One clause per check of CheckList.def (tests/lit/cli/explain.test
  // checks that none is missing); the docs pages say it at length.
  static const std::pair<llvm::StringRef, llvm::StringRef> Advice[] = {
      {"cuda-divergent-barrier",
       "move the barrier out of the branch, or make the condition uniform "
       "across the barrier's scope, so that every thread of it reaches the "
       "same barrier"},
      {"cuda-divergent-group-creation",
       "create the group before the branch, where every thread of its parent "
       "group reaches, and pass it in"},
      {"cuda-full-warp-mask",
       "pass the mask of the lanes that reach the call (__ballot_sync before "
       "the branch), or use a cooperative-groups tile's collective"},
      {"cuda-prefer-tile-collectives",
       "use a cooperative-groups tile (tiled_partition<32>) and its "
       "collectives, which name the lanes that take part"},
      {"cuda-warp-mask-mismatch",
       "make the mask name exactly the lanes that reach the call (compute it "
       "with __ballot_sync before the branch); never pass __activemask() to "
       "a shuffle"},
      {"cuda-grid-sync-launch",
       "launch the kernel with cudaLaunchCooperativeKernel (or "
       "cudaLaunchKernelEx with cudaLaunchAttributeCooperative), with no "
       "more blocks than can be resident at once"},
      {"cuda-group-by-value",
       "take the handle by reference (add 'const' and '&' to the "
       "parameter's type); a recommendation, not a hazard"},
      {"cuda-shared-memory-race",
       "put a block barrier (__syncthreads() or block.sync()) between the "
       "write and the other thread's access"},
      {"cuda-implicit-warp-sync",
       "put a __syncwarp() (or the tile's sync()) between the write and the "
       "other lane's read"},
      {"cuda-memcpy-async-wait",
       "wait for the copy (cg::wait, the pipeline's consumer_wait, or the "
       "barrier's arrive_and_wait) before touching its destination"},
      {"cuda-cluster-exit-sync",
       "call cluster.sync() after the last access to another block's shared "
       "memory, before the kernel exits"},
      {"cuda-missing-fence",
       "put a __threadfence() between the data stores and the signal, and "
       "another between reading the signal and reading the data"},
  };
  for (const auto &[Name, Words] : Advice)
    if (Name == Check)
      return Words;
  return "";
}

std::string explanationLine(const Finding &F, llvm::StringRef File,
                            const ReportContext &Context) {
  const std::string Uri = checkDocumentationUri(F.Check, Context);
  const llvm::StringRef Advice = checkFixAdvice(F.Check);
  if (F.IsCompilerError || Uri.empty())
    return "";
  std::string Line;
  if (!File.empty()) {
    Line += File.str() + ":";
    if (F.Where.Line)
      Line += std::to_string(F.Where.Line) + ":" +
              std::to_string(F.Where.Column) + ":";
    Line += " ";
  }
  Line += "note: ";
  if (!Advice.empty())
    Line += "how to fix: " + Advice.str() + "; ";
  if (!F.Fixes.empty())
    Line += "--fix applies the suggested fix-it; ";
  Line += "see " + Uri;
  return Line;
}

/// "line 3, column 40" as reviewdog's Position; none for an unknown line.
static std::optional<llvm::json::Object> rdPosition(const SourcePoint &P) {
  if (!P.Line)
    return std::nullopt;
  return llvm::json::Object{{"line", P.Line}, {"column", std::max(P.Column, 1u)}};
}

/// A Location: the path (relative), and the range when the line is known.
/// A diagnostic with no file (a compiler error about the command line) has
/// no location at all rather than an empty path.
static std::optional<llvm::json::Object>
rdLocation(const SourcePoint &Begin, const ReportContext &Context,
           const SourcePoint *End = nullptr) {
  if (Begin.File.empty())
    return std::nullopt;
  llvm::json::Object Location{
      {"path", exactText(relativeTo(Begin.File, Context.Root))}};
  if (std::optional<llvm::json::Object> Start = rdPosition(Begin)) {
    llvm::json::Object Range{{"start", std::move(*Start)}};
    if (End)
      if (std::optional<llvm::json::Object> Stop = rdPosition(*End))
        Range["end"] = std::move(*Stop);
    Location["range"] = std::move(Range);
  }
  return Location;
}

/// "path:line:col: note: message", as the text format's notes read.
static std::string noteLine(const FindingNote &N, const ReportContext &Context) {
  return relativeTo(N.Where.File, Context.Root) + ":" +
         std::to_string(N.Where.Line) + ":" + std::to_string(N.Where.Column) +
         ": note: " + N.Message;
}

void writeRdJson(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                 const ReportContext &Context) {
  llvm::json::Array Diagnostics;
  for (const Finding &F : Findings) {
    // reviewdog posts the message as the review comment; the notes are the
    // path a reviewer follows, so they are in it too (related_locations is
    // newer than some reviewdog releases).
    std::string Message = F.Message;
    for (const FindingNote &N : F.Notes)
      Message += "\n" + exactText(noteLine(N, Context));
    llvm::json::Object Code{{"value", F.Check}};
    if (std::string Uri = checkDocumentationUri(F.Check, Context); !Uri.empty())
      Code["url"] = std::move(Uri);
    llvm::json::Object Diagnostic{
        {"message", std::move(Message)},
        {"severity", severityOf(F) >= ReviewSeverity::Error     ? "ERROR"
                     : severityOf(F) == ReviewSeverity::Note ? "INFO"
                                                             : "WARNING"},
        {"source", llvm::json::Object{{"name", "cuda-tidy"}}},
        {"code", std::move(Code)}};
    if (std::optional<llvm::json::Object> L = rdLocation(F.Where, Context))
      Diagnostic["location"] = std::move(*L);
    llvm::json::Array Related;
    for (const FindingNote &N : F.Notes)
      if (std::optional<llvm::json::Object> L = rdLocation(N.Where, Context))
        Related.push_back(llvm::json::Object{{"message", N.Message},
                                             {"location", std::move(*L)}});
    if (!Related.empty())
      Diagnostic["related_locations"] = std::move(Related);
    // A suggestion applies to the diagnostic's own file; a fix-it elsewhere
    // (a header) stays in --export-fixes and --fix.
    llvm::json::Array Suggestions;
    for (const FindingFix &X : F.Fixes) {
      std::optional<llvm::json::Object> Start = rdPosition(X.Begin);
      std::optional<llvm::json::Object> Stop = rdPosition(X.End);
      if (X.File == F.Where.File && Start && Stop)
        Suggestions.push_back(llvm::json::Object{
            {"range", llvm::json::Object{{"start", std::move(*Start)},
                                         {"end", std::move(*Stop)}}},
            {"text", X.Replacement}});
    }
    if (!Suggestions.empty())
      Diagnostic["suggestions"] = std::move(Suggestions);
    Diagnostics.push_back(std::move(Diagnostic));
  }
  llvm::json::Value Result = llvm::json::Object{
      {"source", llvm::json::Object{{"name", "cuda-tidy"},
                                    {"url", Context.DocsBaseUri + "README.md"}}},
      {"severity", "WARNING"},
      {"diagnostics", std::move(Diagnostics)}};
  writeJsonText(OS, Result);
}

/// GitLab's five severities: blocker (did not compile), critical (promoted
/// by --warnings-as-errors), major (definite), minor (potential), info
/// (guideline, advisory).
static const char *codeQualitySeverity(const Finding &F) {
  switch (severityOf(F)) {
  case ReviewSeverity::Blocker:
    return "blocker";
  case ReviewSeverity::Error:
    return "critical";
  case ReviewSeverity::Warning:
    return "major";
  case ReviewSeverity::Minor:
    return "minor";
  case ReviewSeverity::Note:
    return "info";
  }
  return "major";
}

void writeCodeQuality(llvm::raw_ostream &OS,
                      const std::vector<Finding> &Findings,
                      const ReportContext &Context) {
  llvm::json::Array Issues;
  for (const Finding &F : Findings) {
    std::string Body;
    for (const FindingNote &N : F.Notes)
      Body += "- " + exactText(noteLine(N, Context)) + "\n";
    // GitLab maps an issue to a file and a line; a compiler error with no
    // file is put on line 1 of no file ("") so it still shows in the report.
    llvm::json::Object Issue{
        {"type", "issue"},
        {"check_name", F.Check},
        {"description", F.Message},
        {"categories", llvm::json::Array{"Bug Risk"}},
        {"severity", codeQualitySeverity(F)},
        {"fingerprint", F.Fingerprint},
        {"location",
         llvm::json::Object{
             {"path", F.Where.File.empty()
                          ? std::string()
                          : exactText(relativeTo(F.Where.File, Context.Root))},
             {"lines", llvm::json::Object{{"begin", std::max(F.Where.Line, 1u)}}}}}};
    if (!Body.empty())
      Issue["content"] = llvm::json::Object{{"body", std::move(Body)}};
    Issues.push_back(std::move(Issue));
  }
  writeJsonText(OS, llvm::json::Value(std::move(Issues)));
}

std::string escapeMarkup(llvm::StringRef Text) {
  std::string Out;
  forEachUnsafeByte(
      Text,
      [&](llvm::StringRef Safe) {
        for (size_t I = 0; I < Safe.size(); ++I) {
          const char C = Safe[I];
          // U+FFFE and U+FFFF are valid UTF-8 but no XML 1.0 character: a
          // file name holding one made the JUnit report unreadable (issue
          // 38 G12). As text, as the bytes that are not UTF-8 are.
          if (C == '\xEF' && I + 2 < Safe.size() && Safe[I + 1] == '\xBF' &&
              (Safe[I + 2] == '\xBE' || Safe[I + 2] == '\xBF')) {
            Out += Safe[I + 2] == '\xBE' ? R"(\xef\xbf\xbe)"
                                          : R"(\xef\xbf\xbf)";
            I += 2;
            continue;
          }
          switch (C) {
          case '&':
            Out += "&amp;";
            break;
          case '<':
            Out += "&lt;";
            break;
          case '>':
            Out += "&gt;";
            break;
          case '"':
            Out += "&quot;";
            break;
          case '\'':
            Out += "&#39;";
            break;
          default:
            Out.push_back(C);
          }
        }
      },
      [&](unsigned char C) {
        if (C == '\t') { // legal in markup, and common in source lines
          Out += '\t';
          return;
        }
        Out += "\\x";
        Out += llvm::hexdigit(C >> 4, /*LowerCase=*/true);
        Out += llvm::hexdigit(C & 15, /*LowerCase=*/true);
      });
  return Out;
}

void writeJUnit(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const ReportContext &Context) {
  // Test cases in a stable order: the inputs as given, then the other files
  // with findings (headers) by name, then findings with no file.
  std::vector<std::string> Files;
  std::set<std::string> Known;
  for (const std::string &Input : Context.Inputs)
    if (Known.insert(Input).second)
      Files.push_back(Input);
  std::set<std::string> Others;
  for (const Finding &F : Findings)
    if (!Known.count(F.Where.File))
      Others.insert(F.Where.File);
  Files.insert(Files.end(), Others.begin(), Others.end());

  std::map<std::string, std::vector<const Finding *>> ByFile;
  for (const Finding &F : Findings)
    ByFile[F.Where.File].push_back(&F);
  // A file that did not compile is an error, or under --compile-errors=warn
  // (its errors at warning level) skipped: not analyzed, and not failed.
  auto Outcome = [](const std::vector<const Finding *> &Of) {
    const auto Error = llvm::find_if(
        Of, [](const Finding *F) { return F->IsCompilerError; });
    if (Error == Of.end())
      return "failure";
    return (*Error)->Level == Finding::Severity::Warning ? "skipped" : "error";
  };
  unsigned Failures = 0;
  unsigned Errors = 0;
  unsigned Skipped = 0;
  for (const std::string &File : Files) {
    const auto It = ByFile.find(File);
    if (It == ByFile.end())
      continue;
    const llvm::StringRef Result = Outcome(It->second);
    ++(Result == "failure" ? Failures : Result == "error" ? Errors : Skipped);
  }
  const std::string Counts =
      "tests='" + std::to_string(Files.size()) + "' failures='" +
      std::to_string(Failures) + "' errors='" + std::to_string(Errors) +
      "'" + (Skipped ? " skipped='" + std::to_string(Skipped) + "'" : "");

  OS << "<?xml version='1.0' encoding='UTF-8'?>\n"
     << "<testsuites name='cuda-tidy' " << Counts << ">\n"
     << "  <testsuite name='cuda-tidy' " << Counts << ">\n";
  for (const std::string &File : Files) {
    const std::string Name =
        File.empty() ? std::string("(no file)") : relativeTo(File, Context.Root);
    OS << "    <testcase classname='cuda-tidy' name='" << escapeMarkup(Name)
       << "'";
    const auto It = ByFile.find(File);
    if (It == ByFile.end()) {
      OS << "/>\n";
      continue;
    }
    OS << ">\n";
    const char *Element = Outcome(It->second);
    const bool DidNotCompile = llvm::StringRef(Element) != "failure";
    const size_t Count = It->second.size();
    std::string Summary =
        (llvm::StringRef(Element) == "skipped" ? "not analyzed: " : "") +
        std::to_string(Count) +
        (DidNotCompile ? (Count == 1 ? " diagnostic" : " diagnostics")
                       : (Count == 1 ? " finding" : " findings")) +
        (DidNotCompile ? "; the file did not compile" : "");
    // How many of each tier, in the order of severity: a reviewer sees
    // from the summary whether a file holds a hazard or only guidelines.
    if (!DidNotCompile) {
      std::map<std::string, unsigned> ByTier;
      for (const Finding *F : It->second)
        ++ByTier[tierOf(*F).str()];
      const char *Separator = ": ";
      for (const char *Tier : {"definite", "potential", "guideline", "advisory"})
        if (ByTier.count(Tier)) {
          Summary += Separator + std::to_string(ByTier[Tier]) + " " + Tier;
          Separator = ", ";
        }
    }
    OS << "      <" << Element << " type='cuda-tidy' message='"
       << escapeMarkup(Summary) << "'>";
    for (const Finding *F : It->second) {
      OS << escapeMarkup(Name) << ":" << F->Where.Line << ":" << F->Where.Column
         << ": " << levelName(*F) << ": " << escapeMarkup(F->Message) << " ["
         << escapeMarkup(F->Check) << "] (" << tierOf(*F) << ")\n";
      for (const FindingNote &N : F->Notes)
        OS << escapeMarkup(noteLine(N, Context)) << "\n";
    }
    OS << "</" << Element << ">\n    </testcase>\n";
  }
  OS << "  </testsuite>\n</testsuites>\n";
}

} // namespace clang::tidy::cuda::driver
