//===- main.cpp - rv-runner: build list, run cases, write evidence -------===//
//
//   rv-runner check      --manifest M
//       reads and validates the manifest, prints one line per case.
//   rv-runner emit-cmake --manifest M --out FILE
//       writes the CMake list of case executables (one per file and flags).
//   rv-runner run        --manifest M --bin-dir DIR --results-dir DIR
//                        [--cuda-bin DIR] [--sanitizer] [--jobs N] [--only
//                        ID,ID...]
//       runs every case in its own process under a watchdog, optionally under
//       compute-sanitizer, compares with the manifest and writes
//       DIR/<gpu-slug>.json and DIR/<gpu-slug>.md.
//
// Exit status: 0 every case matched, 1 some did not, 2 usage or manifest
// error, 75 no CUDA device could be used (nothing run, no evidence written).
//
//===----------------------------------------------------------------------===//

#include "Json.h"
#include "Manifest.h"
#include "Process.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace rv;

namespace {

struct Options {
  std::string Command;
  std::string ManifestPath;
  std::string Out;
  std::string BinDir;
  std::string ResultsDir;
  std::string CudaBin;
  bool Sanitizer = false;
  int Jobs = 4; ///< sanitizer passes at a time
  std::set<std::string> Only;
};

[[noreturn]] void usage(const std::string &Msg) {
  std::cerr
      << "rv-runner: " << Msg << "\n"
      << "usage: rv-runner check --manifest M\n"
         "       rv-runner emit-cmake --manifest M --out FILE\n"
         "       rv-runner run --manifest M --bin-dir DIR --results-dir "
         "DIR [--cuda-bin DIR] [--sanitizer] [--jobs N] [--only ID,...]\n";
  std::exit(2);
}

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  std::string Cur;
  std::istringstream IS(S);
  while (std::getline(IS, Cur, Sep))
    if (!Cur.empty())
      Out.push_back(Cur);
  return Out;
}

std::vector<std::string> words(const std::string &S) {
  std::vector<std::string> Out;
  std::istringstream IS(S);
  std::string W;
  while (IS >> W)
    Out.push_back(W);
  return Out;
}

std::string trim(const std::string &S) {
  size_t B = 0, E = S.size();
  while (B < E && std::isspace(static_cast<unsigned char>(S[B])))
    ++B;
  while (E > B && std::isspace(static_cast<unsigned char>(S[E - 1])))
    --E;
  return S.substr(B, E - B);
}

std::string slug(const std::string &S) {
  std::string Out;
  for (char C : S) {
    if (std::isalnum(static_cast<unsigned char>(C)))
      Out += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
    else if (!Out.empty() && Out.back() != '-')
      Out += '-';
  }
  while (!Out.empty() && Out.back() == '-')
    Out.pop_back();
  return Out;
}

std::string tail(const std::string &S, size_t N) {
  return S.size() <= N ? S : "[...]\n" + S.substr(S.size() - N);
}

