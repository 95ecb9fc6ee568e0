//===--- CacheStore.cpp - cuda-tidy's on-disk cache folder ----------------===//

#include "tool/driver/cache/CacheStore.h"
#include "tool/driver/support/MemoryBudget.h"
#include "tool/driver/support/PrivateFolder.h"

#include "clang/Basic/Version.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <random>

#ifdef __linux__
#include <elf.h>
#include <link.h>
#endif
#ifdef LLVM_ON_UNIX
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/file.h>
#include <unistd.h>
#endif

#ifndef CUDA_TIDY_VERSION
#define CUDA_TIDY_VERSION "unknown"
#endif

namespace clang::tidy::cuda::driver {

std::string toHex(const Digest &D) {
  return llvm::toHex(llvm::ArrayRef<uint8_t>(D.data(), D.size()),
                     /*LowerCase=*/true);
}

llvm::Expected<uint64_t> parseByteSize(llvm::StringRef Text) {
  llvm::StringRef Rest = Text.trim();
  auto Invalid = [&](const llvm::Twine &Why) {
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "'" + Text + "' is not a size (" + Why +
            "; for example 400M, 2GiB or 1048576)");
  };
  size_t Digits = 0;
  while (Digits < Rest.size() && llvm::isDigit(Rest[Digits]))
    ++Digits;
  if (Digits == 0)
    return Invalid("it starts with no number");
  uint64_t Number = 0;
  if (Rest.take_front(Digits).getAsInteger(10, Number))
    return Invalid("the number is too large");
  llvm::StringRef Suffix = Rest.drop_front(Digits).trim();
  unsigned Shift = 0;
  if (!Suffix.empty()) {
    switch (llvm::toLower(Suffix.front())) {
    case 'k':
      Shift = 10;
      break;
    case 'm':
      Shift = 20;
      break;
    case 'g':
      Shift = 30;
      break;
    case 't':
      Shift = 40;
      break;
    case 'b':
      break;
    default:
      return Invalid("unknown unit '" + Suffix + "'");
    }
    llvm::StringRef Unit = Shift ? Suffix.drop_front() : Suffix;
    if (!(Unit.empty() || Unit.equals_insensitive("b") ||
          (Shift && Unit.equals_insensitive("ib"))))
      return Invalid("unknown unit '" + Suffix + "'");
  }
  if (Shift && Number > (UINT64_MAX >> Shift))
    return Invalid("the size is too large");
  return Number << Shift;
}

std::string formatByteSize(uint64_t Bytes) {
  static const char *const Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  unsigned Unit = 0;
  auto Value = static_cast<double>(Bytes);
  while (Value >= 1024 && Unit + 1 < std::size(Units)) {
    Value /= 1024;
    ++Unit;
  }
  if (Unit == 0)
    return std::to_string(Bytes) + " B";
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), Value < 10 ? "%.1f %s" : "%.0f %s",
                Value, Units[Unit]);
  return Buffer;
}

Digest digestOf(llvm::StringRef Bytes) {
  llvm::BLAKE3 Hasher;
  Hasher.update(Bytes);
  return Hasher.final();
}

KeyBuilder &KeyBuilder::add(llvm::StringRef Part) {
  add(static_cast<uint64_t>(Part.size()));
  Hasher.update(Part);
  return *this;
}

KeyBuilder &KeyBuilder::add(uint64_t N) {
  uint8_t Bytes[8];
  for (unsigned I = 0; I < 8; ++I)
    Bytes[I] = static_cast<uint8_t>(N >> (8 * I));
  Hasher.update(llvm::ArrayRef<uint8_t>(Bytes));
  return *this;
}

Digest KeyBuilder::final() { return Hasher.final(); }

namespace {

#ifdef __linux__
/// The GNU build ID of the running executable: the linker's digest of the
/// whole output file, so any change to the program changes it. Read from
/// the program headers in memory, where the loader mapped them.
std::optional<std::string> ownBuildId() {
  std::string Id;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Out) -> int {
        // The first object listed is the executable itself.
        for (ElfW(Half) I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &Segment = Info->dlpi_phdr[I];
          if (Segment.p_type != PT_NOTE)
            continue;
          const uint64_t Align = Segment.p_align == 8 ? 8 : 4;
          auto Padded = [Align](uint64_t N) {
            return (N + Align - 1) / Align * Align;
          };
          const ElfW(Addr) Start = Info->dlpi_addr + Segment.p_vaddr;
          // The loader gives addresses as integers.
          // NOLINTNEXTLINE(performance-no-int-to-ptr)
          const char *At = reinterpret_cast<const char *>(Start);
          const char *End = At + Segment.p_memsz;
          while (End - At >= static_cast<ptrdiff_t>(sizeof(ElfW(Nhdr)))) {
            const auto *Note = reinterpret_cast<const ElfW(Nhdr) *>(At);
            const char *Name = At + sizeof(ElfW(Nhdr));
            const char *Desc = Name + Padded(Note->n_namesz);
            if (Desc > End || Note->n_descsz > static_cast<size_t>(End - Desc))
              break;
            if (Note->n_type == NT_GNU_BUILD_ID && Note->n_namesz == 4 &&
                std::memcmp(Name, "GNU", 4) == 0 && Note->n_descsz >= 8) {
              static_cast<std::string *>(Out)->assign(Desc, Note->n_descsz);
              return 1;
            }
            At = Desc + Padded(Note->n_descsz);
          }
        }
        return 1;
      },
      &Id);
  if (Id.empty())
    return std::nullopt;
  return Id;
}
#else
std::optional<std::string> ownBuildId() { return std::nullopt; }
#endif

} // namespace

