//===--- Reporters.cpp - findings for machines: JSON, SARIF, GitHub -------===//

#include "tool/driver/Reporters.h"
#include "checks/CudaTidyModule.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <map>
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

static const char *levelName(const Finding &F) {
  return F.Level == Finding::Severity::Error ? "error" : "warning";
}

static llvm::json::Object pointJson(const SourcePoint &P,
                                    const ReportContext &Context) {
  return llvm::json::Object{{"file", relativeTo(P.File, Context.Root)},
                            {"line", P.Line},
                            {"column", P.Column}};
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
    for (const FindingFix &X : F.Fixes)
      Fixes.push_back(llvm::json::Object{
          {"file", relativeTo(X.File, Context.Root)},
          {"offset", X.Offset},
          {"length", X.Length},
          {"replacement", X.Replacement}});
    llvm::json::Object Item = pointJson(F.Where, Context);
    Item["check"] = F.Check;
    Item["level"] = levelName(F);
    Item["compilerError"] = F.IsCompilerError;
    Item["message"] = F.Message;
    Item["notes"] = std::move(Notes);
    Item["fixes"] = std::move(Fixes);
    Item["fingerprint"] = F.Fingerprint;
    Items.push_back(std::move(Item));
  }
  llvm::json::Value Root = llvm::json::Object{
      {"tool", "cuda-tidy"},
      {"version", Context.ToolVersion},
      {"schemaVersion", 1},
      {"findings", std::move(Items)}};
  OS << llvm::formatv("{0:2}", Root) << "\n";
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
                     std::string HelpUri, std::string HelpText) {
    RuleIndex[Id.str()] = Rules.size();
    llvm::json::Object Rule{
        {"id", Id.str()},
        {"name", ruleDisplayName(Id)},
        {"shortDescription", llvm::json::Object{{"text", Summary.str()}}},
        {"fullDescription", llvm::json::Object{{"text", Summary.str()}}},
        {"help", llvm::json::Object{{"text", std::move(HelpText)}}},
        {"defaultConfiguration", llvm::json::Object{{"level", "warning"}}}};
    if (!HelpUri.empty())
      Rule["helpUri"] = std::move(HelpUri);
    Rules.push_back(std::move(Rule));
  };
  for (const CheckDescription &Check : allCheckDescriptions()) {
    std::string Help = Context.DocsBaseUri + checkDocumentationPath(Check.Name);
    AddRule(Check.Name, Check.Summary, Help, "See " + Help);
  }
  llvm::json::Array Results;
  for (const Finding &F : Findings) {
    if (!RuleIndex.count(F.Check)) {
      // Compiler diagnostics (clang-diagnostic-*) are no check of ours.
      std::string Summary = F.IsCompilerError
                                ? "the compiler could not parse the file"
                                : "diagnostic " + F.Check;
      AddRule(F.Check, Summary, "",
              Summary + "; cuda-tidy analyzes only what compiles.");
    }
    llvm::json::Object Result{
        {"ruleId", F.Check},
        {"ruleIndex", RuleIndex[F.Check]},
        {"level", levelName(F)},
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
  OS << llvm::formatv("{0:2}", Log) << "\n";
}

std::string escapeGitHubData(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    default:
      // Other control bytes (ESC, BEL, ...) would reach the log raw and can
      // spoof it (issue 16 F19); GitHub shows the escape as text.
      if (static_cast<unsigned char>(C) < 0x20 || C == 0x7f) {
        Out += '%';
        Out += llvm::hexdigit(static_cast<unsigned char>(C) >> 4, false);
        Out += llvm::hexdigit(static_cast<unsigned char>(C) & 15, false);
      } else {
        Out.push_back(C);
      }
    }
  }
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
    OS << "title=" << escapeGitHubProperty(F.Check) << "::"
       << escapeGitHubData(Message) << "\n";
  }
}

} // namespace clang::tidy::cuda::driver
