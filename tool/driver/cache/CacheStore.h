//===--- CacheStore.h - cuda-tidy's on-disk cache folder ---------*- C++ -*-===//
//
// One folder (--cache-dir) holds two kinds of entries: precompiled preambles
// (PreambleCache.h) and per-file results (ResultCache.h). This is the part
// that touches the disk, and it trusts nothing it reads:
//  - the folder must be a directory owned by the user, writable by no one
//    else; it is created 0700, and every entry is opened relative to the
//    folder's descriptor with O_NOFOLLOW, so a symlink planted in it is not
//    followed;
//  - an entry is written to a fresh temporary file and renamed into place,
//    so a concurrent reader (another -j worker, another cuda-tidy, another CI
//    job sharing the folder) sees the old entry or the new one, never half
//    of one;
//  - every entry carries a header (magic, format version, kind, the BLAKE3
//    digest of its key, its size and the BLAKE3 digest of its payload) that
//    is checked on every read: a truncated, corrupt, misnamed or foreign file
//    is ignored, removed, and rebuilt by the caller.
//
// Keys and file contents are hashed with BLAKE3 (ContentHasher memoizes the
// digests of the files one run reads).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_CACHESTORE_H
#define CUDA_TIDY_TOOL_DRIVER_CACHESTORE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

/// A BLAKE3 digest (256 bits).
using Digest = std::array<uint8_t, 32>;

std::string toHex(const Digest &D);
Digest digestOf(llvm::StringRef Bytes);

/// Builds a key from named parts; each part is length-prefixed, so no two
/// different part lists hash alike.
class KeyBuilder {
public:
  KeyBuilder &add(llvm::StringRef Part);
  KeyBuilder &add(const Digest &D) {
    return add(
        llvm::StringRef(reinterpret_cast<const char *>(D.data()), D.size()));
  }
  KeyBuilder &add(uint64_t N);
  Digest final();

private:
  llvm::BLAKE3 Hasher;
};

/// The version every entry is keyed with: cuda-tidy's version, the clang
/// library it runs on, and the identity of the running executable (a rebuilt
/// cuda-tidy never replays an older build's results): its GNU build ID,
/// which the linker derives from the whole output file, or where it has
/// none, the digest of the file. Computed once.
llvm::StringRef toolVersionKey();

/// Digests of the files one run reads, each file read and hashed once (and
/// again only when its size, modification time or inode changed).
/// Thread-safe.
class ContentHasher {
public:
  /// The digest of the file's bytes; nullopt when it cannot be read.
  std::optional<Digest> hashFile(llvm::StringRef Path);

private:
  struct Known {
    uint64_t Size = 0;
    int64_t MTime = 0;
    uint64_t Inode = 0;
    Digest Hash{};
  };
  std::mutex Mutex;
  llvm::StringMap<Known> Files;
};

/// A file and the digest of its contents when an entry was made.
struct FileDigest {
  std::string Path;
  Digest Hash{};
};

/// True when every file still has the recorded contents.
bool dependenciesUnchanged(llvm::ArrayRef<FileDigest> Files,
                           ContentHasher &Hasher);

/// Which of the paths an entry depends on (the files it read and the paths
/// it found) name one file, as the file system answers now (issue 38 G1).
/// Clang knows a file by its device and inode: `#pragma once` and `#import`
/// skip a header reached a second time through a symlink or a hard link, and
/// enter an identical copy again. The same bytes under the same names can
/// so give another parse once a copy becomes a link, or a link a copy; an
/// entry records this digest of how its paths group by identity (each path,
/// in sorted order, as the index of the first path that is the same file)
/// and is used only while it still agrees. Only the grouping is kept, not
/// the inode numbers: a header rewritten through a temporary file and a
/// rename (a new inode, nothing else changed) keeps its entries.
Digest sameFileDigest(llvm::ArrayRef<FileDigest> Files,
                      llvm::ArrayRef<std::string> Found);

