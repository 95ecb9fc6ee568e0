//===--- FixApplier.cpp - applies fix-its without ever losing a file ------===//

#include "tool/driver/report/FixApplier.h"
#include "tool/driver/config/HeaderPairing.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include <map>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>
#include <set>
#include <tuple>

namespace clang::tidy::cuda::driver {

std::string contentHash(llvm::StringRef Bytes) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Bytes)));
}

/// The file's bytes, read into memory this process owns: a mapped file
/// edited in place would change under the hash or the fix, and one
/// truncated would end the process with SIGBUS (issue 38 G4). (LLVM maps
/// a volatile file too unless a null terminator is asked for.)
static llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
readOwned(llvm::StringRef Path) {
  return llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/true,
                                     /*IsVolatile=*/true);
}

static std::optional<std::string> hashOfFile(llvm::StringRef Path) {
  auto Buffer = readOwned(Path);
  if (!Buffer)
    return std::nullopt;
  return contentHash((*Buffer)->getBuffer());
}

/// Snapshots and fixes are keyed by the file's identity (its real path):
/// one file reached as `src/../include/h.cuh` and as `include/h.cuh` (or
/// through a symlinked folder) is one key.
static std::string canonicalPath(llvm::StringRef Path,
                                 llvm::StringRef BuildDirectory = {}) {
  return fileIdentity(Path, BuildDirectory);
}

void FileSnapshots::record(llvm::StringRef Path) {
  if (auto Hash = hashOfFile(Path)) {
    std::scoped_lock Lock(Mutex);
    Hashes[canonicalPath(Path)].Hash = *Hash;
  }
}

void FileSnapshots::recordParsed(llvm::StringRef Path, llvm::StringRef Hash) {
  std::string Key = canonicalPath(Path);
  std::scoped_lock Lock(Mutex);
  auto [It, New] = Hashes.try_emplace(Key);
  Snapshot &S = It->second;
  if (New || !S.FromParse) {
    S.Hash = Hash.str();
    S.FromParse = true;
  } else if (S.Hash != Hash) {
    S.ChangedDuringRun = true;
  }
}

bool FileSnapshots::changedSince(llvm::StringRef Path,
                                 std::optional<llvm::StringRef> Bytes) const {
  std::string Key = canonicalPath(Path);
  std::string Expected;
  {
    std::scoped_lock Lock(Mutex);
    auto It = Hashes.find(Key);
    if (It == Hashes.end())
      return false;
    if (It->second.ChangedDuringRun)
      return true;
    Expected = It->second.Hash;
  }
  std::optional<std::string> Now =
      Bytes ? std::optional<std::string>(contentHash(*Bytes))
            : hashOfFile(Path);
  return !Now || *Now != Expected;
}

/// Whether the file's mode lets this process write it: the owner, group or
/// other bits that apply, as the kernel would check them. Root is held to
/// the mode too, but any write bit will do (a CI job running as root over
/// a checkout owned by another user); a file no one may write (0444) is
/// nobody's to fix (issue 16 F13).
static bool writableByMode(const struct stat &St) {
  const uid_t Me = ::geteuid();
  if (Me == 0)
    return St.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH);
  if (St.st_uid == Me)
    return St.st_mode & S_IWUSR;
  bool InGroup = St.st_gid == ::getegid();
  if (!InGroup) {
    int N = ::getgroups(0, nullptr);
    std::vector<gid_t> Groups(N > 0 ? N : 0);
    if (N > 0 && ::getgroups(N, Groups.data()) == N)
      InGroup = llvm::is_contained(Groups, St.st_gid);
  }
  return St.st_mode & (InGroup ? S_IWGRP : S_IWOTH);
}

/// Writes all of \p Bytes to \p FD.
static bool writeAll(int FD, llvm::StringRef Bytes) {
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
}

