//===--- LaunchIndex.cpp - per-TU records for cross-TU launch checks ------===//

#include "checks/analysis/launch/LaunchIndex.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
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

bool fromJSON(const json::Value &V, TranslationUnitRecord &R, json::Path P) {
  json::ObjectMapper O(V, P);
  int Version = 0;
  if (!O || !O.map("version", Version))
    return false;
  if (Version != 1) {
    P.field("version").report("unsupported record version");
    return false;
  }
  return O.map("main", R.MainFile) && O.map("kernels", R.Kernels) &&
         O.map("launches", R.Launches);
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
    OS << json::Value(toJSON(Record));
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
    llvm::Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
    if (!Parsed)
      return llvm::createStringError(
          "'" + Path + "': " + llvm::toString(Parsed.takeError()));
    TranslationUnitRecord Record;
    json::Path::Root Root;
    if (!fromJSON(*Parsed, Record, Root))
      return llvm::createStringError("'" + Path +
                                     "': " + llvm::toString(Root.getError()));
    Records.push_back(std::move(Record));
  }
  if (EC)
    return llvm::createStringError(EC, "cannot list '" + Dir +
                                           "': " + EC.message());
  orderRecords(Records);
  return Records;
}

void orderRecords(std::vector<TranslationUnitRecord> &Records) {
  std::vector<std::pair<std::string, TranslationUnitRecord>> Keyed;
  Keyed.reserve(Records.size());
  for (TranslationUnitRecord &Record : Records) {
    std::string Text;
    llvm::raw_string_ostream(Text) << json::Value(toJSON(Record));
    Keyed.emplace_back(std::move(Text), std::move(Record));
  }
  llvm::sort(Keyed, [](const auto &A, const auto &B) {
    return std::tie(A.second.MainFile, A.first) <
           std::tie(B.second.MainFile, B.first);
  });
  Records.clear();
  for (auto &Entry : Keyed)
    Records.push_back(std::move(Entry.second));
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
