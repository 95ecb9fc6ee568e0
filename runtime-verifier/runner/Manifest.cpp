//===- Manifest.cpp - runtime-verifier manifest, read with yaml-cpp -------===//

#include "Manifest.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>
#include <sstream>

namespace rv {
namespace {

std::string where(const std::string &Path, const YAML::Node &N) {
  const YAML::Mark M = N.Mark();
  std::ostringstream OS;
  OS << Path << ":" << (M.line + 1) << ":" << (M.column + 1);
  return OS.str();
}

[[noreturn]] void fail(const std::string &Path, const YAML::Node &N,
                       const std::string &Msg) {
  throw ManifestError(where(Path, N) + ": " + Msg);
}

void checkKeys(const std::string &Path, const YAML::Node &Map,
               const std::set<std::string> &Allowed, const char *What) {
  if (!Map.IsMap())
    fail(Path, Map, std::string(What) + " must be a mapping");
  for (const auto &KV : Map) {
    const std::string Key = KV.first.as<std::string>();
    if (!Allowed.count(Key))
      fail(Path, KV.first, "unknown key '" + Key + "' in " + What);
  }
}

std::string scalar(const std::string &Path, const YAML::Node &Map,
                   const char *Key, bool Required,
                   const std::string &Default = "") {
  const YAML::Node N = Map[Key];
  if (!N) {
    if (Required)
      fail(Path, Map, std::string("missing key '") + Key + "'");
    return Default;
  }
  if (!N.IsScalar())
    fail(Path, N, std::string("'") + Key + "' must be a scalar");
  return N.as<std::string>();
}

std::vector<std::string> list(const std::string &Path, const YAML::Node &Map,
                              const char *Key) {
  std::vector<std::string> Out;
  const YAML::Node N = Map[Key];
  if (!N)
    return Out;
  if (N.IsScalar()) { // a single value may be written without brackets
    Out.push_back(N.as<std::string>());
    return Out;
  }
  if (!N.IsSequence())
    fail(Path, N, std::string("'") + Key + "' must be a list");
  for (const auto &E : N) {
    if (!E.IsScalar())
      fail(Path, E, std::string("'") + Key + "' entries must be scalars");
    Out.push_back(E.as<std::string>());
  }
  return Out;
}

double number(const std::string &Path, const YAML::Node &Map, const char *Key,
              double Default) {
  const YAML::Node N = Map[Key];
  if (!N)
    return Default;
  try {
    return N.as<double>();
  } catch (const YAML::Exception &) {
    fail(Path, N, std::string("'") + Key + "' must be a number");
  }
}

bool validOutcome(const std::string &O) {
  static const std::set<std::string> Plain = {"ok", "wrong-result", "hang",
                                              "not-observable"};
  if (Plain.count(O))
    return true;
  if (O.rfind("launch-error:cudaError", 0) == 0)
    return true;
  for (const char *Tool : {"sanitizer:synccheck:", "sanitizer:racecheck:"}) {
    const std::string P = Tool;
    if (O.rfind(P, 0) == 0 && O.size() > P.size())
      return true;
  }
  return false;
}

} // namespace

const Case *Manifest::find(const std::string &Id) const {
  for (const Case &C : Cases)
    if (C.Id == Id)
      return &C;
  return nullptr;
}

Manifest loadManifest(const std::string &Path) {
  YAML::Node Root;
  try {
    Root = YAML::LoadFile(Path);
  } catch (const YAML::BadFile &) {
    throw ManifestError(Path + ": cannot read the manifest");
  } catch (const YAML::ParserException &E) {
    std::ostringstream OS;
    OS << Path << ":" << (E.mark.line + 1) << ":" << (E.mark.column + 1) << ": "
       << E.msg;
    throw ManifestError(OS.str());
  }

  Manifest M;
  M.Path = Path;
  const auto Slash = Path.find_last_of('/');
  M.Dir = Slash == std::string::npos ? "." : Path.substr(0, Slash);

  checkKeys(Path, Root,
            {"version", "defaults", "checks", "advisory_checks", "cases", "seed_table"},
            "the manifest");
  M.Version = static_cast<int>(number(Path, Root, "version", 0));
  if (M.Version != 1)
    fail(Path, Root, "only manifest version 1 is known");

  const YAML::Node Defaults = Root["defaults"];
  if (Defaults) {
    checkKeys(
        Path, Defaults,
        {"flags", "cuda_architectures", "timeout_s", "sanitizer_timeout_s"},
        "defaults");
    M.DefaultFlags = scalar(Path, Defaults, "flags", false);
    M.CudaArchitectures = scalar(Path, Defaults, "cuda_architectures", false);
    M.DefaultTimeoutS = number(Path, Defaults, "timeout_s", 10);
    M.SanitizerTimeoutS = number(Path, Defaults, "sanitizer_timeout_s", 60);
  }
  if (M.CudaArchitectures.empty())
    M.CudaArchitectures = "90";
  M.Checks = list(Path, Root, "checks");

  const YAML::Node Cases = Root["cases"];
  if (!Cases || !Cases.IsSequence())
    fail(Path, Root, "'cases' must be a list");
  std::set<std::string> Ids;
  for (const YAML::Node &N : Cases) {
    checkKeys(Path, N,
              {"id", "check", "role", "twin", "file", "kernel", "args", "flags",
               "static", "lines", "static_check", "outcome", "note",
               "timeout_s", "sanitizers", "measure", "measure_functions",
               "evidence"},
              "a case");
    Case C;
    C.Line = static_cast<int>(N.Mark().line) + 1;
    C.Id = scalar(Path, N, "id", true);
    if (!Ids.insert(C.Id).second)
      fail(Path, N["id"], "duplicate case id '" + C.Id + "'");
    C.Check = scalar(Path, N, "check", false);
    C.Role = scalar(Path, N, "role", true);
    if (C.Role != "violating" && C.Role != "compliant" && C.Role != "reference")
      fail(Path, N["role"], "role must be violating, compliant or reference");
    if (C.Role != "reference" && C.Check.empty())
      fail(Path, N, "a violating or compliant case names its check");
    C.Twins = list(Path, N, "twin");
    C.File = scalar(Path, N, "file", true);
    C.Kernel = scalar(Path, N, "kernel", true);
    C.Args = list(Path, N, "args");
    C.Flags = scalar(Path, N, "flags", false, M.DefaultFlags);
    C.Static = scalar(Path, N, "static", true);
    if (C.Static != "flagged" && C.Static != "clean" &&
        C.Static != "unspecified")
      fail(Path, N["static"], "static must be flagged, clean or unspecified");
    for (const std::string &L : list(Path, N, "lines")) {
      try {
        C.Lines.push_back(std::stoi(L));
      } catch (const std::exception &) {
        fail(Path, N["lines"], "lines must be line numbers");
      }
    }
    if (C.Static == "flagged" && C.Lines.empty())
      fail(Path, N, "a flagged case lists the lines of its findings");
    if (C.Static != "flagged" && !C.Lines.empty())
      fail(Path, N["lines"], "only a flagged case lists lines");
    C.StaticCheck = scalar(Path, N, "static_check", false, C.Check);
    if (C.Static == "flagged" && C.StaticCheck.empty())
      fail(Path, N, "a flagged case names the check expected to flag it");
    C.Outcome = scalar(Path, N, "outcome", true);
    if (!validOutcome(C.Outcome))
      fail(Path, N["outcome"],
           "outcome must be ok, wrong-result, hang, not-observable, "
           "launch-error:<cudaError name> or "
           "sanitizer:<synccheck|racecheck>:<report kind>");
    C.Note = scalar(Path, N, "note", false);
    // `evidence: pending`: the case is new and has not yet run on the
    // evidence GPU; the evidence check says so instead of failing.
    C.Evidence = scalar(Path, N, "evidence", false);
    if (!C.Evidence.empty() && C.Evidence != "pending")
      fail(Path, N["evidence"], "evidence must be pending, or absent");
    C.TimeoutS = number(Path, N, "timeout_s", M.DefaultTimeoutS);
    if (N["sanitizers"])
      C.Sanitizers = list(Path, N, "sanitizers");
    else
      C.Sanitizers = {"synccheck", "racecheck"};
    for (const std::string &T : C.Sanitizers)
      if (T != "synccheck" && T != "racecheck")
        fail(Path, N["sanitizers"], "sanitizers are synccheck and racecheck");
    C.Measure = list(Path, N, "measure");
    for (const std::string &W : C.Measure)
      if (W != "res-usage" && W != "sass" && W != "ptxas")
        fail(Path, N["measure"], "measure takes res-usage, sass and ptxas");
    C.MeasureFunctions = list(Path, N, "measure_functions");
    if (!C.Measure.empty() && C.MeasureFunctions.empty())
      fail(Path, N, "a measured case names its measure_functions");
    if (C.Outcome == "not-observable" && (C.Measure.empty() || C.Note.empty()))
      fail(Path, N,
           "a not-observable case says what was measured instead (measure, "
           "measure_functions) and why (note)");
    M.Cases.push_back(std::move(C));
  }

  // Twins name each other's ids, and a violating case has a compliant twin.
  for (const Case &C : M.Cases) {
    for (const std::string &T : C.Twins) {
      const Case *Other = M.find(T);
      if (!Other)
        throw ManifestError(Path + ":" + std::to_string(C.Line) + ": case '" +
                            C.Id + "' names unknown twin '" + T + "'");
      if (Other->Role == C.Role)
        throw ManifestError(Path + ":" + std::to_string(C.Line) + ": case '" +
                            C.Id + "' and its twin '" + T +
                            "' have the same role");
    }
    if (C.Role == "violating" && C.Twins.empty())
      throw ManifestError(Path + ":" + std::to_string(C.Line) +
                          ": violating case '" + C.Id + "' has no twin");
  }

  const YAML::Node Seed = Root["seed_table"];
  if (Seed) {
    checkKeys(Path, Seed, {"case", "source", "rows"}, "seed_table");
    M.SeedCase = scalar(Path, Seed, "case", true);
    if (!M.find(M.SeedCase))
      fail(Path, Seed["case"],
           "seed_table names unknown case '" + M.SeedCase + "'");
    M.SeedSource = scalar(Path, Seed, "source", false);
    const YAML::Node Rows = Seed["rows"];
    if (!Rows || !Rows.IsSequence())
      fail(Path, Seed, "seed_table.rows must be a list");
    for (const YAML::Node &R : Rows) {
      checkKeys(Path, R, {"row", "t4", "h200"}, "a seed_table row");
      M.SeedRows.push_back({scalar(Path, R, "row", true),
                            scalar(Path, R, "t4", true),
                            scalar(Path, R, "h200", true)});
    }
  }
  return M;
}

std::string executableFor(const Manifest &M, const Case &C) {
  for (const Case &First : M.Cases)
    if (First.File == C.File && First.Flags == C.Flags)
      return First.Id;
  return C.Id;
}

} // namespace rv