llvm::StringRef toolVersionKey() {
  static const std::string Key = [] {
    std::string K = "cuda-tidy " CUDA_TIDY_VERSION "; ";
    K += clang::getClangFullVersion();
    // The build ID costs nothing to read; hashing the executable (130 MB
    // when clang is linked in statically) cost 20 to 30 ms a run.
    if (std::optional<std::string> Id = ownBuildId()) {
      K += "; build-id ";
      K += llvm::toHex(*Id, /*LowerCase=*/true);
      return K;
    }
    static int Anchor;
    std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
    auto Buffer = llvm::MemoryBuffer::getFile(Exe, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    K += "; exe ";
    // Without a readable executable every run gets a key of its own: the
    // cache is then useless but never wrong.
    K += Buffer ? toHex(digestOf((*Buffer)->getBuffer()))
                : "unreadable-" +
                      std::to_string(llvm::sys::Process::getProcessId()) + "-" +
                      std::to_string(std::chrono::steady_clock::now()
                                         .time_since_epoch()
                                         .count());
    return K;
  }();
  return Key;
}

std::optional<Digest> ContentHasher::hashFile(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status) ||
      !llvm::sys::fs::is_regular_file(Status))
    return std::nullopt;
  const uint64_t Size = Status.getSize();
  const int64_t MTime = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            Status.getLastModificationTime().time_since_epoch())
                            .count();
  const uint64_t Inode = Status.getUniqueID().getFile();
  {
    // Not stopped over --file-memory-limit while holding the lock.
    const MemoryStopDeferred Deferred;
    std::scoped_lock Lock(Mutex);
    auto It = Files.find(Path);
    if (It != Files.end() && It->second.Size == Size &&
        It->second.MTime == MTime && It->second.Inode == Inode)
      return It->second.Hash;
  }
  // Read, not mapped: a header truncated meanwhile would end the process
  // with SIGBUS (issue 38 G4). (LLVM maps a volatile file too unless a null
  // terminator is asked for.)
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/true,
                                            /*IsVolatile=*/true);
  if (!Buffer)
    return std::nullopt;
  Known K;
  K.Size = Size;
  K.MTime = MTime;
  K.Inode = Inode;
  K.Hash = digestOf((*Buffer)->getBuffer());
  // A file rewritten while it was read is hashed as read; its new
  // modification time makes the next lookup hash it again.
  if ((*Buffer)->getBufferSize() != Size)
    K.Size = (*Buffer)->getBufferSize();
  // Not stopped over --file-memory-limit while holding the lock.
  const MemoryStopDeferred Deferred;
  std::scoped_lock Lock(Mutex);
  Files[Path] = K;
  return K.Hash;
}

bool dependenciesUnchanged(llvm::ArrayRef<FileDigest> Files,
                           ContentHasher &Hasher) {
  for (const FileDigest &File : Files) {
    std::optional<Digest> Now = Hasher.hashFile(File.Path);
    if (!Now || *Now != File.Hash)
      return false;
  }
  return true;
}

Digest sameFileDigest(llvm::ArrayRef<FileDigest> Files,
                      llvm::ArrayRef<std::string> Found) {
  std::vector<llvm::StringRef> Paths;
  Paths.reserve(Files.size() + Found.size());
  for (const FileDigest &File : Files)
    Paths.emplace_back(File.Path);
  llvm::append_range(Paths, Found);
  llvm::sort(Paths);
  Paths.erase(std::unique(Paths.begin(), Paths.end()), Paths.end());
  KeyBuilder Key;
  Key.add("cuda-tidy same files 1").add(static_cast<uint64_t>(Paths.size()));
  std::map<llvm::sys::fs::UniqueID, uint64_t> First;
  for (size_t I = 0; I < Paths.size(); ++I) {
    llvm::sys::fs::file_status Status;
    // (Through symlinks, as clang's file manager opens them.) A path that
    // names nothing now differs from the entry anyway (its digest or its
    // lookup fails); it groups with no other.
    if (llvm::sys::fs::status(Paths[I], Status)) {
      Key.add(~static_cast<uint64_t>(0));
      continue;
    }
    Key.add(First.try_emplace(Status.getUniqueID(), I).first->second);
  }
  return Key.final();
}

//===----------------------------------------------------------------------===//
// Lookups that found nothing
//===----------------------------------------------------------------------===//

namespace {
/// Errors that mean "nothing there" (as opposed to a file that exists but
/// cannot be read, which fails the compile and is never cached).
bool isAbsence(std::error_code EC) {
  return EC == std::errc::no_such_file_or_directory ||
         EC == std::errc::not_a_directory;
}
} // namespace

void LookupRecorder::note(const llvm::Twine &Path, bool WasFound) {
  llvm::SmallString<256> Absolute;
  Path.toVector(Absolute);
  if (Absolute.empty())
    return;
  if (!llvm::sys::path::is_absolute(Absolute)) {
    llvm::ErrorOr<std::string> Cwd = getCurrentWorkingDirectory();
    if (!Cwd)
      return; // cannot be checked later; nothing relative is recorded
    llvm::sys::path::make_absolute(*Cwd, Absolute);
  }
  llvm::StringRef Name = llvm::sys::path::filename(Absolute);
  // The preamble's synthetic main file and the in-memory PCH are never on
  // disk: they are not lookups of the user's.
  if (Name.starts_with(".cuda-tidy-preamble-") ||
      Absolute.str().starts_with("/__cuda_tidy__"))
    return;
  // Not stopped over --file-memory-limit while holding the lock.
  const MemoryStopDeferred Deferred;
  std::scoped_lock Lock(Mutex);
  (WasFound ? Found : Missing).insert(Absolute);
}