/// The lookups a parse made, and what they found (issue 16 F2). The files a
/// parse read are not enough to decide that it would read the same files
/// again: a header that appears where the preprocessor looked first (beside
/// the including file, or in an earlier -I folder) shadows the one it read,
/// and a `__has_include` or `#include_next` may answer otherwise now.
/// clangd's preamble answers the same question (clang's PrecompiledPreamble
/// keeps the files that were missing while it was built, and is not reused
/// once one of them exists). This file system records every path it was
/// asked for, whatever asked (header search in each folder before the hit,
/// `__has_include`, `#include_next`, the -I folders themselves), as missing
/// or found. Thread-safe.
class LookupRecorder : public llvm::vfs::ProxyFileSystem {
public:
  explicit LookupRecorder(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS)
      : ProxyFileSystem(std::move(FS)) {}

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override;
  bool exists(const llvm::Twine &Path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override;

  /// Forgets what was recorded so far (the driver's probes, before the
  /// compile proper).
  void clear();
  /// The absolute paths looked up and not found since the last clear(),
  /// sorted.
  std::vector<std::string> missing();
  /// The absolute paths looked up and found, less \p Known (the files
  /// whose contents are checked anyway), sorted.
  std::vector<std::string> found(llvm::ArrayRef<FileDigest> Known);
  /// Whether a lookup since the last clear() failed for a reason other than
  /// absence (a file that exists and cannot be read): what the compile saw
  /// then is not a function of the paths and contents recorded, so a
  /// result that failed must not be kept.
  bool sawUnreadable();

private:
  void note(const llvm::Twine &Path, bool WasFound);
  void noteUnreadable();
  std::mutex Mutex;
  bool Unreadable = false;
  llvm::StringSet<> Missing;
  llvm::StringSet<> Found;
};

/// True when every path of \p Missing still names nothing and every path of
/// \p Found still names something.
bool lookupsUnchanged(llvm::ArrayRef<std::string> Missing,
                      llvm::ArrayRef<std::string> Found);

/// \p Into, plus \p More, sorted and without duplicates.
void mergePaths(std::vector<std::string> &Into,
                llvm::ArrayRef<std::string> More);

/// Sighting: how many runs have wanted a preamble the folder did not have
/// (PreambleCache builds a file's own preamble only when it will pay: on
/// its second sighting, as ccache counts a compile before caching it).
enum class EntryKind : uint32_t { Preamble = 1, Result = 2, Sighting = 3 };

/// Counters for --cache-stats and the tests.
struct CacheCounters {
  std::atomic<unsigned> PreambleHits{0}, PreambleMisses{0}, PreamblesBuilt{0},
      PreamblesShared{0}, PreamblesUnusable{0}, ResultHits{0}, ResultMisses{0},
      CorruptEntries{0}, Writes{0}, WriteFailures{0};
};

class CacheStore {
public:
  /// Opens \p Dir, creating it (and its parents) with mode 0700 when it does
  /// not exist. Fails when it is not a directory, not owned by the user, or
  /// writable by group or others, and when it is not marked as a cache
  /// folder (CACHEDIR.TAG with the tag signature) and holds files that are
  /// not cuda-tidy's; an empty folder, or one with only cuda-tidy's entries,
  /// is marked.
  static llvm::Expected<std::unique_ptr<CacheStore>> open(llvm::StringRef Dir);

  /// True for the names of the files cuda-tidy writes in its folder
  /// (entries and their temporary files); prune() touches no other.
  static bool isEntryName(llvm::StringRef Name);
  ~CacheStore();
  CacheStore(const CacheStore &) = delete;
  CacheStore &operator=(const CacheStore &) = delete;

  llvm::StringRef directory() const { return Dir; }

  /// The payload of the entry for \p Key, after checking its header and
  /// digest; null when there is none or it is damaged (then it is removed).
  /// The payload starts at an offset aligned to 64 bytes in the buffer.
  struct Entry {
    std::unique_ptr<llvm::MemoryBuffer> Buffer; ///< The whole file.
    llvm::StringRef Payload;
  };
  std::optional<Entry> read(EntryKind Kind, const Digest &Key);

  /// Writes the entry (payload = the concatenation of \p Parts) atomically.
  bool write(EntryKind Kind, const Digest &Key,
             llvm::ArrayRef<llvm::StringRef> Parts);

  /// The folder's budget in bytes (0: none). A write that takes the folder
  /// past it prunes at once, so the budget holds during a run too, not only
  /// at its end (a cold run of a big project wrote 2 GB before pruning).
  void setMaxBytes(uint64_t Bytes) { MaxBytes = Bytes; }
  uint64_t maxBytes() const { return MaxBytes; }

  /// Whether the folder has a file under the entry's name (not read, not
  /// checked: read() does that).
  bool contains(EntryKind Kind, const Digest &Key) const;

  /// Counts one more sighting of \p Key (a preamble wanted and not in the
  /// folder) and returns how many there were before this one: 0 for none,
  /// and for an entry that is damaged or not ours (removed, as read()
  /// does). Not exact under concurrent runs (two may both see 0): a
  /// sighting only decides whether a preamble is built now or later.
  unsigned sight(const Digest &Key);

  /// Counts one use of the entry in this run: read() and write() count
  /// their own; the preamble cache counts a preamble one build serves to
  /// several files of the run.
  void noteUse(EntryKind Kind, const Digest &Key);

  /// Adds this run's use counts to the folder's usage file and prunes the
  /// folder to its budget. Called once, at the end of a run.
  void finish();

