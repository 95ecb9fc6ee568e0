//===--- LaunchIndex.cpp - per-TU records for cross-TU launch checks ------===//

#include "checks/analysis/launch/LaunchIndex.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <type_traits>
#include <mutex>

namespace clang::tidy::cuda::analysis {

namespace json = llvm::json;

namespace {

/// \p Dir made absolute, without `.` and `..`, without a trailing slash.
std::string cleanPath(llvm::StringRef Dir) {
  llvm::SmallString<256> Path(Dir);
  (void)llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

std::mutex TrustedMutex;
llvm::StringSet<> &trusted() {
  static llvm::StringSet<> Folders;
  return Folders;
}

} // namespace

void trustIndexFolder(llvm::StringRef Dir) {
  std::scoped_lock Lock(TrustedMutex);
  trusted().insert(cleanPath(Dir));
}

void forgetIndexFolder(llvm::StringRef Dir) {
  std::scoped_lock Lock(TrustedMutex);
  trusted().erase(cleanPath(Dir));
}

bool isTrustedIndexFolder(llvm::StringRef Dir) {
  if (Dir.empty())
    return false;
  const std::string Clean = cleanPath(Dir);
  {
    std::scoped_lock Lock(TrustedMutex);
    if (trusted().contains(Clean))
      return true;
  }
  const char *Named = std::getenv(IndexDirEnvironmentVariable.str().c_str());
  if (!Named || !*Named)
    return false;
  const std::string User = cleanPath(Named);
  if (User == Clean)
    return true;
  // The same folder under another spelling (a symlink on the way).
  llvm::SmallString<256> RealUser;
  llvm::SmallString<256> RealDir;
  return !llvm::sys::fs::real_path(User, RealUser) &&
         !llvm::sys::fs::real_path(Clean, RealDir) && RealUser == RealDir;
}

static json::Value toJSON(const IndexLocation &L) {
  return json::Object{{"file", L.File},
                      {"offset", L.Offset},
                      {"line", L.Line},
                      {"column", L.Column}};
}

static bool fromJSON(const json::Value &V, IndexLocation &L, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("file", L.File) && O.map("offset", L.Offset) &&
         O.map("line", L.Line) && O.map("column", L.Column);
}

static json::Value toJSON(const IndexNote &N) {
  return json::Object{{"at", toJSON(N.Where)}, {"message", N.Message}};
}

static bool fromJSON(const json::Value &V, IndexNote &N, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("at", N.Where) && O.map("message", N.Message);
}

template <typename T> static json::Array toArray(const std::vector<T> &Items) {
  json::Array A;
  for (const T &Item : Items)
    A.push_back(toJSON(Item));
  return A;
}

static json::Value toJSON(const IndexedKernel &K) {
  return json::Object{{"mangled", K.MangledName},
                      {"sync", K.SyncSpelling},
                      {"chain", toArray(K.Chain)}};
}

static bool fromJSON(const json::Value &V, IndexedKernel &K, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("mangled", K.MangledName) &&
         O.map("sync", K.SyncSpelling) && O.map("chain", K.Chain);
}

static json::Value toJSON(const IndexedLaunch &L) {
  return json::Object{{"mangled", L.MangledName},
                      {"kernel", L.KernelName},
                      {"form", L.Form},
                      {"at", toJSON(L.Where)},
                      {"notes", toArray(L.Notes)}};
}

static bool fromJSON(const json::Value &V, IndexedLaunch &L, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("mangled", L.MangledName) &&
         O.map("kernel", L.KernelName) && O.map("form", L.Form) &&
         O.map("at", L.Where) && O.map("notes", L.Notes);
}

json::Value toJSON(const TranslationUnitRecord &R) {
  return json::Object{{"version", 1},
                      {"main", R.MainFile},
                      {"kernels", toArray(R.Kernels)},
                      {"launches", toArray(R.Launches)}};
}

/// A kernel is named once per record: the join reads the first entry of a
/// name, so later ones (a hostile or corrupted record can repeat one a
/// million times) are dropped as they are read rather than kept.
static void keepFirstOfEachKernel(std::vector<IndexedKernel> &Kernels) {
  llvm::StringSet<> Seen;
  llvm::erase_if(Kernels, [&](const IndexedKernel &K) {
    return !Seen.insert(K.MangledName).second;
  });
}

bool fromJSON(const json::Value &V, TranslationUnitRecord &R, json::Path P) {
  json::ObjectMapper O(V, P);
  int Version = 0;
  if (!O || !O.map("version", Version))
    return false;
  if (Version != 1) {
    P.field("version").report("unsupported record version");
    return false;
  }
  if (!O.map("main", R.MainFile) || !O.map("kernels", R.Kernels) ||
      !O.map("launches", R.Launches))
    return false;
  keepFirstOfEachKernel(R.Kernels);
  return true;
}

static void writeJSON(json::OStream &OS, const IndexLocation &L) {
  // Keys in the order json::Value prints an object's: sorted.
  OS.object([&] {
    OS.attribute("column", L.Column);
    OS.attribute("file", L.File);
    OS.attribute("line", L.Line);
    OS.attribute("offset", L.Offset);
  });
}

static void writeJSON(json::OStream &OS, const IndexNote &N) {
  OS.object([&] {
    OS.attributeBegin("at");
    writeJSON(OS, N.Where);
    OS.attributeEnd();
    OS.attribute("message", N.Message);
  });
}

template <typename T>
static void writeArray(json::OStream &OS, llvm::StringRef Key,
                       const std::vector<T> &Items) {
  OS.attributeArray(Key, [&] {
    for (const T &Item : Items)
      writeJSON(OS, Item);
  });
}

static void writeJSON(json::OStream &OS, const IndexedKernel &K) {
  OS.object([&] {
    writeArray(OS, "chain", K.Chain);
    OS.attribute("mangled", K.MangledName);
    OS.attribute("sync", K.SyncSpelling);
  });
}

static void writeJSON(json::OStream &OS, const IndexedLaunch &L) {
  OS.object([&] {
    OS.attributeBegin("at");
    writeJSON(OS, L.Where);
    OS.attributeEnd();
    OS.attribute("form", L.Form);
    OS.attribute("kernel", L.KernelName);
    OS.attribute("mangled", L.MangledName);
    writeArray(OS, "notes", L.Notes);
  });
}

void writeJSON(json::OStream &OS, const TranslationUnitRecord &R) {
  OS.object([&] {
    writeArray(OS, "kernels", R.Kernels);
    writeArray(OS, "launches", R.Launches);
    OS.attribute("main", R.MainFile);
    OS.attribute("version", 1);
  });
}


namespace {

const char *skipString(const char *P, const char *E) {
  ++P;
  while (P != E && *P != '"')
    P += *P == '\\' ? 2 : 1;
  return P == E ? E : P + 1;
}

/// Past the value that starts at \p P, in valid text (no recursion).
const char *skipValue(const char *P, const char *E) {
  if (P == E)
    return E;
  if (*P == '"')
    return skipString(P, E);
  if (*P != '{' && *P != '[') {
    while (P != E && !isJsonSpace(*P) && *P != ',' && *P != ']' && *P != '}')
      ++P;
    return P;
  }
  size_t Depth = 0;
  while (P != E) {
    switch (*P) {
    case '"':
      P = skipString(P, E);
      continue;
    case '{':
    case '[':
      ++Depth;
      break;
    case '}':
    case ']':
      if (--Depth == 0)
        return P + 1;
      break;
    default:
      break;
    }
    ++P;
  }
  return E;
}

const char *skipSpace(const char *P, const char *E) {
  while (P != E && isJsonSpace(*P))
    ++P;
  return P;
}

/// \p Value, a span of valid text, without the whitespace around it.
llvm::StringRef trimmed(llvm::StringRef Value) {
  return Value.trim(" \t\n\r");
}

} // namespace

void forEachMember(
    llvm::StringRef Object,
    llvm::function_ref<void(llvm::StringRef Key, llvm::StringRef Value)>
        Member) {
  Object = trimmed(Object);
  const char *E = Object.end();
  const char *P = Object.begin();
  if (P == E || *P != '{')
    return;
  P = skipSpace(P + 1, E);
  std::string Decoded;
  while (P != E && *P == '"') {
    const char *KeyEnd = skipString(P, E);
    llvm::StringRef Key(P + 1, KeyEnd - P - 2);
    if (Key.contains('\\')) {
      // Rare: llvm::json decodes the escapes of a key like a string's.
      llvm::Expected<json::Value> Parsed =
          json::parse(llvm::StringRef(P, KeyEnd - P));
      if (!Parsed) {
        llvm::consumeError(Parsed.takeError());
        return;
      }
      Decoded = Parsed->getAsString().value_or("").str();
      Key = Decoded;
    }
    P = skipSpace(KeyEnd, E);
    if (P == E || *P != ':')
      return;
    P = skipSpace(P + 1, E);
    const char *ValueEnd = skipValue(P, E);
    Member(Key, llvm::StringRef(P, ValueEnd - P));
    P = skipSpace(ValueEnd, E);
    if (P == E || *P != ',')
      return;
    P = skipSpace(P + 1, E);
  }
}

void forEachElement(llvm::StringRef Array,
                    llvm::function_ref<bool(llvm::StringRef Value)> Element) {
  Array = trimmed(Array);
  const char *E = Array.end();
  const char *P = Array.begin();
  if (P == E || *P != '[')
    return;
  P = skipSpace(P + 1, E);
  while (P != E && *P != ']') {
    const char *ValueEnd = skipValue(P, E);
    if (!Element(llvm::StringRef(P, ValueEnd - P)))
      return;
    P = skipSpace(ValueEnd, E);
    if (P == E || *P != ',')
      return;
    P = skipSpace(P + 1, E);
  }
}

namespace {

/// json::ObjectMapper over the text of an object: the last value of each
/// key it maps, read in place.
class TextMapper {
public:
  TextMapper(llvm::StringRef Value, json::Path P,
             std::initializer_list<llvm::StringRef> Keys)
      : P(P), Keys(Keys.begin(), Keys.end()), Values(Keys.size()) {
    Value = trimmed(Value);
    IsObject = Value.starts_with("{");
    if (!IsObject) {
      P.report("expected object");
      return;
    }
    forEachMember(Value, [&](llvm::StringRef Key, llvm::StringRef Member) {
      for (size_t I = 0; I < this->Keys.size(); ++I)
        if (this->Keys[I] == Key)
          Values[I] = Member; // the last one counts, as in llvm::json
    });
  }