llvm::ErrorOr<llvm::vfs::Status>
LookupRecorder::status(const llvm::Twine &Path) {
  llvm::ErrorOr<llvm::vfs::Status> Result = ProxyFileSystem::status(Path);
  if (Result)
    note(Path, /*WasFound=*/true);
  else if (isAbsence(Result.getError()))
    note(Path, /*WasFound=*/false);
  else
    noteUnreadable();
  return Result;
}

bool LookupRecorder::exists(const llvm::Twine &Path) {
  // Through status(), which records the answer.
  return static_cast<bool>(status(Path));
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
LookupRecorder::openFileForRead(const llvm::Twine &Path) {
  auto Result = ProxyFileSystem::openFileForRead(Path);
  if (Result)
    note(Path, /*WasFound=*/true);
  else if (isAbsence(Result.getError()))
    note(Path, /*WasFound=*/false);
  else
    noteUnreadable();
  return Result;
}

void LookupRecorder::noteUnreadable() {
  // Not stopped over --file-memory-limit while holding the lock.
  const MemoryStopDeferred Deferred;
  std::scoped_lock Lock(Mutex);
  Unreadable = true;
}

bool LookupRecorder::sawUnreadable() {
  // Not stopped over --file-memory-limit while holding the lock.
  const MemoryStopDeferred Deferred;
  std::scoped_lock Lock(Mutex);
  return Unreadable;
}

void LookupRecorder::clear() {
  // Not stopped over --file-memory-limit while holding the lock.
  const MemoryStopDeferred Deferred;
  std::scoped_lock Lock(Mutex);
  Missing.clear();
  Found.clear();
  Unreadable = false;
}

std::vector<std::string> LookupRecorder::missing() {
  std::vector<std::string> Paths;
  {
    // Not stopped over --file-memory-limit while holding the lock.
    const MemoryStopDeferred Deferred;
    std::scoped_lock Lock(Mutex);
    for (const auto &Entry : Missing)
      Paths.push_back(Entry.getKey().str());
  }
  llvm::sort(Paths);
  return Paths;
}

std::vector<std::string>
LookupRecorder::found(llvm::ArrayRef<FileDigest> Known) {
  llvm::StringSet<> Checked;
  for (const FileDigest &D : Known)
    Checked.insert(D.Path);
  std::vector<std::string> Paths;
  {
    // Not stopped over --file-memory-limit while holding the lock.
    const MemoryStopDeferred Deferred;
    std::scoped_lock Lock(Mutex);
    for (const auto &Entry : Found) {
      llvm::SmallString<256> Clean(Entry.getKey());
      llvm::sys::path::remove_dots(Clean, /*remove_dot_dot=*/false);
      if (!Checked.contains(Entry.getKey()) && !Checked.contains(Clean))
        Paths.push_back(Entry.getKey().str());
    }
  }
  llvm::sort(Paths);
  return Paths;
}

bool lookupsUnchanged(llvm::ArrayRef<std::string> Missing,
                      llvm::ArrayRef<std::string> Found) {
  llvm::sys::fs::file_status Status;
  for (const std::string &Path : Missing)
    if (!llvm::sys::fs::status(Path, Status))
      return false; // something is there now
  for (const std::string &Path : Found)
    if (llvm::sys::fs::status(Path, Status))
      return false; // gone
  return true;
}

void mergePaths(std::vector<std::string> &Into,
                llvm::ArrayRef<std::string> More) {
  Into.insert(Into.end(), More.begin(), More.end());
  llvm::sort(Into);
  Into.erase(std::unique(Into.begin(), Into.end()), Into.end());
}

//===----------------------------------------------------------------------===//
// Entry format
//===----------------------------------------------------------------------===//

namespace {

constexpr char Magic[8] = {'C', 'U', 'T', 'I', 'D', 'Y', 'C', 'E'};
constexpr uint32_t FormatVersion = 1;
// magic(8) version(4) kind(4) key(32) payload size(8) payload digest(32),
// padded so that the payload is 64-byte aligned.
constexpr size_t HeaderSize = 128;

void putU32(char *At, uint32_t V) {
  for (unsigned I = 0; I < 4; ++I)
    At[I] = static_cast<char>(V >> (8 * I));
}
void putU64(char *At, uint64_t V) {
  for (unsigned I = 0; I < 8; ++I)
    At[I] = static_cast<char>(V >> (8 * I));
}
uint32_t getU32(const char *At) {
  uint32_t V = 0;
  for (unsigned I = 0; I < 4; ++I)
    V |= static_cast<uint32_t>(static_cast<uint8_t>(At[I])) << (8 * I);
  return V;
}
uint64_t getU64(const char *At) {
  uint64_t V = 0;
  for (unsigned I = 0; I < 8; ++I)
    V |= static_cast<uint64_t>(static_cast<uint8_t>(At[I])) << (8 * I);
  return V;
}

llvm::StringRef kindName(EntryKind Kind) {
  switch (Kind) {
  case EntryKind::Preamble:
    return "preamble";
  case EntryKind::Result:
    return "result";
  case EntryKind::Sighting:
    return "sighting";
  }
  return "result";
}

} // namespace

std::string CacheStore::entryName(EntryKind Kind, const Digest &Key) {
  return (kindName(Kind) + "-" + toHex(Key)).str();
}

std::string defaultCacheDirectory() {
  llvm::SmallString<256> Dir;
  if (std::optional<std::string> Xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      Xdg && llvm::sys::path::is_absolute(*Xdg)) {
    Dir = *Xdg;
  } else if (std::optional<std::string> Home =
                 llvm::sys::Process::GetEnv("HOME");
             Home && llvm::sys::path::is_absolute(*Home)) {
    Dir = *Home;
    llvm::sys::path::append(Dir, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(Dir, "cuda-tidy");
  return std::string(Dir);
}

bool CacheStore::isEntryName(llvm::StringRef Name) {
  auto HexTail = [](llvm::StringRef S) {
    return !S.empty() && llvm::all_of(S, llvm::isHexDigit);
  };
  if (Name.consume_front("preamble-") || Name.consume_front("result-") ||
      Name.consume_front("sighting-"))
    return HexTail(Name);
  // tmp-<pid>-<serial>-<random hex>.part (write()).
  if (!Name.consume_front("tmp-") || !Name.consume_back(".part"))
    return false;
  auto [Pid, Rest] = Name.split('-');
  auto [Serial, Random] = Rest.split('-');
  return !Pid.empty() && llvm::all_of(Pid, llvm::isDigit) && !Serial.empty() &&
         llvm::all_of(Serial, llvm::isDigit) && HexTail(Random);
}

#ifdef LLVM_ON_UNIX

/// The cache-directory tagging convention (https://bford.info/cachedir/):
/// a file CACHEDIR.TAG that starts with this signature marks a cache folder;
/// backup tools skip it, and cuda-tidy uses (and prunes) only such a folder.
static constexpr const char TagName[] = "CACHEDIR.TAG";
static constexpr llvm::StringLiteral TagSignature =
    "Signature: 8a477f597d28d172789f06886806bc55";

/// A fresh name for a temporary file in the folder, of the form
/// isEntryName() accepts (so that one left by a killed process is pruned):
/// tmp-<pid>-<serial>-<random hex>.part.
static std::string temporaryName() {
  static std::atomic<unsigned> Serial{0};
  std::random_device Random;
  return "tmp-" + std::to_string(llvm::sys::Process::getProcessId()) + "-" +
         std::to_string(Serial++) + "-" + llvm::utohexstr(Random()) + ".part";
}

enum class TagState { Missing, Ours, Foreign };

/// Whether the folder open at \p DirFD has our CACHEDIR.TAG.
static TagState readTag(int DirFD) {
  int TagFD = ::openat(DirFD, TagName,
                       O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (TagFD < 0)
    return errno == ENOENT ? TagState::Missing : TagState::Foreign;
  char Head[64] = {};
  struct stat St;
  ssize_t Got = -1;
  if (::fstat(TagFD, &St) == 0 && S_ISREG(St.st_mode))
    Got = ::read(TagFD, Head, TagSignature.size());
  ::close(TagFD);
  return Got == static_cast<ssize_t>(TagSignature.size()) &&
                 llvm::StringRef(Head, Got) == TagSignature
             ? TagState::Ours
             : TagState::Foreign;
}

/// Makes sure the folder open at \p DirFD is ours: tagged, or empty (then it
/// is tagged now), or holding nothing but cuda-tidy's own entries (a folder
/// from before the tag; tagged now). Any other folder (`.`, $HOME, /etc) is
/// refused: pruning it would delete files that are not ours (issue 16 F4).
///
/// Several cuda-tidy processes may claim one new folder at once (-j jobs of
/// a build, CI jobs sharing a cache). The tag is therefore written to a
/// temporary file and linked into place whole: no process ever reads a
/// half-written tag, and a tag that appears while the folder is listed is
/// read again instead of being taken for a foreign file (the cause of the
/// 1-in-400 "racing" failure of the cache-identity test: the second process
/// listed the folder just after the first had tagged it, and refused it for
/// holding CACHEDIR.TAG).
static llvm::Error claimFolder(int DirFD, llvm::StringRef Dir) {
  auto ForeignTag = [&] {
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "'" + Dir + "' has a " + llvm::StringRef(TagName) +
            " that is not a cache tag");
  };
  // Each round ends with our tag in place, or finds a tag another process
  // linked in meanwhile (read in the next round); three are plenty.
  for (int Round = 0; Round < 3; ++Round) {
    switch (readTag(DirFD)) {
    case TagState::Ours:
      return llvm::Error::success();
    case TagState::Foreign:
      return ForeignTag();
    case TagState::Missing:
      break;
    }
    int ListFD = ::dup(DirFD);
    DIR *D = ListFD >= 0 ? ::fdopendir(ListFD) : nullptr;
    if (!D) {
      if (ListFD >= 0)
        ::close(ListFD);
      return llvm::createStringError(
          std::error_code(errno, std::generic_category()),
          "cannot list '" + Dir + "'");
    }
    ::rewinddir(D);
    std::string Foreign;
    bool TagAppeared = false;
    while (struct dirent *E = ::readdir(D)) {
      llvm::StringRef Name(E->d_name);
      if (Name == "." || Name == ".." || CacheStore::isEntryName(Name) ||
          Name == CacheStore::UsageFileName)
        continue;
      if (Name == TagName) { // linked in by another cuda-tidy just now
        TagAppeared = true;
        continue;
      }
      Foreign = Name.str();
      break;
    }
    ::closedir(D);
    if (!Foreign.empty())
      return llvm::createStringError(
          std::make_error_code(std::errc::directory_not_empty),
          "'" + Dir + "' is not a cache folder of cuda-tidy's (it holds '" +
              Foreign + "' and no " + llvm::StringRef(TagName) +
              "); name a new or empty folder");
    if (TagAppeared)
      continue;
    const std::string Temporary = temporaryName();
    int TagFD = ::openat(DirFD, Temporary.c_str(),
                         O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                         0600);
    if (TagFD < 0)
      return llvm::createStringError(
          std::error_code(errno, std::generic_category()),
          "cannot tag '" + Dir + "': " + std::strerror(errno));
    const std::string Text =
        (TagSignature +
         "\n# This file is a cache directory tag created by "
         "cuda-tidy.\n# For information about cache directory "
         "tags, see:\n#\thttps://bford.info/cachedir/\n")
            .str();
    const bool Written = ::write(TagFD, Text.data(), Text.size()) ==
                         static_cast<ssize_t>(Text.size());
    const bool Closed = ::close(TagFD) == 0;
    if (!Written || !Closed) {
      ::unlinkat(DirFD, Temporary.c_str(), 0);
      return llvm::createStringError(
          std::make_error_code(std::errc::io_error),
          "cannot tag '" + Dir + "'");
    }
    // link() never replaces a file: a tag another process put there first
    // stays, and is read in the next round.
    int Linked = ::linkat(DirFD, Temporary.c_str(), DirFD, TagName, 0);
    int LinkErrno = errno;
    if (Linked != 0 && LinkErrno != EEXIST) {
      // A file system without hard links: rename, which is atomic too (it
      // could replace a tag that appeared in this instant, with the same
      // text).
      Linked = ::renameat(DirFD, Temporary.c_str(), DirFD, TagName);
      LinkErrno = errno;
    }
    ::unlinkat(DirFD, Temporary.c_str(), 0);
    if (Linked == 0)
      return llvm::Error::success();
    if (LinkErrno != EEXIST)
      return llvm::createStringError(
          std::error_code(LinkErrno, std::generic_category()),
          "cannot tag '" + Dir + "': " + std::strerror(LinkErrno));
  }
  // Still no tag of ours after three rounds: something else keeps changing
  // the folder.
  return readTag(DirFD) == TagState::Ours ? llvm::Error::success()
                                          : ForeignTag();
}

llvm::Expected<std::unique_ptr<CacheStore>>
CacheStore::open(llvm::StringRef DirArg) {
  llvm::Expected<std::string> Made = makePrivateFolder(DirArg);
  if (!Made)
    return Made.takeError();
  const std::string &Dir = *Made;
  int FD = ::open(Dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (FD < 0)
    return llvm::createStringError(
        std::error_code(errno, std::generic_category()),
        "cannot open '" + Dir + "': " + std::strerror(errno));
  struct stat St;
  if (::fstat(FD, &St) != 0 || !S_ISDIR(St.st_mode)) {
    ::close(FD);
    return llvm::createStringError(
        std::make_error_code(std::errc::not_a_directory),
        "'" + Dir + "' is not a directory");
  }
  if (St.st_uid != ::geteuid()) {
    ::close(FD);
    return llvm::createStringError(
        std::make_error_code(std::errc::permission_denied),
        "'" + Dir + "' belongs to another user");
  }
  if (St.st_mode & (S_IWGRP | S_IWOTH)) {
    ::close(FD);
    return llvm::createStringError(
        std::make_error_code(std::errc::permission_denied),
        "'" + Dir + "' is writable by other users (chmod 700 it)");
  }
  if (llvm::Error E = claimFolder(FD, Dir)) {
    ::close(FD);
    return std::move(E);
  }
  return std::unique_ptr<CacheStore>(new CacheStore(std::string(Dir), FD));
}

CacheStore::~CacheStore() {
  if (DirFD >= 0)
    ::close(DirFD);
}

void CacheStore::discard(const std::string &Name) {
  ++Counters.CorruptEntries;
  ::unlinkat(DirFD, Name.c_str(), 0);
}

std::optional<CacheStore::Entry> CacheStore::read(EntryKind Kind,
                                                  const Digest &Key) {
  const std::string Name = entryName(Kind, Key);
  // O_NONBLOCK: a FIFO planted under an entry's name would block the open
  // until someone writes it (the run hung: issue 16 F12); it is opened at
  // once, found not to be a regular file, and dropped.
  int FD = ::openat(DirFD, Name.c_str(),
                    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0) {
    // ELOOP: a symlink sits where an entry should be; it is not ours.
    if (errno == ELOOP)
      discard(Name);
    return std::nullopt;
  }
  struct stat St;
  if (::fstat(FD, &St) != 0 || !S_ISREG(St.st_mode) ||
      St.st_uid != ::geteuid() ||
      static_cast<size_t>(St.st_size) < HeaderSize) {
    ::close(FD);
    discard(Name);
    return std::nullopt;
  }
  auto Buffer = llvm::MemoryBuffer::getOpenFile(
      llvm::sys::fs::convertFDToNativeFile(FD), Name, St.st_size,
      /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    ::close(FD);
    return std::nullopt;
  }
  llvm::StringRef Bytes = (*Buffer)->getBuffer();
  const char *H = Bytes.data();
  bool Valid =
      std::memcmp(H, Magic, sizeof(Magic)) == 0 &&
      getU32(H + 8) == FormatVersion &&
      getU32(H + 12) == static_cast<uint32_t>(Kind) &&
      std::memcmp(H + 16, Key.data(), Key.size()) == 0 &&
      getU64(H + 48) == Bytes.size() - HeaderSize &&
      std::all_of(H + 88, H + HeaderSize, [](char C) { return C == 0; });
  llvm::StringRef Payload = Bytes.drop_front(HeaderSize);
  if (Valid) {
    Digest Stored;
    std::memcpy(Stored.data(), H + 56, Stored.size());
    Valid = digestOf(Payload) == Stored;
  }
  if (!Valid) {
    ::close(FD);
    discard(Name);
    return std::nullopt;
  }
  // Recently used entries survive pruning.
  ::futimens(FD, nullptr);
  ::close(FD);
  noteUse(Kind, Key);
  return Entry{std::move(*Buffer), Payload};
}

bool CacheStore::write(EntryKind Kind, const Digest &Key,
                       llvm::ArrayRef<llvm::StringRef> Parts) {
  char Header[HeaderSize] = {};
  std::memcpy(Header, Magic, sizeof(Magic));
  putU32(Header + 8, FormatVersion);
  putU32(Header + 12, static_cast<uint32_t>(Kind));
  std::memcpy(Header + 16, Key.data(), Key.size());
  uint64_t Size = 0;
  llvm::BLAKE3 Hasher;
  for (llvm::StringRef Part : Parts) {
    Size += Part.size();
    Hasher.update(Part);
  }
  putU64(Header + 48, Size);
  Digest PayloadDigest = Hasher.final();
  std::memcpy(Header + 56, PayloadDigest.data(), PayloadDigest.size());

  const std::string Temporary = temporaryName();
  int FD = ::openat(DirFD, Temporary.c_str(),
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (FD < 0) {
    ++Counters.WriteFailures;
    return false;
  }
  auto WriteAll = [&](llvm::StringRef Bytes) {
    while (!Bytes.empty()) {
      ssize_t N = ::write(FD, Bytes.data(), Bytes.size());
      if (N < 0) {
        if (errno == EINTR)
          continue;
        return false;
      }
      Bytes = Bytes.drop_front(N);
    }
    return true;
  };
  bool Ok = WriteAll(llvm::StringRef(Header, HeaderSize));
  for (llvm::StringRef Part : Parts)
    Ok = Ok && WriteAll(Part);
  Ok = (::close(FD) == 0) && Ok;
  const std::string Name = entryName(Kind, Key);
  if (!Ok || ::renameat(DirFD, Temporary.c_str(), DirFD, Name.c_str()) != 0) {
    ::unlinkat(DirFD, Temporary.c_str(), 0);
    ++Counters.WriteFailures;
    return false;
  }
  ++Counters.Writes;
  noteUse(Kind, Key);
  uint64_t Written = HeaderSize;
  for (llvm::StringRef Part : Parts)
    Written += Part.size();
  if (!ScannedSize.exchange(true)) {
    uint64_t Total = 0;
    (void)scan(Total, /*TakeRunUses=*/false);
    ApproximateBytes = Total;
  } else {
    ApproximateBytes += Written;
  }
  if (MaxBytes && ApproximateBytes > MaxBytes)
    prune(MaxBytes);
  return true;
}

bool CacheStore::contains(EntryKind Kind, const Digest &Key) const {
  struct stat St;
  return ::fstatat(DirFD, entryName(Kind, Key).c_str(), &St,
                   AT_SYMLINK_NOFOLLOW) == 0 &&
         S_ISREG(St.st_mode);
}

unsigned CacheStore::sight(const Digest &Key) {
  unsigned Before = 0;
  if (std::optional<Entry> Seen = read(EntryKind::Sighting, Key)) {
    PayloadReader In(Seen->Payload);
    uint32_t N = 0;
    if (In.u32(N) && In.atEnd())
      Before = N;
  }
  PayloadWriter Out;
  Out.u32(Before == UINT32_MAX ? Before : Before + 1);
  write(EntryKind::Sighting, Key, {Out.bytes()});
  return Before;
}

void CacheStore::noteUse(EntryKind Kind, const Digest &Key) {
  std::string Name = entryName(Kind, Key);
  std::scoped_lock Lock(UsesMutex);
  ++UsesThisRun[Name];
}

/// The usage file holds one line per entry, "<name>\t<uses>", under a
/// header line; it is read as untrusted input: a line that is not of that
/// form is skipped, a file that is not a regular file of the user's or is
/// larger than any real one (16 MiB, some 200 000 entries) is ignored.
static constexpr llvm::StringLiteral UsageHeader = "cuda-tidy entry uses 1";
/// UsageFileName as a C string, for the *at() calls.
static const char *usageFilePath() {
  static const std::string Name = CacheStore::UsageFileName.str();
  return Name.c_str();
}

llvm::StringMap<uint64_t> CacheStore::readUsageFile() const {
  llvm::StringMap<uint64_t> Uses;
  int FD = ::openat(DirFD, usageFilePath(),
                    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0)
    return Uses;
  struct stat St;
  if (::fstat(FD, &St) != 0 || !S_ISREG(St.st_mode) ||
      St.st_uid != ::geteuid() || St.st_size > (16 << 20)) {
    ::close(FD);
    return Uses;
  }
  auto Buffer = llvm::MemoryBuffer::getOpenFile(
      llvm::sys::fs::convertFDToNativeFile(FD), UsageFileName, St.st_size,
      /*RequiresNullTerminator=*/false);
  ::close(FD);
  if (!Buffer)
    return Uses;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty() || Lines.front() != UsageHeader)
    return Uses;
  for (llvm::StringRef Line : llvm::ArrayRef(Lines).drop_front()) {
    auto [Name, Count] = Line.split('\t');
    uint64_t N = 0;
    if (isEntryName(Name) && !Name.starts_with("tmp-") &&
        !Count.getAsInteger(10, N))
      Uses[Name] = N;
  }
  return Uses;
}

void CacheStore::writeUsageFile(llvm::ArrayRef<ListedEntry> Entries) const {
  std::string Text = (UsageHeader + "\n").str();
  for (const ListedEntry &E : Entries)
    if (E.Uses)
      Text += E.Name + "\t" + std::to_string(E.Uses) + "\n";
  const std::string Temporary = temporaryName();
  int FD = ::openat(DirFD, Temporary.c_str(),
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (FD < 0)
    return;
  const bool Written = ::write(FD, Text.data(), Text.size()) ==
                       static_cast<ssize_t>(Text.size());
  if (::close(FD) != 0 || !Written ||
      ::renameat(DirFD, Temporary.c_str(), DirFD, usageFilePath()) != 0)
    ::unlinkat(DirFD, Temporary.c_str(), 0);
}

std::vector<CacheStore::ListedEntry> CacheStore::scan(uint64_t &Total,
                                                      bool TakeRunUses) {
  Total = 0;
  std::vector<ListedEntry> Entries;
  int ListFD = ::dup(DirFD);
  if (ListFD < 0)
    return Entries;
  DIR *D = ::fdopendir(ListFD);
  if (!D) {
    ::close(ListFD);
    return Entries;
  }
  ::rewinddir(D);
  llvm::StringMap<uint64_t> Uses = readUsageFile();
  {
    std::scoped_lock Lock(UsesMutex);
    for (const auto &[Name, N] : UsesThisRun)
      Uses[Name] += N;
    // Merged into the usage file by the caller: not counted twice.
    if (TakeRunUses)
      UsesThisRun.clear();
  }
  const int64_t Now = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  while (struct dirent *E = ::readdir(D)) {
    llvm::StringRef Name(E->d_name);
    // Only names cuda-tidy writes, exactly: a user's "tmp-notes" or
    // "result-2024.txt" is never touched.
    if (!isEntryName(Name))
      continue;
    const bool IsTemporary = Name.starts_with("tmp-");
    struct stat St;
    if (::fstatat(DirFD, E->d_name, &St, AT_SYMLINK_NOFOLLOW) != 0)
      continue;
    if (IsTemporary) {
      // A writer that died mid-entry; a live one finishes in seconds.
      if (S_ISREG(St.st_mode) && Now - St.st_mtime > 3600)
        ::unlinkat(DirFD, E->d_name, 0);
      continue;
    }
    if (!S_ISREG(St.st_mode))
      continue;
    ListedEntry Item;
    Item.Name = Name.str();
    Item.Kind = Name.starts_with("preamble-")   ? EntryKind::Preamble
                : Name.starts_with("sighting-") ? EntryKind::Sighting
                                                : EntryKind::Result;
    Item.Size = static_cast<uint64_t>(St.st_size);
    auto It = Uses.find(Name);
    Item.Uses = It == Uses.end() ? 0 : It->second;
    Item.LastUsed = St.st_mtime;
    Item.Stale = Now - St.st_mtime > StaleAfterSeconds;
    Total += Item.Size;
    Entries.push_back(std::move(Item));
  }
  ::closedir(D);
  llvm::sort(Entries, [](const ListedEntry &A, const ListedEntry &B) {
    // Stale first, oldest first among them; then fewest uses, least
    // recently used, and the name, so that the order is total.
    if (A.Stale != B.Stale)
      return A.Stale;
    if (A.Stale)
      return std::tie(A.LastUsed, A.Name) < std::tie(B.LastUsed, B.Name);
    return std::tie(A.Uses, A.LastUsed, A.Name) <
           std::tie(B.Uses, B.LastUsed, B.Name);
  });
  return Entries;
}

/// flock() on the folder's descriptor, released on scope exit. Where the
/// file system has no locks the prune runs unlocked: the worst case is two
/// runs evicting at once, and every reader copes with a missing entry.
namespace {
class FolderLock {
public:
  explicit FolderLock(int FD) : FD(FD) { Held = ::flock(FD, LOCK_EX) == 0; }
  ~FolderLock() {
    if (Held)
      ::flock(FD, LOCK_UN);
  }
  FolderLock(const FolderLock &) = delete;
  FolderLock &operator=(const FolderLock &) = delete;

private:
  int FD;
  bool Held = false;
};
} // namespace

void CacheStore::pruneLocked(uint64_t Budget) {
  uint64_t Total = 0;
  std::vector<ListedEntry> Entries = scan(Total, /*TakeRunUses=*/true);
  if (Budget && Total > Budget) {
    // Down to three quarters, so that the next write does not prune again.
    const uint64_t Target = Budget / 4 * 3;
    std::vector<ListedEntry> Kept;
    for (ListedEntry &E : Entries) {
      if (Total > Target && ::unlinkat(DirFD, E.Name.c_str(), 0) == 0) {
        Total -= E.Size;
        continue;
      }
      Kept.push_back(std::move(E));
    }
    Entries = std::move(Kept);
  }
  writeUsageFile(Entries);
  ApproximateBytes = Total;
}

void CacheStore::prune(uint64_t Budget) {
  std::scoped_lock Lock(PruneMutex);
  FolderLock Folder(DirFD);
  pruneLocked(Budget);
}

void CacheStore::finish() { prune(MaxBytes); }

std::vector<CacheStore::ListedEntry> CacheStore::listing() {
  uint64_t Total = 0;
  return scan(Total, /*TakeRunUses=*/false);
}

#else // !LLVM_ON_UNIX

llvm::Expected<std::unique_ptr<CacheStore>>
CacheStore::open(llvm::StringRef Dir) {
  return llvm::createStringError(std::make_error_code(std::errc::not_supported),
                                 "the cache needs a POSIX system");
}
CacheStore::~CacheStore() = default;
void CacheStore::discard(const std::string &) {}
std::optional<CacheStore::Entry> CacheStore::read(EntryKind, const Digest &) {
  return std::nullopt;
}
bool CacheStore::write(EntryKind, const Digest &,
                       llvm::ArrayRef<llvm::StringRef>) {
  return false;
}
bool CacheStore::contains(EntryKind, const Digest &) const { return false; }
unsigned CacheStore::sight(const Digest &) { return 0; }
void CacheStore::noteUse(EntryKind, const Digest &) {}
void CacheStore::prune(uint64_t) {}
void CacheStore::finish() {}
std::vector<CacheStore::ListedEntry> CacheStore::listing() { return {}; }

#endif

//===----------------------------------------------------------------------===//
// Payload encoding
//===----------------------------------------------------------------------===//

void PayloadWriter::u32(uint32_t V) {
  char B[4];
  putU32(B, V);
  Out.append(B, 4);
}
void PayloadWriter::u64(uint64_t V) {
  char B[8];
  putU64(B, V);
  Out.append(B, 8);
}
void PayloadWriter::str(llvm::StringRef S) {
  u32(static_cast<uint32_t>(S.size()));
  Out.append(S.data(), S.size());
}
void PayloadWriter::digest(const Digest &D) {
  Out.append(reinterpret_cast<const char *>(D.data()), D.size());
}

void PayloadWriter::paths(llvm::ArrayRef<std::string> Paths) {
  std::vector<llvm::StringRef> Folders;
  std::vector<llvm::StringRef> Names;
  for (llvm::StringRef P : Paths) {
    Folders.push_back(llvm::sys::path::parent_path(P));
    Names.push_back(llvm::sys::path::filename(P));
  }
  auto Table = [](std::vector<llvm::StringRef> &T) {
    llvm::sort(T);
    T.erase(std::unique(T.begin(), T.end()), T.end());
  };
  Table(Folders);
  Table(Names);
  auto IndexOf = [](const std::vector<llvm::StringRef> &T, llvm::StringRef S) {
    return static_cast<uint32_t>(llvm::lower_bound(T, S) - T.begin());
  };
  u32(Folders.size());
  for (llvm::StringRef F : Folders)
    str(F);
  u32(Names.size());
  for (llvm::StringRef N : Names)
    str(N);
  u32(Paths.size());
  for (llvm::StringRef P : Paths) {
    u32(IndexOf(Folders, llvm::sys::path::parent_path(P)));
    u32(IndexOf(Names, llvm::sys::path::filename(P)));
  }
}

bool PayloadReader::paths(std::vector<std::string> &Paths) {
  uint32_t NF = 0;
  uint32_t NN = 0;
  uint32_t NP = 0;
  std::vector<std::string> Folders;
  std::vector<std::string> Names;
  if (!count(NF, 4))
    return false;
  Folders.resize(NF);
  for (std::string &F : Folders)
    if (!str(F))
      return false;
  if (!count(NN, 4))
    return false;
  Names.resize(NN);
  for (std::string &N : Names)
    if (!str(N))
      return false;
  if (!count(NP, 8))
    return false;
  Paths.clear();
  Paths.reserve(NP);
  for (uint32_t I = 0; I < NP; ++I) {
    uint32_t F = 0;
    uint32_t N = 0;
    if (!u32(F) || !u32(N) || F >= NF || N >= NN)
      return false;
    llvm::SmallString<256> Path(Folders[F]);
    llvm::sys::path::append(Path, Names[N]);
    // Only absolute paths are recorded; anything else is damage.
    if (!llvm::sys::path::is_absolute(Path))
      return false;
    Paths.push_back(std::string(Path));
  }
  return true;
}

bool PayloadReader::u8(uint8_t &V) {
  if (In.empty())
    return false;
  V = static_cast<uint8_t>(In[0]);
  In = In.drop_front(1);
  return true;
}
bool PayloadReader::u32(uint32_t &V) {
  if (In.size() < 4)
    return false;
  V = getU32(In.begin());
  In = In.drop_front(4);
  return true;
}
bool PayloadReader::u64(uint64_t &V) {
  if (In.size() < 8)
    return false;
  V = getU64(In.begin());
  In = In.drop_front(8);
  return true;
}
bool PayloadReader::str(std::string &S) {
  uint32_t N;
  if (!u32(N) || In.size() < N)
    return false;
  S = In.take_front(N).str();
  In = In.drop_front(N);
  return true;
}
bool PayloadReader::digest(Digest &D) {
  if (In.size() < D.size())
    return false;
  std::memcpy(D.data(), In.data(), D.size());
  In = In.drop_front(D.size());
  return true;
}
bool PayloadReader::count(uint32_t &N, size_t MinItemSize) {
  return u32(N) &&
         static_cast<uint64_t>(N) * std::max<size_t>(MinItemSize, 1) <=
             In.size();
}

} // namespace clang::tidy::cuda::driver