  /// Deletes entries while the folder holds more than \p Budget, in
  /// eviction order (listing()), down to three quarters of it, and
  /// temporary files older than an hour. Holds the folder's lock (flock)
  /// meanwhile, so that two runs sharing a folder do not both evict.
  void prune(uint64_t Budget);

  /// One entry of the folder, as the eviction order sees it.
  struct ListedEntry {
    std::string Name;
    EntryKind Kind;
    uint64_t Size = 0;
    /// Uses over every run that recorded them (noteUse), this one included.
    uint64_t Uses = 0;
    int64_t LastUsed = 0; ///< Seconds since the epoch (the file's mtime).
    bool Stale = false;   ///< Unused for longer than StaleAfterSeconds.
  };
  /// The entries, first to be evicted first: stale ones (oldest first),
  /// then by fewest uses, then least recently used. A preamble that serves
  /// twenty files outlives one built for a single file.
  std::vector<ListedEntry> listing();

  /// An entry unused for this long goes before every used one, however
  /// often it served before (an old toolkit's preambles).
  static constexpr int64_t StaleAfterSeconds = int64_t{7} * 24 * 3600;
  /// The file in the folder that holds the use counts.
  static constexpr llvm::StringLiteral UsageFileName = "entry-uses.tsv";

  CacheCounters Counters;

  /// The name of an entry's file inside the folder.
  static std::string entryName(EntryKind Kind, const Digest &Key);

private:
  CacheStore(std::string Dir, int DirFD) : Dir(std::move(Dir)), DirFD(DirFD) {}
  void discard(const std::string &Name);
  /// The entries and their total size, with the usage file's counts plus
  /// this run's; removes temporary files older than an hour.
  /// With \p TakeRunUses, the run's counts are taken (the caller writes them
  /// into the usage file).
  std::vector<ListedEntry> scan(uint64_t &Total, bool TakeRunUses);
  /// Under the folder's lock: eviction down to a quarter under \p Budget
  /// when the folder holds more than it, then this run's counts merged into
  /// the usage file (of the entries that are left).
  void pruneLocked(uint64_t Budget);
  llvm::StringMap<uint64_t> readUsageFile() const;
  void writeUsageFile(llvm::ArrayRef<ListedEntry> Entries) const;

  std::string Dir;
  int DirFD = -1;
  uint64_t MaxBytes = 0;
  /// The folder's size as last scanned, plus what this run wrote since.
  std::atomic<uint64_t> ApproximateBytes{0};
  std::atomic<bool> ScannedSize{false};
  std::mutex UsesMutex;
  llvm::StringMap<uint64_t> UsesThisRun; ///< Entry name -> uses.
  std::mutex PruneMutex;
};

/// A size in bytes: a number with an optional binary suffix, K, M, G or T,
/// alone or followed by "B" or "iB" ("400M", "2GiB", "1048576"); 0 means
/// no limit. The error says what is wrong with the text.
llvm::Expected<uint64_t> parseByteSize(llvm::StringRef Text);

/// "1.5 GiB", "400 MiB", "12 KiB", "87 B".
std::string formatByteSize(uint64_t Bytes);

/// The default folder: $XDG_CACHE_HOME/cuda-tidy, else ~/.cache/cuda-tidy;
/// empty when neither can be found.
std::string defaultCacheDirectory();

/// A little-endian, length-prefixed binary encoding for cache payloads.
/// The reader checks every length against what is left, so a damaged entry
/// reads as an error, never past the end.
class PayloadWriter {
public:
  void u8(uint8_t V) { Out.push_back(static_cast<char>(V)); }
  void u32(uint32_t V);
  void u64(uint64_t V);
  void str(llvm::StringRef S);
  void digest(const Digest &D);
  /// A sorted list of paths, as a table of folders, a table of names and
  /// the pairs (a few thousand missing headers share a dozen folders).
  void paths(llvm::ArrayRef<std::string> Paths);
  std::string &bytes() { return Out; }

private:
  std::string Out;
};

class PayloadReader {
public:
  explicit PayloadReader(llvm::StringRef In) : In(In) {}
  bool u8(uint8_t &V);
  bool u32(uint32_t &V);
  bool u64(uint64_t &V);
  bool str(std::string &S);
  bool digest(Digest &D);
  bool paths(std::vector<std::string> &Paths);
  /// A count of items each at least \p MinItemSize bytes long: rejects a
  /// count the rest of the payload cannot hold.
  bool count(uint32_t &N, size_t MinItemSize);
  bool atEnd() const { return In.empty(); }
  llvm::StringRef rest() const { return In; }

private:
  llvm::StringRef In;
};

} // namespace clang::tidy::cuda::driver

#endif