bool isFile(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

std::string escapeCell(const std::string &S) {
  std::string Out;
  for (char C : S) {
    if (C == '|')
      Out += "\\|";
    else if (C == '\n')
      Out += ' ';
    else
      Out += C;
  }
  return Out;
}

//===--- What a case printed ---------------------------------------------===//

struct CaseOutput {
  std::string Outcome; ///< from the OUTCOME line, "" if none
  std::vector<std::string> Details;
  std::vector<std::pair<std::string, std::string>> Measures;
};

CaseOutput parseCaseOutput(const std::string &Text) {
  CaseOutput O;
  std::istringstream IS(Text);
  std::string Line;
  while (std::getline(IS, Line)) {
    // A sanitizer prefixes nothing to the program's own lines, but be lenient.
    if (Line.rfind("OUTCOME ", 0) == 0)
      O.Outcome = trim(Line.substr(8));
    else if (Line.rfind("DETAIL ", 0) == 0)
      O.Details.push_back(trim(Line.substr(7)));
    else if (Line.rfind("MEASURE ", 0) == 0) {
      const std::string Rest = trim(Line.substr(8));
      const size_t Sp = Rest.find(' ');
      if (Sp == std::string::npos)
        O.Measures.emplace_back(Rest, "");
      else
        O.Measures.emplace_back(Rest.substr(0, Sp), trim(Rest.substr(Sp + 1)));
    }
  }
  return O;
}

std::string outcomeOf(const ProcessResult &P, const CaseOutput &O) {
  if (!P.Started)
    return "error:not-started";
  if (P.TimedOut)
    return "hang";
  if (!O.Outcome.empty())
    return O.Outcome;
  if (P.Signal)
    return "crash:signal-" + std::to_string(P.Signal);
  if (P.ExitCode != 0)
    return "error:exit-" + std::to_string(P.ExitCode);
  return "error:no-outcome";
}

//===--- compute-sanitizer reports ----------------------------------------===//

struct SanitizerReport {
  int Errors = -1;  ///< from the ERROR or RACECHECK SUMMARY; -1 if none
  int Warnings = 0; ///< racecheck's warnings (hazards of lower severity)
  std::map<std::string, int> Kinds;
  std::string Summary;
};

SanitizerReport parseSanitizer(const std::string &Text) {
  SanitizerReport S;
  std::istringstream IS(Text);
  std::string Line;
  static const std::regex ErrorSummary(R"(ERROR SUMMARY: (\d+) error)");
  static const std::regex RaceSummary(
      R"(RACECHECK SUMMARY: .*\((\d+) errors?, (\d+) warnings?\))");
  static const std::regex RaceFirst(R"(Race reported between (\w+) access)");
  static const std::regex RaceSecond(R"(^=*\s*and (\w+) access)");
  std::string PendingRace;
  while (std::getline(IS, Line)) {
    std::smatch M;
    if (std::regex_search(Line, M, ErrorSummary)) {
      S.Errors = std::stoi(M[1]);
      S.Summary = trim(Line.substr(Line.find("ERROR SUMMARY")));
      continue;
    }
    if (std::regex_search(Line, M, RaceSummary)) {
      S.Errors = std::stoi(M[1]);
      S.Warnings = std::stoi(M[2]);
      S.Summary += (S.Summary.empty() ? "" : "; ") + trim(M[0]);
      continue;
    }
    const size_t Barrier = Line.find("Barrier error detected.");
    if (Barrier != std::string::npos) {
      std::string What = trim(Line.substr(Barrier + 23));
      // "Divergent thread(s) in block" -> divergent-threads-in-block
      for (size_t P; (P = What.find("(s)")) != std::string::npos;)
        What.replace(P, 3, "s");
      ++S.Kinds[What.empty() ? "barrier-error" : slug(What)];
      continue;
    }
    if (std::regex_search(Line, M, RaceFirst)) {
      PendingRace = M[1];
      // The second access is on the same line in some versions.
      const std::string Rest = M.suffix();
      std::smatch M2;
      static const std::regex Inline(R"(and (\w+) access)");
      if (std::regex_search(Rest, M2, Inline)) {
        ++S.Kinds["race-" + slug(PendingRace) + "-" + slug(M2[1])];
        PendingRace.clear();
      }
      continue;
    }
    if (!PendingRace.empty() && std::regex_search(Line, M, RaceSecond)) {
      ++S.Kinds["race-" + slug(PendingRace) + "-" + slug(M[1])];
      PendingRace.clear();
    }
  }
  if (!PendingRace.empty())
    ++S.Kinds["race-" + slug(PendingRace)];
  return S;
}

//===--- cuobjdump measurements -------------------------------------------===//

/// Itanium mangling spells a plain name as <length><name>; match on that so
/// that "tileSum" does not also match "tileSums".
bool mangledHas(const std::string &Mangled, const std::string &Name) {
  return Mangled.find(std::to_string(Name.size()) + Name) != std::string::npos;
}

struct FnMeasure {
  std::map<std::string, int> Res;   ///< REG, STACK, SHARED, LOCAL, ...
  std::map<std::string, int> Ptxas; ///< registers, stack_frame, spill_*
  int Instructions = -1;
  std::map<std::string, int> Opcodes;
};

/// cuobjdump -res-usage: "Function <mangled>:" then "REG:n STACK:n ...".
void measureResUsage(const std::string &Cuobjdump, const std::string &Exe,
                     const std::vector<std::string> &Functions,
                     std::map<std::string, FnMeasure> &Out, std::string &Raw) {
  const ProcessResult P = runProcess({Cuobjdump, "-res-usage", Exe}, 120);
  if (P.ExitCode != 0) {
    Raw += "cuobjdump -res-usage failed: " + tail(P.Output, 300) + "\n";
    return;
  }
  std::istringstream IS(P.Output);
  std::string Line, Current;
  static const std::regex KV(R"(([A-Z_]+(?:\[\d+\])?):(\d+))");
  while (std::getline(IS, Line)) {
    const size_t F = Line.find("Function ");
    std::string Rest = Line;
    if (F != std::string::npos) {
      std::string Name = trim(Line.substr(F + 9));
      const size_t Colon = Name.find(':');
      Rest = Colon == std::string::npos ? "" : Name.substr(Colon + 1);
      Name = Name.substr(0, Colon);
      Current.clear();
      for (const std::string &Fn : Functions)
        if (mangledHas(Name, Fn))
          Current = Fn;
      if (!Current.empty())
        Raw += trim(Line) + "\n";
    } else if (!Current.empty()) {
      Raw += trim(Line) + "\n";
    }
    if (Current.empty())
      continue;
    bool Any = false;
    for (auto It = std::sregex_iterator(Rest.begin(), Rest.end(), KV);
         It != std::sregex_iterator(); ++It) {
      Out[Current].Res[(*It)[1]] = std::stoi((*It)[2]);
      Any = true;
    }
    if (Any)
      Current.clear();
  }
}

/// cuobjdump -sass: "Function : <mangled>" then one instruction per line.
void measureSass(const std::string &Cuobjdump, const std::string &Exe,
                 const std::vector<std::string> &Functions,
                 std::map<std::string, FnMeasure> &Out, std::string &Raw) {
  const ProcessResult P = runProcess({Cuobjdump, "-sass", Exe}, 120);
  if (P.ExitCode != 0) {
    Raw += "cuobjdump -sass failed: " + tail(P.Output, 300) + "\n";
    return;
  }
  std::istringstream IS(P.Output);
  std::string Line, Current;
  static const std::regex Insn(
      R"(/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*))");
  while (std::getline(IS, Line)) {
    const size_t F = Line.find("Function : ");
    if (F != std::string::npos) {
      const std::string Name = trim(Line.substr(F + 11));
      Current.clear();
      for (const std::string &Fn : Functions)
        if (mangledHas(Name, Fn))
          Current = Fn;
      continue;
    }
    if (Current.empty())
      continue;
    std::smatch M;
    if (std::regex_search(Line, M, Insn)) {
      FnMeasure &FM = Out[Current];
      FM.Instructions = std::max(FM.Instructions, 0) + 1;
      ++FM.Opcodes[M[1]];
    }
  }
}

/// nvcc -Xptxas -v: "Function properties for <mangled>" then
/// "N bytes stack frame, N bytes spill stores, N bytes spill loads", and for
/// an entry function "Used N registers". Compile-time: needs no GPU.
void measurePtxas(const std::string &Nvcc, const Manifest &M, const Case &C,
                  std::map<std::string, FnMeasure> &Out, std::string &Raw) {
  std::string Arch =
      M.CudaArchitectures.substr(0, M.CudaArchitectures.find_first_of(";, "));
  const size_t Dash = Arch.find('-');
  Arch = Arch.substr(0, Dash);
  std::vector<std::string> Argv = {Nvcc};
  for (const std::string &W : words(C.Flags))
    Argv.push_back(W);
  const std::string Obj = "/tmp/rv-ptxas-" + std::to_string(getpid()) + ".o";
  for (const std::string &A :
       {std::string("-std=c++17"), "-arch=sm_" + Arch, "-I" + M.Dir + "/cases",
        std::string("-Xptxas"), std::string("-v"), std::string("-c"),
        M.Dir + "/" + C.File, std::string("-o"), Obj})
    Argv.push_back(A);
  const ProcessResult P = runProcess(Argv, 300);
  unlink(Obj.c_str());
  std::string Cmd;
  for (const std::string &A : Argv)
    Cmd += (Cmd.empty() ? "" : " ") + A;
  Raw += "$ " + Cmd + "\n";
  if (P.ExitCode != 0) {
    Raw += "nvcc -Xptxas -v failed: " + tail(P.Output, 300) + "\n";
    return;
  }
  std::istringstream IS(P.Output);
  std::string Line, Entry, Props;
  static const std::regex Frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex Regs(R"(Used (\d+) registers)");
  auto Match = [&](const std::string &Mangled) -> std::string {
    for (const std::string &Fn : C.MeasureFunctions)
      if (mangledHas(Mangled, Fn))
        return Fn;
    return "";
  };
  while (std::getline(IS, Line)) {
    std::smatch Mt;
    size_t At;
    if ((At = Line.find("Compiling entry function '")) != std::string::npos) {
      const std::string Rest = Line.substr(At + 26);
      Entry = Match(Rest.substr(0, Rest.find('\'')));
    } else if ((At = Line.find("Function properties for ")) !=
               std::string::npos) {
      Props = Match(trim(Line.substr(At + 24)));
      if (!Props.empty())
        Raw += trim(Line) + "\n";
    } else if (!Props.empty() && std::regex_search(Line, Mt, Frame)) {
      Out[Props].Ptxas["stack_frame"] = std::stoi(Mt[1]);
      Out[Props].Ptxas["spill_stores"] = std::stoi(Mt[2]);
      Out[Props].Ptxas["spill_loads"] = std::stoi(Mt[3]);
      Raw += trim(Line) + "\n";
      Props.clear();
    } else if (!Entry.empty() && std::regex_search(Line, Mt, Regs)) {
      Out[Entry].Ptxas["registers"] = std::stoi(Mt[1]);
      Raw += trim(Line) + "\n";
      Entry.clear();
    }
  }
}

Json measureJson(const std::map<std::string, FnMeasure> &Ms) {
  Json Out = Json::object();
  for (const auto &KV : Ms) {
    Json E = Json::object();
    if (!KV.second.Res.empty()) {
      Json Res = Json::object();
      for (const auto &R : KV.second.Res)
        Res.set(R.first, R.second);
      E.set("res_usage", Res);
    }
    if (!KV.second.Ptxas.empty()) {
      Json Px = Json::object();
      for (const auto &R : KV.second.Ptxas)
        Px.set(R.first, R.second);
      E.set("ptxas", Px);
    }
    if (KV.second.Instructions >= 0) {
      E.set("sass_instructions", KV.second.Instructions);
      Json Ops = Json::object();
      for (const auto &O : KV.second.Opcodes)
        Ops.set(O.first, O.second);
      E.set("opcodes", Ops);
    }
    Out.set(KV.first, E);
  }
  return Out;
}

//===--- Running one case -------------------------------------------------===//

struct RunRecord {
  std::string Tool; ///< "plain", "synccheck", "racecheck"
  ProcessResult Proc;
  CaseOutput Out;
  std::string Outcome;
  SanitizerReport San;
  std::string Skipped; ///< why it did not run, if it did not
};

Json runJson(const RunRecord &R) {
  Json J = Json::object();
  if (!R.Skipped.empty()) {
    J.set("skipped", R.Skipped);
    return J;
  }
  J.set("outcome", R.Outcome);
  J.set("timed_out", R.Proc.TimedOut);
  J.set("exit_code", R.Proc.ExitCode);
  if (R.Proc.Signal)
    J.set("signal", R.Proc.Signal);
  J.set("wall_s", std::round(R.Proc.WallS * 100) / 100);
  J.set("details", Json::strings(R.Out.Details));
  if (R.Tool != "plain") {
    J.set("errors", R.San.Errors);
    J.set("warnings", R.San.Warnings);
    Json K = Json::object();
    for (const auto &KV : R.San.Kinds)
      K.set(KV.first, KV.second);
    J.set("kinds", K);
    J.set("summary", R.San.Summary);
  }
  J.set("output_tail", tail(R.Proc.Output, R.Tool == "plain" ? 3000 : 2500));
  return J;
}

std::string topKind(const SanitizerReport &S) {
  std::string Best;
  int N = 0;
  for (const auto &KV : S.Kinds)
    if (KV.second > N) {
      Best = KV.first;
      N = KV.second;
    }
  return Best;
}

std::string findSanitizer(const std::string &CudaBin) {
  for (const std::string &P :
       {CudaBin + "/compute-sanitizer",
        CudaBin + "/../compute-sanitizer/compute-sanitizer"})
    if (!CudaBin.empty() && isFile(P))
      return P;
  return "compute-sanitizer"; // from PATH, if there
}

std::string toolPath(const std::string &CudaBin, const std::string &Tool) {
  if (!CudaBin.empty() && isFile(CudaBin + "/" + Tool))
    return CudaBin + "/" + Tool;
  return Tool;
}

std::string firstLineContaining(const std::string &Text,
                                const std::string &Needle) {
  std::istringstream IS(Text);
  std::string Line, Last;
  while (std::getline(IS, Line))
    if (Needle.empty() || Line.find(Needle) != std::string::npos)
      return trim(Line);
  return "";
}

std::string lastNonEmptyLine(const std::string &Text) {
  std::istringstream IS(Text);
  std::string Line, Last;
  while (std::getline(IS, Line))
    if (!trim(Line).empty())
      Last = trim(Line);
  return Last;
}

std::string nowUtc() {
  std::time_t T = std::time(nullptr);
  char Buf[32];
  std::strftime(Buf, sizeof(Buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&T));
  return Buf;
}

int commandCheck(const Options &O) {
  const Manifest M = loadManifest(O.ManifestPath);
  for (const Case &C : M.Cases)
    std::cout << C.Id << "\t" << C.Role << "\t" << C.Check << "\t" << C.File
              << "\t" << C.Outcome << "\t" << executableFor(M, C) << "\n";
  std::cout << M.Cases.size() << " cases, manifest OK\n";
  return 0;
}

int commandEmitCmake(const Options &O) {
  const Manifest M = loadManifest(O.ManifestPath);
  std::ostringstream OS;
  OS << "# Generated by rv-runner from " << M.Path << "; do not edit.\n"
     << "set(RV_MANIFEST_CUDA_ARCHITECTURES \"" << M.CudaArchitectures
     << "\")\n";
  std::set<std::string> Done;
  for (const Case &C : M.Cases) {
    const std::string Exe = executableFor(M, C);
    if (!Done.insert(Exe).second)
      continue;
    std::string Flags;
    for (const std::string &W : words(C.Flags))
      Flags += (Flags.empty() ? "" : ";") + W;
    OS << "rv_add_case(" << Exe << " \"${RV_SOURCE_DIR}/" << C.File << "\" \""
       << Flags << "\")\n";
  }
  std::ofstream F(O.Out);
  if (!F) {
    std::cerr << "rv-runner: cannot write " << O.Out << "\n";
    return 2;
  }
  F << OS.str();
  return 0;
}

int commandRun(const Options &O) {
  const Manifest M = loadManifest(O.ManifestPath);

  // The GPU, or a clear word that there is none.
  const ProcessResult Info = runProcess({O.BinDir + "/rv_device_info"}, 60);
  std::map<std::string, std::string> Gpu;
  {
    std::istringstream IS(Info.Output);
    std::string Line;
    while (std::getline(IS, Line)) {
      const size_t Eq = Line.find('=');
      if (Eq != std::string::npos)
        Gpu[Line.substr(0, Eq)] = trim(Line.substr(Eq + 1));
    }
  }
  if (Info.ExitCode != 0 || Gpu["name"].empty()) {
    std::cout << "runtime-verifier: no CUDA device could be used ("
              << (Gpu.count("error") ? Gpu["error"]
                                     : trim(lastNonEmptyLine(Info.Output)))
              << "): the cases are built, none was run, no evidence written.\n";
    return 75;
  }
  const std::string GpuSlug = slug(Gpu["name"]);
  const std::string Driver = trim(firstLineContaining(
      commandOutput({"nvidia-smi", "--query-gpu=driver_version",
                     "--format=csv,noheader"}),
      ""));
  const std::string NvccPath = toolPath(O.CudaBin, "nvcc");
  const std::string Nvcc =
      firstLineContaining(commandOutput({NvccPath, "--version"}), "release");
  const std::string Sanitizer = findSanitizer(O.CudaBin);
  const std::string SanitizerVersion =
      firstLineContaining(commandOutput({Sanitizer, "--version"}), "Version");
  const std::string Cuobjdump = toolPath(O.CudaBin, "cuobjdump");

  std::cout << "runtime-verifier on " << Gpu["name"] << " (driver " << Driver
            << ", " << Nvcc << ")\n";

  Json Cases = Json::array();
  int Matched = 0, Total = 0;
  std::vector<std::string> Mismatched;
  std::map<std::string, std::map<std::string, std::string>> MeasuresById;
  std::vector<std::vector<std::string>> Rows;
  std::vector<std::vector<std::string>> MeasureRows;

  // Phase 1: every case alone on the GPU, one after the other (the seed's
  // timings want a quiet GPU).
  struct CaseState {
    const Case *C = nullptr;
    std::string Exe;
    std::vector<std::string> Argv;
    std::map<std::string, RunRecord> Runs;
    std::string ExpTool, ExpKind;
  };
  std::vector<CaseState> States;
  for (const Case &C : M.Cases) {
    if (!O.Only.empty() && !O.Only.count(C.Id))
      continue;
    CaseState S;
    S.C = &C;
    S.Exe = O.BinDir + "/" + executableFor(M, C);
    S.Argv = {S.Exe};
    S.Argv.insert(S.Argv.end(), C.Args.begin(), C.Args.end());
    RunRecord &Plain = S.Runs["plain"];
    Plain.Tool = "plain";
    if (!isFile(S.Exe)) {
      Plain.Skipped = "executable not built: " + S.Exe;
      Plain.Outcome = "error:not-built";
    } else {
      Plain.Proc = runProcess(S.Argv, C.TimeoutS);
      Plain.Out = parseCaseOutput(Plain.Proc.Output);
      Plain.Outcome = outcomeOf(Plain.Proc, Plain.Out);
    }
    std::cout << "  ran " << C.Id << ": " << Plain.Outcome << " ("
              << static_cast<int>(Plain.Proc.WallS * 10) / 10.0 << " s)\n"
              << std::flush;
    States.push_back(std::move(S));
  }

  // Phase 2: sanitizer passes, several at a time (they are slow to start and
  // nothing is timed): every listed tool with --sanitizer, and always the tool
  // that the expected outcome names.
  std::vector<std::pair<CaseState *, RunRecord *>> Jobs;
  for (CaseState &S : States) {
    const Case &C = *S.C;
    std::vector<std::string> Tools;
    if (O.Sanitizer)
      Tools = C.Sanitizers;
    if (C.Outcome.rfind("sanitizer:", 0) == 0) {
      const auto Parts = split(C.Outcome, ':');
      S.ExpTool = Parts[1];
      S.ExpKind = Parts.size() > 2 ? Parts[2] : "";
      if (std::find(Tools.begin(), Tools.end(), S.ExpTool) == Tools.end())
        Tools.push_back(S.ExpTool);
    }
    const RunRecord &Plain = S.Runs["plain"];
    for (const std::string &Tool : Tools) {
      RunRecord &R = S.Runs[Tool];
      R.Tool = Tool;
      if (!isFile(S.Exe))
        R.Skipped = "executable not built";
      else if (Plain.Outcome == "hang" && Tool == "racecheck" &&
               S.ExpTool != Tool)
        R.Skipped = "plain run hung; racecheck would hang too";
      else
        Jobs.emplace_back(&S, &R);
    }
  }
  {
    std::atomic<size_t> Next{0};
    std::mutex Print;
    auto Worker = [&] {
      for (size_t I; (I = Next++) < Jobs.size();) {
        CaseState &S = *Jobs[I].first;
        RunRecord &R = *Jobs[I].second;
        std::vector<std::string> SArgv = {Sanitizer, "--tool", R.Tool};
        SArgv.insert(SArgv.end(), S.Argv.begin(), S.Argv.end());
        // A case that hung plainly gets the plain limit plus start-up time.
        const bool Hung = S.Runs.at("plain").Outcome == "hang";
        const double Limit = Hung ? S.C->TimeoutS + 10 : M.SanitizerTimeoutS;
        R.Proc = runProcess(SArgv, Limit);
        R.Out = parseCaseOutput(R.Proc.Output);
        R.Outcome = outcomeOf(R.Proc, R.Out);
        R.San = parseSanitizer(R.Proc.Output);
        if (R.Proc.ExitCode == 127 && R.San.Errors < 0)
          R.Skipped = "compute-sanitizer not found";
        std::lock_guard<std::mutex> Lock(Print);
        std::cout << "  " << R.Tool << " " << S.C->Id << ": "
                  << (R.Skipped.empty() ? R.Outcome : R.Skipped) << ", "
                  << R.San.Errors << " errors\n"
                  << std::flush;
      }
    };
    std::vector<std::thread> Pool;
    for (int I = 0; I < std::max(1, O.Jobs); ++I)
      Pool.emplace_back(Worker);
    for (std::thread &T : Pool)
      T.join();
  }

  // Phase 3: measurements, comparison with the manifest, evidence.
  for (CaseState &S : States) {
    const Case &C = *S.C;
    ++Total;
    const std::string &Exe = S.Exe;
    std::map<std::string, RunRecord> &Runs = S.Runs;
    const RunRecord &Plain = Runs["plain"];
    const std::string &ExpTool = S.ExpTool, &ExpKind = S.ExpKind;

    // Measurements instead of an observable difference.
    std::map<std::string, FnMeasure> Measured;
    std::string RawMeasure;
    if (isFile(Exe)) {
      for (const std::string &W : C.Measure) {
        if (W == "res-usage")
          measureResUsage(Cuobjdump, Exe, C.MeasureFunctions, Measured,
                          RawMeasure);
        else if (W == "sass")
          measureSass(Cuobjdump, Exe, C.MeasureFunctions, Measured, RawMeasure);
        else if (W == "ptxas")
          measurePtxas(NvccPath, M, C, Measured, RawMeasure);
      }
    }
    for (const std::string &Fn : C.MeasureFunctions) {
      const auto It = Measured.find(Fn);
      auto Get = [&](const std::map<std::string, int> &Mp,
                     const char *K) -> std::string {
        const auto I = Mp.find(K);
        return I == Mp.end() ? "-" : std::to_string(I->second);
      };
      if (It == Measured.end()) {
        MeasureRows.push_back(
            {C.Id, Fn, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-",
             "-", "-", "-"});
        continue;
      }
      const FnMeasure &FM = It->second;
      const bool HasSass = FM.Instructions >= 0;
      auto Op = [&](const char *K) -> std::string {
        if (!HasSass)
          return "-";
        const auto I = FM.Opcodes.find(K);
        return I == FM.Opcodes.end() ? "0" : std::to_string(I->second);
      };
      MeasureRows.push_back(
          {C.Id, Fn, Get(FM.Res, "REG"), Get(FM.Res, "STACK"),
           Get(FM.Ptxas, "registers"), Get(FM.Ptxas, "stack_frame"),
           HasSass ? std::to_string(FM.Instructions) : "-", Op("BAR"),
           Op("WARPSYNC"), Op("SHFL"), Op("REDUX"), Op("CALL"), Op("MEMBAR"),
           Op("FENCE"), Op("CCTL")});
    }

    // Compare with the manifest.
    std::string Observed;
    bool Match = false;
    if (!ExpTool.empty()) {
      const RunRecord &R = Runs[ExpTool];
      if (!R.Skipped.empty()) {
        Observed = "unobserved (" + R.Skipped + ")";
      } else if (R.San.Kinds.count(ExpKind)) {
        Observed = C.Outcome;
        Match = true;
      } else if (!R.San.Kinds.empty()) {
        Observed = "sanitizer:" + ExpTool + ":" + topKind(R.San);
      } else {
        Observed = R.Outcome + " (" + ExpTool + ": " +
                   (R.San.Errors >= 0 ? std::to_string(R.San.Errors)
                                      : std::string("no")) +
                   " errors)";
      }
    } else if (C.Outcome == "not-observable") {
      // Every named function must have been measured.
      bool Have = true;
      for (const std::string &Fn : C.MeasureFunctions)
        Have = Have && Measured.count(Fn);
      if (Plain.Outcome == "ok" && Have) {
        Observed = "not-observable";
        Match = true;
      } else {
        Observed = Plain.Outcome;
      }
    } else {
      Observed = Plain.Outcome;
      Match = Observed == C.Outcome;
      // A compliant or reference kernel must also be clean under the tools.
      if (C.Role != "violating")
        for (const auto &KV : Runs)
          if (KV.first != "plain" && KV.second.Skipped.empty() &&
              (KV.second.San.Errors > 0 || KV.second.San.Warnings > 0)) {
            Observed +=
                " +sanitizer:" + KV.first + ":" + topKind(KV.second.San);
            Match = false;
          }
    }
    if (Match)
      ++Matched;
    else
      Mismatched.push_back(C.Id);

    std::cout << (Match ? "  match     " : "  MISMATCH  ") << C.Id
              << ": expected " << C.Outcome << ", observed " << Observed
              << "\n";

    Json J = Json::object();
    J.set("id", C.Id);
    J.set("check", C.Check);
    J.set("role", C.Role);
    J.set("twin", Json::strings(C.Twins));
    J.set("file", C.File);
    J.set("kernel", C.Kernel);
    J.set("args", Json::strings(C.Args));
    J.set("flags", C.Flags);
    J.set("executable", executableFor(M, C));
    Json Exp = Json::object();
    Exp.set("outcome", C.Outcome);
    Exp.set("static", C.Static);
    Json Lines = Json::array();
    for (int L : C.Lines)
      Lines.push(L);
    Exp.set("lines", Lines);
    Exp.set("static_check", C.StaticCheck);
    Exp.set("note", C.Note);
    J.set("expected", Exp);
    J.set("observed", Observed);
    J.set("matched", Match);
    Json RunsJ = Json::object();
    for (const char *T : {"plain", "synccheck", "racecheck"})
      if (Runs.count(T))
        RunsJ.set(T, runJson(Runs[T]));
    J.set("runs", RunsJ);
    Json Meas = Json::object();
    for (const auto &KV : Plain.Out.Measures) {
      Meas.set(KV.first, KV.second);
      MeasuresById[C.Id][KV.first] = KV.second;
    }
    J.set("measures", Meas);
    J.set("measurements", measureJson(Measured));
    if (!RawMeasure.empty())
      J.set("measurement_log", RawMeasure);
    Cases.push(J);

    auto SanCell = [&](const char *T) -> std::string {
      if (!Runs.count(T))
        return "-";
      const RunRecord &R = Runs[T];
      if (!R.Skipped.empty())
        return "skipped";
      if (R.Proc.TimedOut)
        return "hang";
      std::string S = R.San.Errors >= 0
                          ? std::to_string(R.San.Errors) + " errors"
                          : "no summary";
      if (R.San.Warnings > 0)
        S += ", " + std::to_string(R.San.Warnings) + " warnings";
      if (!R.San.Kinds.empty())
        S += " (" + topKind(R.San) + ")";
      return S;
    };
    std::string Detail;
    for (const std::string &D : Plain.Out.Details)
      Detail += (Detail.empty() ? "" : "; ") + D;
    if (Detail.empty() && Plain.Proc.TimedOut)
      Detail = "killed by the watchdog after " +
               std::to_string(static_cast<int>(C.TimeoutS)) + " s";
    Rows.push_back({C.Id, C.Check.empty() ? "-" : C.Check, C.Role, C.Flags,
                    C.Outcome, Observed, Match ? "yes" : "**no**",
                    SanCell("synccheck"), SanCell("racecheck"), Detail});
  }

  // The seed table, filled from the seed case's measures.
  Json Seed = Json::object();
  std::vector<std::array<std::string, 3>> SeedRows;
  if (!M.SeedCase.empty() && MeasuresById.count(M.SeedCase)) {
    const auto &Meas = MeasuresById[M.SeedCase];
    Json RowsJ = Json::array();
    for (const SeedRow &R : M.SeedRows) {
      std::string H = R.H200;
      for (size_t P = H.find('{'); P != std::string::npos; P = H.find('{', P)) {
        const size_t E = H.find('}', P);
        if (E == std::string::npos)
          break;
        const std::string Key = H.substr(P + 1, E - P - 1);
        const auto It = Meas.find(Key);
        const std::string V = It == Meas.end() ? "(not measured)" : It->second;
        H.replace(P, E - P + 1, V);
        P += V.size();
      }
      Json Row = Json::object();
      Row.set("row", R.Row);
      Row.set("t4", R.T4);
      Row.set("h200", H);
      RowsJ.push(Row);
      SeedRows.push_back({R.Row, R.T4, H});
    }
    Seed.set("source", M.SeedSource);
    Seed.set("case", M.SeedCase);
    Seed.set("rows", RowsJ);
  }

  Json Doc = Json::object();
  Doc.set("schema", 1);
  Doc.set("date_utc", nowUtc());
  Json GpuJ = Json::object();
  GpuJ.set("name", Gpu["name"]);
  GpuJ.set("slug", GpuSlug);
  GpuJ.set("compute_capability", Gpu["compute_capability"]);
  GpuJ.set("sms", Gpu["sms"]);
  GpuJ.set("driver_version", Driver);
  GpuJ.set("driver_api_version", Gpu["driver_api_version"]);
  GpuJ.set("runtime_version", Gpu["runtime_version"]);
  Doc.set("gpu", GpuJ);
  Json Tk = Json::object();
  Tk.set("nvcc", Nvcc);
  Tk.set("compute_sanitizer", SanitizerVersion);
  Tk.set("cuda_architectures", M.CudaArchitectures);
  Doc.set("toolkit", Tk);
  Doc.set("default_flags", M.DefaultFlags);
  Doc.set("sanitizer_pass", O.Sanitizer);
  Doc.set("only", Json::strings(
                      std::vector<std::string>(O.Only.begin(), O.Only.end())));
  Doc.set("cases", Cases);
  Doc.set("seed_table", Seed);
  Json Sum = Json::object();
  Sum.set("cases", Total);
  Sum.set("matched", Matched);
  Sum.set("mismatched", Json::strings(Mismatched));
  Doc.set("summary", Sum);

  mkdir(O.ResultsDir.c_str(), 0755);
  const std::string Base = O.ResultsDir + "/" + GpuSlug;
  {
    std::ofstream F(Base + ".json");
    F << Doc.dump();
  }
  {
    std::ofstream F(Base + ".md");
    F << "# Runtime-verifier evidence: " << Gpu["name"] << "\n\n"
      << "Written by `runtime-verifier/run.sh"
      << (O.Sanitizer ? " --sanitizer" : "") << "` on " << nowUtc()
      << ". Do not edit: run it again.\n\n"
      << "| | |\n| --- | --- |\n"
      << "| GPU | " << Gpu["name"] << " (compute capability "
      << Gpu["compute_capability"] << ", " << Gpu["sms"] << " SMs) |\n"
      << "| driver | " << Driver << " (CUDA driver API "
      << Gpu["driver_api_version"] << ") |\n"
      << "| CUDA | " << escapeCell(Nvcc) << "; runtime "
      << Gpu["runtime_version"] << " |\n"
      << "| compute-sanitizer | " << escapeCell(SanitizerVersion) << " |\n"
      << "| build | CMake CUDA language, CUDA_ARCHITECTURES "
      << M.CudaArchitectures << ", default flags `" << M.DefaultFlags
      << "` (per case below) |\n"
      << "| result | " << Matched << " of " << Total
      << " cases as the manifest expects |\n\n"
      << "| case | check | role | flags | expected | observed | match | "
         "synccheck | racecheck | detail |\n"
      << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (const auto &R : Rows) {
      F << "|";
      for (size_t I = 0; I < R.size(); ++I)
        F << " " << (I == 3 ? "`" + R[I] + "`" : escapeCell(R[I])) << " |";
      F << "\n";
    }
    if (!MeasureRows.empty()) {
      F << "\n## Measurements (cuobjdump, ptxas)\n\n"
        << "Registers and stack from `cuobjdump -res-usage` (REG, STACK) and "
           "`nvcc -Xptxas -v`; instruction counts from `cuobjdump -sass` (a "
           "kernel's count includes the device functions placed in its "
           "section). `-`: not reported for that function.\n\n"
        << "| case | function | REG | STACK | ptxas registers | ptxas stack "
           "frame | SASS instructions | BAR | WARPSYNC | SHFL | REDUX | CALL "
           "| MEMBAR | FENCE | CCTL |\n"
        << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
           "| --- | --- | --- | --- |\n";
      for (const auto &R : MeasureRows) {
        F << "|";
        for (const std::string &Cell : R)
          F << " " << escapeCell(Cell) << " |";
        F << "\n";
      }
    }
    if (!SeedRows.empty()) {
      F << "\n## Seed table: Tesla T4 (seed) and " << Gpu["name"]
        << " (this run)\n\nSource of the T4 figures: " << M.SeedSource
        << ".\n\n| question | Tesla T4 (seed) | " << Gpu["name"]
        << " (this run) |\n| --- | --- | --- |\n";
      for (const auto &R : SeedRows)
        F << "| " << escapeCell(R[0]) << " | " << escapeCell(R[1]) << " | "
          << escapeCell(R[2]) << " |\n";
    }
  }
  std::cout << Matched << " of " << Total
            << " cases as the manifest expects; evidence: " << Base << ".json, "
            << Base << ".md\n";
  return Matched == Total ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2)
    usage("no command");
  Options O;
  O.Command = Argv[1];
  for (int I = 2; I < Argc; ++I) {
    const std::string A = Argv[I];
    auto Value = [&]() -> std::string {
      if (I + 1 >= Argc)
        usage("missing value after " + A);
      return Argv[++I];
    };
    if (A == "--manifest")
      O.ManifestPath = Value();
    else if (A == "--out")
      O.Out = Value();
    else if (A == "--bin-dir")
      O.BinDir = Value();
    else if (A == "--results-dir")
      O.ResultsDir = Value();
    else if (A == "--cuda-bin")
      O.CudaBin = Value();
    else if (A == "--sanitizer")
      O.Sanitizer = true;
    else if (A == "--jobs")
      O.Jobs = std::atoi(Value().c_str());
    else if (A == "--only")
      for (const std::string &Id : split(Value(), ','))
        O.Only.insert(Id);
    else
      usage("unknown argument " + A);
  }
  if (O.ManifestPath.empty())
    usage("--manifest is required");
  try {
    if (O.Command == "check")
      return commandCheck(O);
    if (O.Command == "emit-cmake") {
      if (O.Out.empty())
        usage("emit-cmake needs --out");
      return commandEmitCmake(O);
    }
    if (O.Command == "run") {
      if (O.BinDir.empty() || O.ResultsDir.empty())
        usage("run needs --bin-dir and --results-dir");
      return commandRun(O);
    }
  } catch (const ManifestError &E) {
    std::cerr << "rv-runner: " << E.what() << "\n";
    return 2;
  }
  usage("unknown command " + O.Command);
}