llvm::Error writeFileAtomically(llvm::StringRef Path,
                                llvm::StringRef Contents) {
  // \p Path is the file's real path (fileIdentity): a symlink is written
  // through, to its target, and stays a symlink.
  struct stat St;
  if (::stat(Path.str().c_str(), &St) != 0) {
    std::error_code EC(errno, std::generic_category());
    return llvm::createStringError(EC, "cannot stat '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  if (!writableByMode(St))
    return llvm::createStringError(
        std::make_error_code(std::errc::permission_denied),
        "'%s' is read-only (mode %o); its fixes were not written",
        Path.str().c_str(), static_cast<unsigned>(St.st_mode & 07777));
  const auto Mode = static_cast<llvm::sys::fs::perms>(St.st_mode & 07777);
  llvm::SmallString<256> Model(Path);
  Model += ".cuda-tidy-%%%%%%%%.tmp";
  int FD = -1;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Model, FD, Temp, llvm::sys::fs::OF_None, Mode))
    return llvm::createStringError(EC, "cannot write next to '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.flush();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      (void)llvm::sys::fs::remove(Temp);
      return llvm::createStringError(EC, "cannot write '%s': %s",
                                     Temp.c_str(), EC.message().c_str());
    }
  }
  // A rename gives the file a new inode: its other hard links would keep
  // the old text, and its owner would become this process's user. Such a
  // file is rewritten in place instead, from the complete temporary copy,
  // which is removed only once the original holds the new bytes.
  bool InPlace = St.st_nlink > 1;
  if (!InPlace && (St.st_uid != ::geteuid() || St.st_gid != ::getegid()) &&
      ::chown(Temp.c_str(), St.st_uid, St.st_gid) != 0)
    InPlace = true;
  if (InPlace) {
    int Out = ::open(Path.str().c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    bool Ok = Out >= 0 && writeAll(Out, Contents) && ::fsync(Out) == 0;
    std::error_code EC(Ok ? 0 : errno, std::generic_category());
    if (Out >= 0 && ::close(Out) != 0 && Ok) {
      Ok = false;
      EC = std::error_code(errno, std::generic_category());
    }
    if (!Ok) {
      if (Out < 0) { // nothing was changed
        (void)llvm::sys::fs::remove(Temp);
        return llvm::createStringError(EC, "cannot write '%s': %s",
                                       Path.str().c_str(),
                                       EC.message().c_str());
      }
      return llvm::createStringError(
          EC, "cannot write '%s' in place: %s; the fixed text is in '%s'",
          Path.str().c_str(), EC.message().c_str(), Temp.c_str());
    }
    (void)llvm::sys::fs::remove(Temp);
    return llvm::Error::success();
  }
  // The umask may have narrowed the mode createUniqueFile asked for (and
  // chown clears the set-user-ID and set-group-ID bits).
  if (std::error_code EC = llvm::sys::fs::setPermissions(Temp, Mode)) {
    (void)llvm::sys::fs::remove(Temp);
    return llvm::createStringError(EC, "cannot keep the permissions of '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    (void)llvm::sys::fs::remove(Temp);
    return llvm::createStringError(EC, "cannot replace '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

FixSummary applyFixes(llvm::ArrayRef<ClangTidyError> Errors, bool FromNotes,
                      const FileSnapshots &Snapshots, llvm::raw_ostream &Log) {
  FixSummary Summary;
  // By file identity, each replacement renamed to it: replacements of one
  // file must name it alike to be merged, and a header's fix seen by two
  // translation units under two spellings was once applied twice at the
  // same offsets (`const const cg::thread_&block &b`, issue 16 F1).
  std::map<std::string, tooling::Replacements> ByFile;
  std::vector<std::vector<std::string>> AcceptedFixes; ///< Their files.
  std::set<std::vector<std::tuple<std::string, unsigned, unsigned, std::string>>>
      Taken;
  auto Take = [&](const llvm::StringMap<tooling::Replacements> &Fix,
                  llvm::StringRef BuildDirectory) {
    if (Fix.empty())
      return;
    std::vector<tooling::Replacement> Renamed;
    std::vector<std::tuple<std::string, unsigned, unsigned, std::string>> Key;
    for (const auto &Entry : Fix)
      for (const tooling::Replacement &R : Entry.second) {
        std::string File = canonicalPath(R.getFilePath(), BuildDirectory);
        Key.emplace_back(File, R.getOffset(), R.getLength(),
                         R.getReplacementText().str());
        Renamed.emplace_back(File, R.getOffset(), R.getLength(),
                             R.getReplacementText());
      }
    llvm::sort(Key);
    // The same fix again (the same finding reported through another file):
    // it is written once.
    if (!Taken.insert(Key).second)
      return;
    ++Summary.Suggested;
    // All of a finding's replacements go in, or none: half a fix can leave
    // code that no longer compiles.
    std::map<std::string, tooling::Replacements> Trial = ByFile;
    for (const tooling::Replacement &R : Renamed)
      if (llvm::Error E = Trial[R.getFilePath().str()].add(R)) {
        llvm::consumeError(std::move(E));
        ++Summary.Overlapping;
        return;
      }
    ByFile = std::move(Trial);
    std::vector<std::string> Files;
    Files.reserve(Renamed.size());
    for (const tooling::Replacement &R : Renamed)
      Files.push_back(R.getFilePath().str());
    AcceptedFixes.push_back(std::move(Files));
  };
  for (const ClangTidyError &Error : Errors) {
    Take(Error.Message.Fix, Error.BuildDirectory);
    if (FromNotes)
      for (const tooling::DiagnosticMessage &Note : Error.Notes)
        Take(Note.Fix, Error.BuildDirectory);
  }
  // "Applied" counts the fixes whose files were all written (issue 16
  // F20), not the ones that were merely accepted.
  std::set<std::string> Refused;
  for (const auto &[Path, Replacements] : ByFile) {
    Refused.insert(Path); // until it is written
    // Read once: the bytes compared with the snapshot are the bytes the
    // fixes are applied to (issue 38 G4).
    auto Buffer = readOwned(Path);
    if (!Buffer) {
      Log << "cuda-tidy: error: cannot read '" << Path
          << "': " << Buffer.getError().message() << "\n";
      ++Summary.FilesRefused;
      continue;
    }
    if (Snapshots.changedSince(Path, (*Buffer)->getBuffer())) {
      Log << "cuda-tidy: error: '" << Path
          << "' changed since it was analyzed; its fixes were not written\n";
      ++Summary.FilesRefused;
      continue;
    }
    auto Fixed =
        tooling::applyAllReplacements((*Buffer)->getBuffer(), Replacements);
    if (!Fixed) {
      Log << "cuda-tidy: error: cannot apply fixes to '" << Path
          << "': " << llvm::toString(Fixed.takeError()) << "\n";
      ++Summary.FilesRefused;
      continue;
    }
    if (*Fixed == (*Buffer)->getBuffer()) {
      Refused.erase(Path);
      continue;
    }
    if (llvm::Error E = writeFileAtomically(Path, *Fixed)) {
      Log << "cuda-tidy: error: " << llvm::toString(std::move(E)) << "\n";
      ++Summary.FilesRefused;
      continue;
    }
    Refused.erase(Path);
    ++Summary.FilesWritten;
  }
  Summary.Applied = llvm::count_if(AcceptedFixes, [&](const auto &Files) {
    return llvm::none_of(Files, [&](const std::string &F) {
      return Refused.count(F) != 0;
    });
  });
  return Summary;
}

} // namespace clang::tidy::cuda::driver