  explicit operator bool() const { return IsObject; }

  template <typename T> bool map(llvm::StringLiteral Key, T &Out);

private:
  json::Path P;
  /// The keys (string literals) and the text of the last value of each
  /// (empty: none).
  llvm::SmallVector<llvm::StringRef, 5> Keys;
  llvm::SmallVector<llvm::StringRef, 5> Values;
  bool IsObject = false;
};

bool fromText(llvm::StringRef Value, IndexLocation &L, json::Path P);
bool fromText(llvm::StringRef Value, IndexNote &N, json::Path P);
bool fromText(llvm::StringRef Value, IndexedKernel &K, json::Path P);
bool fromText(llvm::StringRef Value, IndexedLaunch &L, json::Path P);
template <typename T>
bool fromText(llvm::StringRef Value, std::vector<T> &Out, json::Path P);

bool fromText(llvm::StringRef Value, std::string &Out, json::Path P) {
  Value = trimmed(Value);
  // A string without escapes is its own value (the text is valid UTF-8).
  if (Value.size() >= 2 && Value.front() == '"' &&
      !Value.drop_front().drop_back().contains('\\')) {
    Out = Value.drop_front().drop_back().str();
    return true;
  }
  if (Value.starts_with("{") || Value.starts_with("[")) {
    P.report("expected string");
    return false;
  }
  llvm::Expected<json::Value> Parsed = json::parse(Value);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    P.report("expected string");
    return false;
  }
  return json::fromJSON(*Parsed, Out, P);
}

template <typename T>
std::enable_if_t<std::is_integral_v<T>, bool>
fromText(llvm::StringRef Value, T &Out, json::Path P) {
  Value = trimmed(Value);
  const bool Scalar = !Value.starts_with("{") && !Value.starts_with("[") &&
                      !Value.starts_with("\"");
  llvm::Expected<json::Value> Parsed =
      Scalar ? json::parse(Value) : json::Value(nullptr);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    Parsed = json::Value(nullptr);
  }
  // A container or a string is no integer whatever it holds: the message
  // llvm::json gives for it.
  return json::fromJSON(*Parsed, Out, P);
}

bool fromText(llvm::StringRef Value, IndexLocation &L, json::Path P) {
  TextMapper O(Value, P, {"file", "offset", "line", "column"});
  return O && O.map("file", L.File) && O.map("offset", L.Offset) &&
         O.map("line", L.Line) && O.map("column", L.Column);
}

bool fromText(llvm::StringRef Value, IndexNote &N, json::Path P) {
  TextMapper O(Value, P, {"at", "message"});
  return O && O.map("at", N.Where) && O.map("message", N.Message);
}

template <typename T>
bool fromText(llvm::StringRef Value, std::vector<T> &Out, json::Path P) {
  Value = trimmed(Value);
  if (!Value.starts_with("[")) {
    P.report("expected array");
    return false;
  }
  Out.clear();
  bool Ok = true;
  size_t Index = 0;
  forEachElement(Value, [&](llvm::StringRef Element) {
    Out.emplace_back();
    Ok = fromText(Element, Out.back(), P.index(Index++));
    return Ok;
  });
  return Ok;
}

bool fromText(llvm::StringRef Value, IndexedKernel &K, json::Path P) {
  TextMapper O(Value, P, {"mangled", "sync", "chain"});
  return O && O.map("mangled", K.MangledName) &&
         O.map("sync", K.SyncSpelling) && O.map("chain", K.Chain);
}

bool fromText(llvm::StringRef Value, IndexedLaunch &L, json::Path P) {
  TextMapper O(Value, P, {"mangled", "kernel", "form", "at", "notes"});
  return O && O.map("mangled", L.MangledName) &&
         O.map("kernel", L.KernelName) && O.map("form", L.Form) &&
         O.map("at", L.Where) && O.map("notes", L.Notes);
}

template <typename T> bool TextMapper::map(llvm::StringLiteral Key, T &Out) {
  for (size_t I = 0; I < Keys.size(); ++I) {
    if (Keys[I] != Key)
      continue;
    if (Values[I].empty()) { // a value's text is never empty
      P.field(Key).report("missing value");
      return false;
    }
    return fromText(Values[I], Out, P.field(Key));
  }
  llvm_unreachable("a key the mapper was not given");
}

} // namespace

