//===--- NvccCommandLine.cpp - nvcc compile commands translated for clang -===//
//
// The facts this file relies on were checked against nvcc 13.0 (`nvcc
// -dryrun`, `nvcc -E`) and clang 22; docs/design/nvcc-compile-databases.md
// lists them. In short, nvcc
//  - takes `-opt=value` and `-opt value` for every option with a value, and
//    the joined `-Dvalue` form only for -D -U -I -L -l -O -t;
//  - splits list values (`<x>,...`) at commas outside double quotes, `\,`
//    being a literal comma; -D keeps the quotes, the other lists drop them;
//  - pastes -Xcompiler values into a shell command line for the host
//    compiler, so "quotes" and white space in them are the shell's;
//  - passes an option it does not know to the host compiler when CMake's
//    -forward-unknown-to-host-compiler is on: those are host flags, kept.
//
//===----------------------------------------------------------------------===//

#include "tool/compdb/NvccCommandLine.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <tuple>

namespace clang::tidy::cuda::compdb {
namespace {

namespace fs = std::filesystem;

bool startsWith(const std::string &S, const std::string &Prefix) {
  return S.compare(0, Prefix.size(), Prefix) == 0;
}

std::string lower(std::string S) {
  for (char &C : S)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return S;
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.find_last_of("/\\");
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

//===-- The option table --------------------------------------------------===//

enum class Value : unsigned char {
  None,       ///< A flag.
  One,        ///< One value.
  List,       ///< An nvcc comma list; "quotes" protect commas, are removed.
  ListQuoted, ///< A comma list whose quotes nvcc keeps (macro definitions).
};

enum class Action : unsigned char {
  Drop,     ///< Nothing for clang; the Note says why.
  Rename,   ///< A flag: emit Clang.
  Joined,   ///< Emit Clang+item for each list item (-DX, -Ipath, -O3).
  Separate, ///< Emit Clang, item for each list item (-isystem path).
  Equals,   ///< Emit Clang=value (-std=c++17).
  Language,
  Arch,
  Code,
  GenerateCode,
  Rdc,
  DeviceC,
  DeviceW,
  HostOptions,
  OptionsFile,
  DefaultStream,
  FastMath,
  Machine,
};

struct NvccOption {
  const char *Long;  ///< --long-name, or null.
  const char *Short; ///< -short-name, or null.
  Value Val;
  bool JoinedShort; ///< nvcc also takes -Svalue (only -D -U -I -L -l -O -t).
  Action Act;
  const char *Text; ///< The clang spelling, or for Drop the reason.
};

// Reasons shared by many dropped options.
constexpr const char *Link = "a link-step option; a compile needs none";
constexpr const char *Output =
    "selects nvcc's output kind; the analysis only parses";
constexpr const char *DeviceCodegen =
    "tunes device code generation (cicc, ptxas, fatbinary), which a parse "
    "never reaches";
constexpr const char *NvccDriver = "controls the nvcc driver itself";
constexpr const char *NvccDiagnostics =
    "configures diagnostics of nvcc's own front-end, which clang does not "
    "share";
constexpr const char *Forwarding =
    "nvcc hands options it does not know to the host compiler; the "
    "translation keeps them for clang, which is the host compiler here";

using V = Value;
using A = Action;

// nvcc 13.0's options (nvcc --help), in its order. Anything not here is a
// host compiler flag and is kept as written.
const NvccOption Options[] = {
    {"--cuda", "-cuda", V::None, false, A::Drop, Output},
    {"--cubin", "-cubin", V::None, false, A::Drop, Output},
    {"--fatbin", "-fatbin", V::None, false, A::Drop, Output},
    {"--ptx", "-ptx", V::None, false, A::Drop, Output},
    {"--optix-ir", "-optix-ir", V::None, false, A::Drop, Output},
    {"--ltoir", "-ltoir", V::None, false, A::Drop, Output},
    {"--preprocess", "-E", V::None, false, A::Rename, "-E"},
    {"--generate-dependencies", "-M", V::None, false, A::Rename, "-M"},
    {"--generate-nonsystem-dependencies", "-MM", V::None, false, A::Rename,
     "-MM"},
    {"--generate-dependencies-with-compile", "-MD", V::None, false, A::Rename,
     "-MD"},
    {"--generate-nonsystem-dependencies-with-compile", "-MMD", V::None, false,
     A::Rename, "-MMD"},
    {"--dependency-output", "-MF", V::One, false, A::Separate, "-MF"},
    {"--generate-dependency-targets", "-MP", V::None, false, A::Rename, "-MP"},
    {"--dependency-target-name", "-MT", V::One, false, A::Separate, "-MT"},
    {"--compile", "-c", V::None, false, A::Rename, "-c"},
    {"--device-c", "-dc", V::None, false, A::DeviceC, nullptr},
    {"--device-w", "-dw", V::None, false, A::DeviceW, nullptr},
    {"--device-link", "-dlink", V::None, false, A::Drop, Link},
    {"--link", "-link", V::None, false, A::Drop, Link},
    {"--lib", "-lib", V::None, false, A::Drop, Link},
    {"--run", "-run", V::None, false, A::Drop, Link},
    {"--output-file", "-o", V::One, false, A::Separate, "-o"},
    {"--pre-include", "-include", V::List, false, A::Separate, "-include"},
    {"--objdir-as-tempdir", "-objtemp", V::None, false, A::Drop, NvccDriver},
    {"--library", "-l", V::List, true, A::Drop, Link},
    {"--define-macro", "-D", V::ListQuoted, true, A::Joined, "-D"},
    {"--undefine-macro", "-U", V::ListQuoted, true, A::Joined, "-U"},
    {"--include-path", "-I", V::List, true, A::Joined, "-I"},
    {"--system-include", "-isystem", V::List, false, A::Separate, "-isystem"},
    {"--library-path", "-L", V::List, true, A::Drop, Link},
    {"--output-directory", "-odir", V::One, false, A::Drop, NvccDriver},
    {"--compiler-bindir", "-ccbin", V::One, false, A::Drop,
     "names the host compiler nvcc runs; clang is the host compiler here"},
    {"--allow-unsupported-compiler", "-allow-unsupported-compiler", V::None,
     false, A::Drop, NvccDriver},
    {"--archiver-binary", "-arbin", V::One, false, A::Drop, Link},
    {"--cudart", "-cudart", V::One, false, A::Drop, Link},
    {"--cudadevrt", "-cudadevrt", V::One, false, A::Drop, Link},
    {"--libdevice-directory", "-ldir", V::One, false, A::Drop, DeviceCodegen},
    {"--target-directory", "-target-dir", V::One, false, A::Drop, NvccDriver},
    {"--use-local-env", "-use-local-env", V::None, false, A::Drop, NvccDriver},
    {"--force-cl-env-setup", "-force-cl-env-setup", V::None, false, A::Drop,
     NvccDriver},
    {"--profile", "-pg", V::None, false, A::Drop,
     "gprof instrumentation; nothing a parse sees"},
    {"--debug", "-g", V::None, false, A::Rename, "-g"},
    // Trap: clang has a MIPS option "-G <size>" and would take the next
    // argument (often the source file) as its value.
    {"--device-debug", "-G", V::None, false, A::Drop,
     "device debug info; clang would read -G as '-G <size>' and swallow the "
     "next argument"},
    // Trap: clang reads -lineinfo as -l ineinfo, a library to link.
    {"--generate-line-info", "-lineinfo", V::None, false, A::Drop,
     "device line info; clang would read -lineinfo as '-l ineinfo'"},
    {"--optimization-info", "-opt-info", V::One, false, A::Drop, DeviceCodegen},
    {"--optimize", "-O", V::One, true, A::Joined, "-O"},
    {"--Ofast-compile", "-Ofc", V::One, false, A::Drop, DeviceCodegen},
    {"--dopt", "-dopt", V::One, false, A::Drop, DeviceCodegen},
    {"--dlink-time-opt", "-dlto", V::None, false, A::Drop, DeviceCodegen},
    {"--lto", "-lto", V::None, false, A::Drop, DeviceCodegen},
    {"--gen-opt-lto", "-gen-opt-lto", V::None, false, A::Drop, DeviceCodegen},
    {"--ftemplate-backtrace-limit", "-ftemplate-backtrace-limit", V::One, false,
     A::Equals, "-ftemplate-backtrace-limit"},
    {"--ftemplate-depth", "-ftemplate-depth", V::One, false, A::Equals,
     "-ftemplate-depth"},
    {"--no-exceptions", "-noeh", V::None, false, A::Rename, "-fno-exceptions"},
    {"--shared", "-shared", V::None, false, A::Drop, Link},
    {"--x", "-x", V::One, false, A::Language, nullptr},
    {"--std", "-std", V::One, false, A::Equals, "-std"},
    {"--no-host-device-initializer-list", "-nohdinitlist", V::None, false,
     A::Drop, "an nvcc front-end switch clang has no counterpart for"},
    {"--no-host-device-move-forward", "-nohdmoveforward", V::None, false,
     A::Drop, "an nvcc front-end switch clang has no counterpart for"},
    {"--expt-relaxed-constexpr", "-expt-relaxed-constexpr", V::None, false,
     A::Drop,
     "clang already lets host and device code call constexpr functions of "
     "the other side"},
    {"--extended-lambda", "-extended-lambda", V::None, false, A::Drop,
     "clang accepts __device__ and __host__ __device__ lambdas unasked"},
    {"--expt-extended-lambda", "-expt-extended-lambda", V::None, false, A::Drop,
     "clang accepts __device__ and __host__ __device__ lambdas unasked"},
    {"--machine", "-m", V::One, false, A::Machine, nullptr},
    {"--m64", "-m64", V::None, false, A::Rename, "-m64"},
    {"--compiler-options", "-Xcompiler", V::One, false, A::HostOptions,
     nullptr},
    {"--linker-options", "-Xlinker", V::One, false, A::Drop, Link},
    {"--archive-options", "-Xarchive", V::One, false, A::Drop, Link},
    {"--ptxas-options", "-Xptxas", V::One, false, A::Drop, DeviceCodegen},
    {"--nvlink-options", "-Xnvlink", V::One, false, A::Drop, Link},
    {nullptr, "-Xcudafe", V::One, false, A::Drop,
     "options for nvcc's cudafe++ front-end"},
    {"--fatbin-options", "-Xfatbin", V::One, false, A::Drop, DeviceCodegen},
    {"--static-global-template-stub", "-static-global-template-stub", V::One,
     false, A::Drop, "shapes the host stubs nvcc generates"},
    {"--device-entity-has-hidden-visibility",
     "-device-entity-has-hidden-visibility", V::One, false, A::Drop,
     "shapes the host stubs nvcc generates"},
    {"--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler",
     V::None, false, A::Drop, Forwarding},
    {"--forward-unknown-to-host-linker", "-forward-unknown-to-host-linker",
     V::None, false, A::Drop, Link},
    {"--forward-unknown-opts", "-forward-unknown-opts", V::None, false, A::Drop,
     Forwarding},
    {"--dont-use-profile", "-noprof", V::None, false, A::Drop, NvccDriver},
    {"--dryrun", "-dryrun", V::None, false, A::Drop, NvccDriver},
    {"--verbose", "-v", V::None, false, A::Drop, NvccDriver},
    // Trap: clang does not know -t and would read "4" in "-t 4" as a file.
    {"--threads", "-t", V::One, true, A::Drop,
     "nvcc's build parallelism; clang would read the count as an input file"},
    {"--split-compile", "-split-compile", V::One, false, A::Drop,
     DeviceCodegen},
    {"--split-compile-extended", "-split-compile-extended", V::One, false,
     A::Drop, DeviceCodegen},
    {"--fdevice-syntax-only", "-fdevice-syntax-only", V::None, false, A::Drop,
     Output},
    {"--fdevice-time-trace", "-fdevice-time-trace", V::One, false, A::Drop,
     NvccDriver},
    {"--keep", "-keep", V::None, false, A::Drop, NvccDriver},
    {"--keep-dir", "-keep-dir", V::One, false, A::Drop, NvccDriver},
    {"--save-temps", "-save-temps", V::None, false, A::Drop, NvccDriver},
    {"--clean-targets", "-clean", V::None, false, A::Drop, NvccDriver},
    {"--time", "-time", V::One, false, A::Drop, NvccDriver},
    {"--run-args", "-run-args", V::One, false, A::Drop, NvccDriver},
    {"--input-drive-prefix", "-idp", V::One, false, A::Drop, NvccDriver},
    {"--dependency-drive-prefix", "-ddp", V::One, false, A::Drop, NvccDriver},
    {"--drive-prefix", "-dp", V::One, false, A::Drop, NvccDriver},
    {"--no-align-double", nullptr, V::None, false, A::Drop, DeviceCodegen},
    {"--no-device-link", "-nodlink", V::None, false, A::Drop, Link},
    {"--gpu-architecture", "-arch", V::One, false, A::Arch, nullptr},
    {"--gpu-code", "-code", V::List, false, A::Code, nullptr},
    {"--generate-code", "-gencode", V::One, false, A::GenerateCode, nullptr},
    {"--relocatable-device-code", "-rdc", V::One, false, A::Rdc, nullptr},
    {"--entries", "-e", V::One, false, A::Drop, DeviceCodegen},
    {"--maxrregcount", "-maxrregcount", V::One, false, A::Drop, DeviceCodegen},
    {"--use_fast_math", "-use_fast_math", V::None, false, A::FastMath, nullptr},
    {"--ftz", "-ftz", V::One, false, A::Drop, DeviceCodegen},
    {"--prec-div", "-prec-div", V::One, false, A::Drop, DeviceCodegen},
    {"--prec-sqrt", "-prec-sqrt", V::One, false, A::Drop, DeviceCodegen},
    {"--fmad", "-fmad", V::One, false, A::Drop, DeviceCodegen},
    {"--extra-device-vectorization", "-extra-device-vectorization", V::None,
     false, A::Drop, DeviceCodegen},
    {"--default-stream", "-default-stream", V::One, false, A::DefaultStream,
     nullptr},
    {"--disable-warnings", "-w", V::None, false, A::Rename, "-w"},
    {"--keep-device-functions", "-keep-device-functions", V::None, false,
     A::Drop, DeviceCodegen},
    {"--source-in-ptx", "-src-in-ptx", V::None, false, A::Drop, DeviceCodegen},
    {"--restrict", "-restrict", V::None, false, A::Drop, DeviceCodegen},
    {"--Wreorder", "-Wreorder", V::None, false, A::Rename, "-Wreorder"},
    {"--Wdefault-stream-launch", "-Wdefault-stream-launch", V::None, false,
     A::Drop, NvccDiagnostics},
    {"--Wmissing-launch-bounds", "-Wmissing-launch-bounds", V::None, false,
     A::Drop, NvccDiagnostics},
    {"--Wext-lambda-captures-this", "-Wext-lambda-captures-this", V::None,
     false, A::Drop, NvccDiagnostics},
    {"--Wno-deprecated-declarations", "-Wno-deprecated-declarations", V::None,
     false, A::Rename, "-Wno-deprecated-declarations"},
    {"--Wno-deprecated-gpu-targets", "-Wno-deprecated-gpu-targets", V::None,
     false, A::Drop, NvccDiagnostics},
    // Trap: nvcc's -Werror takes a list of nvcc warning kinds
    // ("-Werror all-warnings"); clang's -Werror takes none and would read
    // the kinds as an input file.
    {"--Werror", "-Werror", V::List, false, A::Drop,
     "nvcc's -Werror takes a list of nvcc warning kinds; clang would read "
     "the list as an input file"},
    {"--resource-usage", "-res-usage", V::None, false, A::Drop, DeviceCodegen},
    {"--extensible-whole-program", "-ewp", V::None, false, A::Drop,
     DeviceCodegen},
    {"--no-compress", "-no-compress", V::None, false, A::Drop, DeviceCodegen},
    {"--qpp-config", "-qpp-config", V::One, false, A::Drop, NvccDriver},
    {"--compile-as-tools-patch", "-astoolspatch", V::None, false, A::Drop,
     DeviceCodegen},
    {"--list-gpu-code", "-code-ls", V::None, false, A::Drop, NvccDriver},
    {"--list-gpu-arch", "-arch-ls", V::None, false, A::Drop, NvccDriver},
    {"--display-error-number", "-err-no", V::None, false, A::Drop,
     NvccDiagnostics},
    {"--no-display-error-number", "-no-err-no", V::None, false, A::Drop,
     NvccDiagnostics},
    {"--diag-error", "-diag-error", V::One, false, A::Drop, NvccDiagnostics},
    {"--diag-suppress", "-diag-suppress", V::One, false, A::Drop,
     NvccDiagnostics},
    {"--diag-warn", "-diag-warn", V::One, false, A::Drop, NvccDiagnostics},
    // The spellings of nvcc before 11.2, still in many build files.
    {"--diag_error", "-diag_error", V::One, false, A::Drop, NvccDiagnostics},
    {"--diag_suppress", "-diag_suppress", V::One, false, A::Drop,
     NvccDiagnostics},
    {"--diag_warn", "-diag_warn", V::One, false, A::Drop, NvccDiagnostics},
    {"--host-linker-script", "-hls", V::One, false, A::Drop, Link},
    {"--augment-host-linker-script", "-aug-hls", V::None, false, A::Drop, Link},
    {"--relocatable-link", "-r", V::None, false, A::Drop, Link},
    {"--brief-diagnostics", "-brief-diag", V::One, false, A::Drop,
     NvccDiagnostics},
    {"--jump-table-density", "-jtd", V::One, false, A::Drop, DeviceCodegen},
    {"--relocatable-ptx", "-reloc-ptx", V::None, false, A::Drop, DeviceCodegen},
    {"--device-stack-protector", "-device-stack-protector", V::One, false,
     A::Drop, DeviceCodegen},
    {"--compress-mode", "-compress-mode", V::One, false, A::Drop,
     DeviceCodegen},
    {"--frandom-seed", "-frandom-seed", V::One, false, A::Drop, DeviceCodegen},
    {"--sanitize", "-sanitize", V::One, false, A::Drop, DeviceCodegen},
    {"--jobserver", "-jobserver", V::None, false, A::Drop, NvccDriver},
    {"--help", "-h", V::None, false, A::Drop, NvccDriver},
    {"--version", "-V", V::None, false, A::Drop, NvccDriver},
    {"--options-file", "-optf", V::List, false, A::OptionsFile, nullptr},
};

struct OptionMatch {
  const NvccOption *Opt = nullptr;
  std::string Spelling;
  bool HasValue = false; ///< The value was part of the argument.
  std::string Value;
};

std::optional<OptionMatch> matchOption(const std::string &Arg) {
  // Whole spellings and -opt=value first, so that -lineinfo, -lib and -ldir
  // are not taken for -l with a joined value.
  for (const NvccOption &O : Options)
    for (const char *S : {O.Long, O.Short}) {
      if (!S)
        continue;
      if (Arg == S)
        return OptionMatch{&O, S, false, ""};
      size_t Len = std::strlen(S);
      if (O.Val != Value::None && Arg.size() > Len &&
          Arg.compare(0, Len, S) == 0 && Arg[Len] == '=')
        return OptionMatch{&O, S, true, Arg.substr(Len + 1)};
    }
  for (const NvccOption &O : Options) {
    if (!O.JoinedShort)
      continue;
    size_t Len = std::strlen(O.Short);
    if (Arg.size() > Len && Arg.compare(0, Len, O.Short) == 0)
      return OptionMatch{&O, O.Short, true, Arg.substr(Len)};
  }
  return std::nullopt;
}

//===-- Value syntax ------------------------------------------------------===//

/// Splits an nvcc list value at commas outside double quotes; "\," is a
/// comma. \p KeepQuotes: -D and -U keep the quotes in the value (checked:
/// nvcc -DA="1,2" defines A as the string literal "1,2").
std::vector<std::string> splitNvccList(const std::string &Value,
                                       bool KeepQuotes) {
  std::vector<std::string> Items;
  std::string Cur;
  bool InQuote = false;
  for (size_t I = 0; I < Value.size(); ++I) {
    char C = Value[I];
    if (C == '\\' && I + 1 < Value.size() && Value[I + 1] == ',') {
      Cur += ',';
      ++I;
    } else if (C == '"') {
      InQuote = !InQuote;
      if (KeepQuotes)
        Cur += C;
    } else if (C == ',' && !InQuote) {
      if (!Cur.empty())
        Items.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Items.push_back(Cur);
  return Items;
}

/// POSIX shell word splitting without expansions: what becomes of the text
/// nvcc pastes into the host compiler's command line.
std::vector<std::string> shellSplit(const std::string &Text) {
  std::vector<std::string> Words;
  std::string Cur;
  bool InWord = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\'') {
      InWord = true;
      for (++I; I < Text.size() && Text[I] != '\''; ++I)
        Cur += Text[I];
    } else if (C == '"') {
      InWord = true;
      for (++I; I < Text.size() && Text[I] != '"'; ++I) {
        if (Text[I] == '\\' && I + 1 < Text.size() &&
            std::strchr("\"\\$`", Text[I + 1]))
          ++I;
        Cur += Text[I];
      }
    } else if (C == '\\' && I + 1 < Text.size()) {
      InWord = true;
      Cur += Text[++I];
    } else if (std::isspace(static_cast<unsigned char>(C))) {
      if (InWord)
        Words.push_back(Cur);
      Cur.clear();
      InWord = false;
    } else {
      InWord = true;
      Cur += C;
    }
  }
  if (InWord)
    Words.push_back(Cur);
  return Words;
}

/// The key=value items of a -gencode value, split at commas outside
/// "quotes" and [brackets]: arch=compute_90,code=[compute_90,sm_90].
std::vector<std::pair<std::string, std::string>>
splitGenerateCode(const std::string &Value) {
  std::vector<std::pair<std::string, std::string>> Items;
  std::string Cur;
  bool InQuote = false;
  int Depth = 0;
  auto Flush = [&] {
    if (Cur.empty())
      return;
    size_t Eq = Cur.find('=');
    std::string Key = lower(Cur.substr(0, Eq));
    std::string Val = Eq == std::string::npos ? "" : Cur.substr(Eq + 1);
    Items.emplace_back(Key, Val);
    Cur.clear();
  };
  for (char C : Value) {
    if (C == '"')
      InQuote = !InQuote;
    else if (C == '[' && !InQuote)
      ++Depth;
    else if (C == ']' && !InQuote && Depth > 0)
      --Depth;
    if (C == ',' && !InQuote && Depth == 0)
      Flush();
    else if (C != '"')
      Cur += C;
  }
  Flush();
  return Items;
}

/// (number, suffix rank) of sm_90a-style names: sm_90 < sm_90f < sm_90a.
std::tuple<int, int, std::string> archOrder(const std::string &Arch) {
  size_t Digits = Arch.find_first_of("0123456789");
  if (Digits == std::string::npos)
    return {-1, 0, Arch};
  size_t End = Arch.find_first_not_of("0123456789", Digits);
  int Number = std::stoi(Arch.substr(Digits, End - Digits));
  std::string Suffix = End == std::string::npos ? "" : Arch.substr(End);
  int Rank = Suffix.empty() ? 0 : Suffix == "f" ? 1 : 2;
  return {Number, Rank, Suffix};
}

bool isNvccArchKeyword(const std::string &V) {
  return V == "native" || V == "all" || V == "all-major";
}

const char *const Launchers[] = {"ccache", "sccache", "distcc", "icecc"};

/// Index of the compiler in \p Args: 1 after a compiler launcher, else 0.
size_t compilerIndex(const std::vector<std::string> &Args) {
  if (Args.size() > 1)
    for (const char *L : Launchers)
      if (baseName(Args[0]) == L)
        return 1;
  return 0;
}

//===-- The translation ---------------------------------------------------===//

class Translator {
public:
  Translator(const std::string &Directory, const TranslationOptions &Opts,
             TranslatedCommand &Result)
      : Directory(Directory), Opts(Opts), R(Result) {}

  void translate(const std::vector<std::string> &Args);

private:
  void translateFlags(const std::vector<std::string> &Args);
  void process(const std::vector<std::string> &Tokens, size_t Begin);
  void apply(const OptionMatch &M, const std::string &Written);
  void addArch(const std::string &NvccArch, const std::string &Written);
  void readOptionsFile(const std::string &Name, const std::string &Written);
  void drop(const std::string &Written, const char *Why) {
    R.Notes.push_back("dropped '" + Written + "': " + Why);
  }
  std::string inferredCudaPath(const std::string &Nvcc);

  const std::string &Directory;
  const TranslationOptions &Opts;
  TranslatedCommand &R;

  std::vector<std::string> Body; ///< Translated flags and inputs, in order.
  std::vector<std::string> AfterDoubleDash; ///< Inputs after a `--`.
  std::string Language;          ///< clang's -x value; empty: by suffix.
  std::vector<std::string> Archs;
  bool Rdc = false;
  bool PerThreadDefaultStream = false;
  std::vector<std::string> OpenFiles; ///< Options files being read.
};

void Translator::translate(const std::vector<std::string> &Args) {
  translateFlags(Args);
  if (!AfterDoubleDash.empty()) {
    R.Arguments.emplace_back("--");
    R.Arguments.insert(R.Arguments.end(), AfterDoubleDash.begin(),
                       AfterDoubleDash.end());
  }
}

void Translator::translateFlags(const std::vector<std::string> &Args) {
  if (Args.empty()) {
    R.Errors.emplace_back("empty compile command");
    return;
  }
  size_t Compiler = compilerIndex(Args);
  process(Args, Compiler + 1);

  if (!Language.empty())
    R.IsCuda = Language == "cuda";
  else
    R.IsCuda = R.InputFiles.empty() ||
               std::any_of(R.InputFiles.begin(), R.InputFiles.end(),
                           [](const std::string &F) {
                             return F.size() > 3 &&
                                    lower(F.substr(F.size() - 3)) == ".cu";
                           });

  R.Arguments.push_back(Opts.ClangDriver);
  if (R.IsCuda) {
    R.CudaPath = !Opts.CudaPath.empty()       ? Opts.CudaPath
                 : Opts.InferCudaPathFromNvcc ? inferredCudaPath(Args[Compiler])
                                              : std::string();
    if (!R.CudaPath.empty())
      R.Arguments.push_back("--cuda-path=" + R.CudaPath);
  } else {
    R.Notes.push_back("nvcc compiles this input as host " +
                      (Language.empty() ? std::string("C++") : Language) +
                      ", not CUDA: no CUDA flags added");
  }
  if (!Language.empty()) {
    R.Arguments.emplace_back("-x");
    R.Arguments.push_back(Language);
  }
  R.Arguments.insert(R.Arguments.end(), Body.begin(), Body.end());
  if (!R.IsCuda)
    return;

  if (Archs.empty()) {
    R.Notes.push_back("no GPU architecture on the nvcc command (nvcc would "
                      "use its built-in default); using " +
                      Opts.DefaultArch);
    Archs.push_back(Opts.DefaultArch);
  }
  std::sort(Archs.begin(), Archs.end(),
            [](const std::string &L, const std::string &Rhs) {
              return archOrder(L) < archOrder(Rhs);
            });
  Archs.erase(std::unique(Archs.begin(), Archs.end()), Archs.end());
  R.GpuArchs = Archs;
  R.HighestArch = Archs.back();
  for (const std::string &Arch : Archs)
    R.Arguments.push_back("--cuda-gpu-arch=" + Arch);

  R.RelocatableDeviceCode = Rdc;
  if (Rdc)
    R.Arguments.emplace_back("-fgpu-rdc");
  if (PerThreadDefaultStream)
    R.Arguments.emplace_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM");

  if (Opts.AddCcclInclude && !R.CudaPath.empty()) {
    std::error_code EC;
    fs::path Cccl = fs::path(R.CudaPath) / "include" / "cccl";
    if (fs::is_directory(Cccl, EC)) {
      R.Arguments.emplace_back("-isystem");
      R.Arguments.push_back(Cccl.string());
    }
  }
}

std::string Translator::inferredCudaPath(const std::string &Nvcc) {
  fs::path P(Nvcc);
  if (!P.is_absolute() || baseName(Nvcc).rfind("nvcc", 0) != 0 ||
      P.parent_path().filename() != "bin")
    return "";
  std::string Root = P.parent_path().parent_path().string();
  R.Notes.push_back("using the CUDA toolkit of the command's nvcc: " + Root);
  return Root;
}

void Translator::process(const std::vector<std::string> &Tokens, size_t Begin) {
  for (size_t I = Begin; I < Tokens.size(); ++I) {
    const std::string &Arg = Tokens[I];
    if (Arg.empty())
      continue;
    if (Arg == "--") {
      // Everything after `--` is an input file (clang's interpolated
      // commands end in `-- <file>`). They stay last, after the flags the
      // translation appends, or those would be read as file names.
      for (size_t J = I + 1; J < Tokens.size(); ++J) {
        AfterDoubleDash.push_back(Tokens[J]);
        R.InputFiles.push_back(Tokens[J]);
      }
      return;
    }
    if (Arg[0] != '-' || Arg == "-") {
      Body.push_back(Arg);
      R.InputFiles.push_back(Arg);
      continue;
    }
    std::optional<OptionMatch> M = matchOption(Arg);
    if (!M) {
      // A host compiler flag nvcc forwards (CMake always passes
      // -forward-unknown-to-host-compiler): clang takes the host's place.
      Body.push_back(Arg);
      continue;
    }
    std::string Written = Arg;
    if (M->Opt->Val != Value::None && !M->HasValue) {
      if (I + 1 >= Tokens.size()) {
        R.Errors.push_back("nvcc option '" + Arg +
                           "' has no value at the end of the command");
        continue;
      }
      M->Value = Tokens[++I];
      Written += " " + M->Value;
    }
    apply(*M, Written);
  }
}

void Translator::apply(const OptionMatch &M, const std::string &Written) {
  const NvccOption &O = *M.Opt;
  std::vector<std::string> Items;
  if (O.Val == Value::List || O.Val == Value::ListQuoted)
    Items = splitNvccList(M.Value, O.Val == Value::ListQuoted);
  else if (O.Val == Value::One)
    Items.push_back(M.Value);

  switch (O.Act) {
  case Action::Drop:
    drop(Written, O.Text);
    return;
  case Action::Rename:
    Body.emplace_back(O.Text);
    return;
  case Action::Joined:
    for (const std::string &Item : Items)
      Body.push_back(O.Text + Item);
    return;
  case Action::Separate:
    for (const std::string &Item : Items) {
      Body.emplace_back(O.Text);
      Body.push_back(Item);
    }
    return;
  case Action::Equals:
    Body.push_back(std::string(O.Text) + "=" + M.Value);
    return;
  case Action::Language: {
    std::string L = lower(M.Value);
    if (L == "cu") {
      Language = "cuda";
    } else if (L == "c++" || L == "c") {
      Language = L;
    } else {
      Language = M.Value;
      R.Notes.push_back("unknown nvcc language in '" + Written +
                        "': passed to clang as written");
    }
    return;
  }
  case Action::Arch:
    addArch(M.Value, Written);
    return;
  case Action::Code:
    // nvcc runs its device front-end once per virtual architecture (-arch,
    // arch=); -code only names the binaries embedded from that compilation.
    // Checked: -arch=compute_86 -code=compute_86,sm_90 compiles with
    // __CUDA_ARCH__ == 860 only.
    R.Notes.push_back("'" + Written +
                      "' not translated: it names the binaries nvcc embeds; "
                      "__CUDA_ARCH__ comes from -arch");
    return;
  case Action::GenerateCode: {
    bool SawArch = false;
    for (const auto &[Key, Val] : splitGenerateCode(M.Value))
      if (Key == "arch") {
        SawArch = true;
        addArch(Val, Written);
      }
    if (!SawArch)
      R.Notes.push_back("'" + Written +
                        "' names no arch=: no architecture taken from it");
    return;
  }
  case Action::Rdc: {
    std::string B = lower(M.Value);
    if (B == "true")
      Rdc = true;
    else if (B == "false")
      Rdc = false;
    else
      R.Notes.push_back("ignored '" + Written + "': expected true or false");
    return;
  }
  case Action::DeviceC:
    // -dc is --relocatable-device-code=true --compile.
    Body.emplace_back("-c");
    Rdc = true;
    return;
  case Action::DeviceW:
    Body.emplace_back("-c");
    Rdc = false;
    return;
  case Action::HostOptions: {
    // nvcc splits the list at commas (quotes protect them), then pastes the
    // pieces, blank-separated, into the host compiler's shell command line:
    // "-Xcompiler -Wl,-rpath,x" gives gcc "-Wl -rpath x", and
    // -Xcompiler '-DA="x y"' gives gcc -DA=x y as one argument.
    std::string Joined;
    for (const std::string &Item : splitNvccList(M.Value, true))
      Joined += (Joined.empty() ? "" : " ") + Item;
    for (std::string &Word : shellSplit(Joined))
      Body.push_back(std::move(Word));
    return;
  }
  case Action::OptionsFile:
    for (const std::string &Item : Items)
      readOptionsFile(Item, Written);
    return;
  case Action::DefaultStream: {
    // clang 22 ignores -fgpu-default-stream= for CUDA (it reports it as an
    // unused argument); what nvcc does for per-thread is define
    // CUDA_API_PER_THREAD_DEFAULT_STREAM for the host and the device
    // preprocessing, and the runtime headers key off that macro.
    std::string S = lower(M.Value);
    if (S == "per-thread") {
      PerThreadDefaultStream = true;
      R.Notes.push_back("'" + Written +
                        "' -> -DCUDA_API_PER_THREAD_DEFAULT_STREAM, the macro "
                        "nvcc defines for it");
    } else if (S == "legacy" || S == "null") {
      PerThreadDefaultStream = false;
    } else {
      R.Notes.push_back("ignored '" + Written + "': unknown stream kind");
    }
    return;
  }
  case Action::FastMath:
    // Not -ffast-math: nvcc's switch is device-only, while clang's
    // -ffast-math also changes the host side (and makes clang warn about
    // every INFINITY and isnan). The device half that changes what a parse
    // sees is the choice of approximate math functions in clang's CUDA
    // headers.
    Body.emplace_back("-fgpu-approx-transcendentals");
    R.Notes.push_back("'" + Written +
                      "' -> -fgpu-approx-transcendentals (device-only, as in "
                      "nvcc; -ffast-math would also change the host side)");
    return;
  case Action::Machine:
    if (M.Value == "64" || M.Value == "32")
      Body.push_back("-m" + M.Value);
    else
      drop(Written, "unknown machine width");
    return;
  }
}

void Translator::addArch(const std::string &NvccArch,
                         const std::string &Written) {
  std::string V = lower(NvccArch);
  V.erase(
      std::remove_if(V.begin(), V.end(),
                     [](char C) { return C == '"' || C == '[' || C == ']'; }),
      V.end());
  if (isNvccArchKeyword(V)) {
    R.Notes.push_back("'" + Written + "' -> " + Opts.DefaultArch +
                      " (nvcc picks the architectures itself for '" + V + "')");
    Archs.push_back(Opts.DefaultArch);
    return;
  }
  std::string Arch = clangGpuArchFromNvcc(V);
  if (Arch.empty()) {
    R.Notes.push_back("ignored '" + Written + "': '" + NvccArch +
                      "' is no GPU architecture");
    return;
  }
  if (V.back() == 'f')
    R.Notes.push_back("'" + Written + "': clang has no family-specific " + V +
                      "; using " + Arch);
  Archs.push_back(Arch);
}

void Translator::readOptionsFile(const std::string &Name,
                                 const std::string &Written) {
  fs::path Path(Name);
  if (Path.is_relative() && !Directory.empty())
    Path = fs::path(Directory) / Path;
  std::string Shown = Path.lexically_normal().string();
  if (std::find(OpenFiles.begin(), OpenFiles.end(), Shown) != OpenFiles.end()) {
    R.Errors.push_back("nvcc options file '" + Shown + "' includes itself");
    return;
  }
  std::ifstream In(Path, std::ios::binary);
  std::error_code EC;
  if (!In || fs::is_directory(Path, EC)) {
    R.Errors.push_back("cannot read nvcc options file '" + Shown + "' (from '" +
                       Written + "')");
    return;
  }
  std::stringstream Text;
  Text << In.rdbuf();
  OpenFiles.push_back(Shown);
  process(tokenizeNvccOptionsFile(Text.str()), 0);
  OpenFiles.pop_back();
}

// Flags only nvcc takes: any of them marks a command as nvcc's even when
// argv[0] is a wrapper script.
// clang-format off
const char *const NvccOnlyFlags[] = {
    "--generate-code", "-gencode", "--gpu-architecture", "--gpu-code",
    "--relocatable-device-code", "-rdc", "-Xcompiler", "--compiler-options",
    "--options-file", "-optf", "-forward-unknown-to-host-compiler",
    "--forward-unknown-to-host-compiler", "--extended-lambda",
    "-extended-lambda", "--expt-extended-lambda", "-expt-extended-lambda",
    "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "-ccbin",
    "--compiler-bindir", "-Xptxas", "--ptxas-options", "-Xcudafe", "-Xnvlink",
    "-dc", "--device-c", "-lineinfo", "--generate-line-info", "-use_fast_math",
    "--use_fast_math", "-maxrregcount", "--maxrregcount", "--default-stream",
    "-default-stream"};
// clang-format on

} // namespace

std::string clangGpuArchFromNvcc(const std::string &NvccArch) {
  std::string V = lower(NvccArch);
  for (const char *Prefix : {"sm_", "compute_", "lto_"}) {
    if (!startsWith(V, Prefix))
      continue;
    std::string Rest = V.substr(std::strlen(Prefix));
    size_t Digits = Rest.find_first_not_of("0123456789");
    std::string Number = Rest.substr(0, Digits);
    std::string Suffix = Digits == std::string::npos ? "" : Rest.substr(Digits);
    if (Number.empty() || (!Suffix.empty() && Suffix != "a" && Suffix != "f"))
      return "";
    // sm_100f (family-specific) has no clang spelling; the family's
    // features are a subset of sm_100a's and a superset of sm_100's.
    return "sm_" + Number + (Suffix == "a" ? "a" : "");
  }
  return "";
}

std::vector<std::string> tokenizeNvccOptionsFile(const std::string &Text) {
  std::vector<std::string> Tokens;
  std::string Cur;
  bool InToken = false;
  bool InQuote = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size()) {
      Cur += Text[++I];
      InToken = true;
    } else if (C == '"') {
      InQuote = !InQuote;
      InToken = true;
    } else if (!InQuote && std::isspace(static_cast<unsigned char>(C))) {
      if (InToken)
        Tokens.push_back(Cur);
      Cur.clear();
      InToken = false;
    } else {
      Cur += C;
      InToken = true;
    }
  }
  if (InToken)
    Tokens.push_back(Cur);
  return Tokens;
}