bool fromJSONText(llvm::StringRef Value, TranslationUnitRecord &R,
                  json::Path P) {
  TextMapper O(Value, P, {"version", "main", "kernels", "launches"});
  int Version = 0;
  if (!O || !O.map("version", Version))
    return false;
  if (Version != 1) {
    P.field("version").report("unsupported record version");
    return false;
  }
  if (!O.map("main", R.MainFile) || !O.map("kernels", R.Kernels) ||
      !O.map("launches", R.Launches))
    return false;
  keepFirstOfEachKernel(R.Kernels);
  return true;
}

/// Line and column (from 1) of \p Offset in \p Text.
static std::string lineAndColumn(llvm::StringRef Text, size_t Offset) {
  llvm::StringRef Before = Text.take_front(Offset);
  const size_t LineStart = Before.rfind('\n');
  const size_t Column =
      LineStart == llvm::StringRef::npos ? Offset + 1 : Offset - LineStart;
  return "line " + std::to_string(Before.count('\n') + 1) + ", column " +
         std::to_string(Column);
}

llvm::Error checkStrictJson(llvm::StringRef Text) {
  size_t ErrorOffset = 0;
  if (isStrictJson(Text, &ErrorOffset))
    return llvm::Error::success();
  return llvm::createStringError("not JSON (invalid at " +
                                 lineAndColumn(Text, ErrorOffset) + ")");
}

llvm::Expected<TranslationUnitRecord> parseRecord(llvm::StringRef Text) {
  if (llvm::Error E = checkStrictJson(Text))
    return std::move(E);
  TranslationUnitRecord Record;
  json::Path::Root Root;
  if (!fromJSONText(Text, Record, Root))
    return llvm::createStringError(llvm::toString(Root.getError()));
  return Record;
}

llvm::Error untrustedFolderError(llvm::StringRef Dir) {
  return llvm::createStringError(
      std::make_error_code(std::errc::permission_denied),
      "'" + Dir +
          "' is neither the folder cuda-tidy made for this run nor the one " +
          IndexDirEnvironmentVariable + " names; it is not read or written");
}

llvm::Error writeRecord(llvm::StringRef Dir,
                        const TranslationUnitRecord &Record) {
  if (!isTrustedIndexFolder(Dir))
    return untrustedFolderError(Dir);
  // The folder is made by the first record: a run with nothing to record
  // leaves nothing behind, even when it is killed.
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create '" + Dir +
                                           "': " + EC.message());
  llvm::SmallString<256> Model(Dir);
  llvm::sys::path::append(Model, "tu-%%%%%%%%%%%%%%%%.json.tmp");
  int FD = -1;
  llvm::SmallString<256> Temporary;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(Model, FD, Temporary))
    return llvm::createStringError(EC, "cannot create a record in '" + Dir +
                                           "': " + EC.message());
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    {
      json::OStream JOS(OS);
      writeJSON(JOS, Record);
    }
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      (void)llvm::sys::fs::remove(Temporary);
      return llvm::createStringError(EC, "cannot write '" + Temporary +
                                             "': " + EC.message());
    }
  }
  llvm::StringRef Final = llvm::StringRef(Temporary).drop_back(4); // ".tmp"
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Final)) {
    (void)llvm::sys::fs::remove(Temporary);
    return llvm::createStringError(EC, "cannot rename '" + Temporary +
                                           "': " + EC.message());
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<TranslationUnitRecord>>
readRecords(llvm::StringRef Dir) {
  if (!isTrustedIndexFolder(Dir))
    return untrustedFolderError(Dir);
  std::vector<TranslationUnitRecord> Records;
  if (!llvm::sys::fs::exists(Dir))
    return std::vector<TranslationUnitRecord>(); // nothing was recorded
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC)) {
    llvm::StringRef Path = It->path();
    if (!Path.ends_with(".json") ||
        !llvm::sys::path::filename(Path).starts_with("tu-"))
      continue; // a temporary file, or not ours
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(),
                                     "cannot read '" + Path + "'");
    llvm::Expected<TranslationUnitRecord> Record =
        parseRecord((*Buffer)->getBuffer());
    if (!Record)
      return llvm::createStringError("'" + Path +
                                     "': " + llvm::toString(Record.takeError()));
    Records.push_back(std::move(*Record));
  }
  if (EC)
    return llvm::createStringError(EC, "cannot list '" + Dir +
                                           "': " + EC.message());
  orderRecords(Records);
  return Records;
}