bool isNvccCommand(const std::vector<std::string> &Args) {
  if (Args.empty())
    return false;
  size_t Compiler = compilerIndex(Args);
  std::string Name = baseName(Args[Compiler]);
  if (Name == "nvcc" || Name == "nvcc.exe")
    return true;
  for (size_t I = Compiler + 1; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    std::string Key = Arg.substr(0, Arg.find('='));
    for (const char *Flag : NvccOnlyFlags)
      if (Key == Flag)
        return true;
    std::string Next = I + 1 < Args.size() ? Args[I + 1] : "";
    if (Arg == "-x" && Next == "cu")
      return true;
    // clang has a Darwin -arch too; only nvcc's values count.
    if (Key == "-arch") {
      std::string Val =
          Key.size() < Arg.size() ? Arg.substr(Key.size() + 1) : Next;
      if (!clangGpuArchFromNvcc(Val).empty() || isNvccArchKeyword(Val))
        return true;
    }
  }
  return false;
}

TranslatedCommand translateNvccCommand(const std::vector<std::string> &Args,
                                       const std::string &Directory,
                                       const TranslationOptions &Opts) {
  TranslatedCommand Result;
  Translator(Directory, Opts, Result).translate(Args);
  return Result;
}

std::vector<std::string>
restrictToGpuArch(const std::vector<std::string> &Arguments,
                  const std::string &Arch) {
  const std::string Flag = "--cuda-gpu-arch=";
  std::vector<std::string> Out;
  bool Placed = false;
  for (const std::string &Arg : Arguments) {
    if (!startsWith(Arg, Flag)) {
      Out.push_back(Arg);
    } else if (!Placed) {
      Out.push_back(Flag + Arch);
      Placed = true;
    }
  }
  if (!Placed)
    Out.insert(std::find(Out.begin(), Out.end(), "--"), Flag + Arch);
  return Out;
}

} // namespace clang::tidy::cuda::compdb