void orderRecords(std::vector<TranslationUnitRecord> &Records) {
  // By main file; records of one main file by their JSON text, written
  // only for those (without a tree: issue 38 G10).
  llvm::sort(Records, [](const TranslationUnitRecord &A,
                         const TranslationUnitRecord &B) {
    return A.MainFile < B.MainFile;
  });
  for (auto First = Records.begin(); First != Records.end();) {
    auto Last = std::find_if(First, Records.end(),
                             [&](const TranslationUnitRecord &R) {
                               return R.MainFile != First->MainFile;
                             });
    if (Last - First > 1) {
      std::vector<std::pair<std::string, TranslationUnitRecord>> Keyed;
      for (auto It = First; It != Last; ++It) {
        std::string Text;
        {
          llvm::raw_string_ostream OS(Text);
          json::OStream JOS(OS);
          writeJSON(JOS, *It);
        }
        Keyed.emplace_back(std::move(Text), std::move(*It));
      }
      llvm::sort(Keyed, [](const auto &A, const auto &B) {
        return A.first < B.first;
      });
      for (auto &Entry : Keyed)
        *First++ = std::move(Entry.second);
    }
    First = Last;
  }
}

std::string needsCooperativeLaunchMessage(llvm::StringRef KernelName,
                                          llvm::StringRef SyncSpelling,
                                          llvm::StringRef Form) {
  return ("kernel '" + KernelName + "' synchronizes the whole grid (" +
          SyncSpelling + ") but is launched with " + Form +
          ", which is not a cooperative launch; the grid sync fails at run "
          "time: launch it with cudaLaunchCooperativeKernel, or "
          "cudaLaunchKernelEx with cudaLaunchAttributeCooperative set")
      .str();
}

} // namespace clang::tidy::cuda::analysis
