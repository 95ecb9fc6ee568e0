//===--- PreambleCache.h - CUDA headers parsed once, not per file -*- C++
//-*-===//
//
// A CUDA file's parse is mostly the CUDA and CCCL headers it starts with.
// The standalone cuda-tidy parses them once into a precompiled preamble
// (clang's PrecompiledPreamble, what clangd uses) and starts every file with
// the same leading #includes and the same compile flags from it: within one
// run (in memory; a -j worker that finds it still being built by another
// parses without it rather than wait), and across runs
// through the cache folder (CacheStore.h). docs/performance.md says why
// this and not -include-pch.
//
// The preambles of one set of flags share what every file starts with: the
// predefines and the CUDA runtime wrapper the driver force-includes (0.3 s
// and 10 MB of PCH that every preamble held again). That part is one PCH
// of its own, the shared preamble, built from an empty main file; each
// file's preamble is a PCH chained on it (clang's chained PCH: built with
// the shared one as its ImplicitPCHInclude, it holds what the include lines
// add, from 30 KB for <stdio.h> to 15 MB for <cooperative_groups.h>, and
// imports the shared one by its path). In a run of several files, a file's
// preamble covers only the longest run of its first include lines that
// another file of the run starts with too; the rest of its lines are parsed
// with the file (a preamble that would serve one file costs more to build
// than it saves). A preamble of all its lines that an earlier run of that
// file alone left in the folder is used first. "The run" is the files it
// parses: runFiles asks the result cache about every file first, and plans
// the rest; the few files a warm run parses (after an edit) are planned
// each as alone, so that the next run of such a file alone finds its whole
// preamble (planEachAlone in ParallelRun.h). A file none of whose lines
// is planned (each of ggml's files starts with its own header), one with
// no include line, and one whose own preamble is unusable or being built
// by another worker start from the shared preamble alone, loaded as a
// -include-pch would be (PreambleSource::SharedBase). In the cache folder
// a file's own preamble is stored compressed with zstd, the shared one as
// it is (every parse of its flags loads it: mapped, read where clang
// looks). docs/performance.md has the numbers ("Sharing what every file
// shares", "The cache folder"); CUDA_TIDY_NO_SHARED_PCH=1 turns all of
// this off (one whole preamble per distinct include list).
//
// Results with and without a preamble are identical; what makes sure:
//  - The preamble is the file's leading comments and run of plain
//    `#include <...>` / `#include "..."` lines: it ends before the first
//    other directive or token, so a file's own macros and conditionals are
//    always parsed, never replayed. (With no include line it still holds
//    the CUDA runtime headers clang force-includes.)
//  - User headers may enter it (issue 21). A parse from a preamble does not
//    run the checks' preprocessor callbacks over what the preamble holds;
//    the only check that watches the preprocessor, cuda-grid-sync-launch,
//    reads the user files entered and the ranges #if skipped in them. The
//    build records both (Preamble::UserFiles, Skipped), and a parse from
//    the preamble shows them to the check when it enters the main file
//    (replayUserFiles, GridSyncLaunchCheck.h PreambleReplay), as the same
//    FileIDs a full parse gives; the matchers' walk reads the user headers'
//    top-level declarations back from the PCH (TidyRunner.cpp), and --fix
//    gets the bytes the build read of them (UserFilesRead). The CUDA
//    deferred diagnostics of the user headers (an error in a __host__
//    __device__ function that counts only if device code reaches it),
//    which a PCH drops, are recorded when the PCH is written and given
//    back to Sema before the end of the translation unit
//    (DeferredDiagnostics.h; TidyRunner's PreambleDeferredDiagnostics),
//    where clang decides which to report as in a full parse. A header
//    found by a relative name or one with `.` parts is named absolutely by
//    the PCH; the findings are named so with or without a preamble
//    (Findings.h absoluteFileNames), and a file whose header or line
//    filters (matched by clang-tidy against the name the parse has) tell
//    the two names apart is parsed without the preamble
//    (Preamble::UserFile::LookedUpAs). The preamble is cut before the
//    first include line that enters a user header, as before, when that
//    cannot be exact: the build emitted a diagnostic, a user header's
//    deferred diagnostic cannot be recorded exactly, or a skipped range
//    does not end in the file it began in; and before any line under
//    which __BASE_FILE__ is expanded (it names the synthetic main file).
//    Since a header is named by the folder it was found in, the include
//    folders as given are in the key of a preamble that may hold user
//    headers; in a run of several files whose folders
//    have `.` or `..` parts (flagsKey gives them one key, so that they
//    share preambles) the old cut is kept. CUDA_TIDY_PREAMBLE_SYSTEM_ONLY=1
//    keeps the old cut always (it is in the key).
//  - A build that emits any diagnostic is not used: the file is parsed
//    without a preamble, and the diagnostic reaches the user as usual.
//  - It is keyed by the include lines (and, when one is quoted, the main
//    file's folder), the compile flags of the cc1 invocation with the main
//    file taken out, the working directory and the tool version; and it is
//    used only while every file it read still has the contents it had
//    (BLAKE3 of each), every path its build looked up and did not find
//    still names nothing, and every other it found still exists (a header that would now shadow one of the
//    preamble's, in an earlier -I or -isystem folder, rebuilds it).
//  - Its main file is a synthetic path next to the real one, whose text
//    the PCH embeds, so a preamble built from one file serves another
//    without ever naming the first.
//  - The shared preamble holds what comes before the first byte of every
//    file with these flags, nothing of any file: the predefines and the
//    -include'd CUDA wrapper, parsed from an empty main file, so the state
//    a chained preamble starts from is the state a full parse reaches at
//    the file's first byte. It follows the rules above (system headers
//    only, no diagnostic, every file read and every lookup recorded and
//    checked); it is keyed by the flags, the working directory (where a
//    -include is looked up first) and the tool version; a chained
//    preamble's key holds the digest of the shared PCH it imports, and its
//    dependencies and lookups are the shared one's plus its own. A chained
//    preamble that cannot be used is tried again whole, as before.
//  - The headers' pending template instantiations are done when the
//    preamble is built (-fpch-instantiate-templates), not again at the end
//    of every file that uses it.
//
// One difference is known and left: the deferred diagnostics of system
// headers are not recorded (DeferredDiagnostics.h records those of user
// headers). A full parse reports one only when the file's device code
// calls such a function; the corpus's preambles hold 1 to 5 of them, in
// constexpr members of libstdc++'s std::string and char_traits and one
// lambda of cuda_runtime.h. Code that did call one would not compile with
// clang; --no-cache --no-preamble reports it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_PREAMBLECACHE_H
#define CUDA_TIDY_TOOL_DRIVER_PREAMBLECACHE_H

#include "tool/driver/cache/CacheStore.h"
#include "tool/driver/cache/DeferredDiagnostics.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstdlib>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class CompilerInvocation;
class DiagnosticConsumer;
class SourceManager;
} // namespace clang

namespace clang::tidy::cuda::driver {

/// The leading `#include` lines of a file (and the directive lines
/// among them that a preamble takes whole).
struct LeadingIncludes {
  struct Line {
    unsigned Begin = 0;   ///< Offset of the line's first byte.
    unsigned End = 0;     ///< Offset just past its (last) newline.
    /// `<cuda/std/span>` or `"util.cuh"`; for a #define/#undef line or a
    /// conditional block of directives, its text.
    std::string Spelling;
  };
  std::vector<Line> Includes;
  bool HasQuoted = false;
  /// Where a preamble of no include line may end: the start of the line
  /// after the leading comments (0 when the file starts with code). Such a
  /// preamble still holds the CUDA headers the driver force-includes.
  unsigned CommentEnd = 0;

  /// Where the preamble of the first \p Count include lines ends.
  unsigned cut(unsigned Count) const {
    return Count ? Includes[Count - 1].End : CommentEnd;
  }
};

/// Scans \p Text from its start over blank lines, comments, plain
/// #include lines, #define/#undef lines, and conditional blocks that hold
/// directives only (each block one line: a preamble never ends inside
/// one), stopping at the first other directive or token. (Nothing is taken
/// from a file that starts with a byte-order mark.)
LeadingIncludes scanLeadingIncludes(llvm::StringRef Text);

/// What the preamble of a file's include lines is identified by, apart
/// from the flags: the include lines, and the main file's folder when one
/// of them is quoted (a quoted include is searched there first).
std::string preambleSignature(const LeadingIncludes &Scan,
                              llvm::StringRef MainFile);

/// A built (or loaded) preamble; immutable and shared by the files that
/// use it.
struct Preamble {
  bool Usable = false;
  /// Whether it (or, when not usable, that fact) may go to the cache folder.
  bool Storable = true;
  /// How many of the leading include lines the PCH covers.
  unsigned IncludeCount = 0;
  /// Every file the preamble read, with its contents' digest.
  std::vector<FileDigest> Dependencies;
  /// Every path its build looked up and did not find, and those it found
  /// without reading them (sorted).
  std::vector<std::string> Missing;
  std::vector<std::string> Found;
  /// How Dependencies and Found group into files (sameFileDigest, issue 38
  /// G1): a header entered twice or skipped by `#pragma once` is in the PCH.
  Digest SameFiles{};
  /// The PCH, where the compiler finds it (an in-memory file).
  std::string PchPath;
  llvm::StringRef Pch;
  /// Owners of the PCH bytes: the built preamble, or the cache entry.
  std::optional<PrecompiledPreamble> Built;
  std::unique_ptr<llvm::MemoryBuffer> Loaded;
  /// The BLAKE3 digest of the PCH bytes (a preamble chained on this one is
  /// keyed by it).
  Digest PchHash{};
  /// The shared preamble this one's PCH is chained on (it imports that PCH
  /// by its path), or null. Dependencies, Missing and Found include its.
  std::shared_ptr<const Preamble> Shared;

  /// The user's headers the preamble holds: what a full parse's
  /// preprocessor callbacks see of them, replayed to the checks
  /// (replayUserFiles). Each file once, in the order it was entered.
  struct UserFile {
    std::string Path; ///< Absolute, no dots.
    /// Where its first entry starts, from the start of the preamble's main
    /// file, in the build's source locations (the PCH keeps the distance).
    uint32_t Offset = 0;
    /// The name a full parse knows it by, when that is not Path: a header
    /// found through a relative -I, or a name with `.` parts. The findings
    /// name it by Path either way (absoluteFileNames), but clang-tidy's
    /// header and line filters match the name the parse has: a file whose
    /// filters tell the two apart does not start from this preamble
    /// (headerNamesAgree).
    std::string LookedUpAs;
  };
  std::vector<UserFile> UserFiles;
  /// A range #if skipped in the first entry of UserFiles[File] (offsets in
  /// that file).
  struct SkippedRange {
    uint32_t File = 0;
    uint32_t Begin = 0;
    uint32_t End = 0;
  };
  std::vector<SkippedRange> Skipped;
  /// The build's source locations from the start of its main file to the
  /// end (every UserFile::Offset is below it).
  uint32_t Span = 0;
  /// The files in user folders the build read, with FixApplier's
  /// contentHash of the bytes (FileRun::UserFilesRead, for --fix).
  std::vector<std::pair<std::string, std::string>> UserFilesRead;

  /// CUDA's deferred diagnostics recorded while the user headers were
  /// parsed; a parse from the preamble gives them back to Sema
  /// (DeferredDiagnostics.h).
  std::vector<DeferredFunction> Deferred;

  /// The top-level declarations of the user headers, by the IDs the PCH
  /// gives them (LocalDeclID), in the order the build made them. A parse
  /// from the preamble walks these rather than reading every top-level
  /// declaration of the PCH back to find the user's (a seventh of a warm
  /// re-lint): userDeclsFromPch. Not exact (some not written): the parse
  /// reads them all, as before.
  std::vector<uint64_t> UserDecls;
  bool UserDeclsExact = true;

  /// The ranges #if skipped in the main file's part the preamble covers (a
  /// conditional block among the leading include lines: see
  /// scanLeadingIncludes), as offsets in the main file.
  std::vector<std::pair<uint32_t, uint32_t>> MainSkipped;
};

/// How the preamble for one compile was obtained (for --time-checks and the
/// counters).
/// SharedBase: the file's own preamble would be empty (none of its include
/// lines is planned, see planRun) and the compile starts from the shared
/// preamble alone (the predefines and the CUDA wrapper, 0.3 s of a parse).
enum class PreambleSource { None, Memory, Disk, Built, SharedBase };

class PreambleCache {
public:
  /// \p Disk may be null (--no-cache): preambles then live for one run.
  PreambleCache(CacheStore *Disk, ContentHasher &Hasher,
                CacheCounters &Counters)
      : Disk(Disk), Hasher(Hasher), Counters(Counters) {}

  /// Counts how many of \p Files share each signature. Without a cache
  /// folder a preamble only one file would use is not built (it would cost
  /// more than it saves). Returns the files (their positions in \p Files)
  /// grouped by signature, in input order within a group and groups in the
  /// order of their first file; a file with no include line is a group of
  /// its own. The first file of a group builds or loads the preamble the
  /// others start from (FileSchedule in ParallelRun.h). With the shared
  /// preamble and several files, a file's signature is that of the longest
  /// run of its first include lines another file starts with too.
  /// \p EachAlone: every file is planned as a run of it alone would plan
  /// it (all its include lines; user headers even where the include
  /// folders have `.` or `..` parts), for the few files a warm run parses
  /// (runFiles, planEachAlone): the preamble built then is the one the
  /// next run of that file alone looks for.
  /// \p Relint: the result cache answered other files of the run (a
  /// project linted again): what its files need is built at once, not at
  /// a second sighting (BuildAfter).
  std::vector<std::vector<size_t>> planRun(llvm::ArrayRef<std::string> Files,
                                           bool EachAlone = false,
                                           bool Relint = false);

  /// The preamble for this compile, or null (parse without one). Builds it
  /// when needed, with \p FS and \p PCHOps. \p CompilerWarningsShown:
  /// whether the run reports compiler warnings (a `clang-diagnostic-*`
  /// check); where it does not, a header whose only diagnostics are
  /// warnings may enter the preamble (its key says so).
  std::shared_ptr<const Preamble>
  acquire(const CompilerInvocation &Invocation, llvm::StringRef MainFile,
          const llvm::MemoryBuffer &MainBuffer, const LeadingIncludes &Scan,
          const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &FS,
          const std::shared_ptr<PCHContainerOperations> &PCHOps,
          PreambleSource &Source, bool CompilerWarningsShown = true);

  /// Sets \p Invocation up to start from \p P: the PCH comes from an
  /// in-memory file pushed onto \p FS, and the main file is remapped to
  /// \p MainBuffer (the very bytes the preamble was checked against).
  /// \p Source is what acquire said: from the shared preamble alone
  /// (SharedBase), the compile loads its PCH as a -include-pch would, as
  /// the build of a chained preamble does, and skips no byte of the file.
  static void apply(const Preamble &P, const LeadingIncludes &Scan,
                    PreambleSource Source, CompilerInvocation &Invocation,
                    llvm::vfs::OverlayFileSystem &FS,
                    std::unique_ptr<llvm::MemoryBuffer> MainBuffer);

  /// The user's files \p P holds as FileIDs of \p SM, the source manager
  /// of a compile started from \p P, in the order they were entered, and
  /// the ranges #if skipped in them (GridSyncLaunchCheck.h PreambleReplay).
  static void replayUserFiles(const Preamble &P, const SourceManager &SM,
                              std::vector<FileID> &Files,
                              std::vector<SourceRange> &Skipped);

  /// Gives \p CI's Sema the deferred diagnostics \p P recorded
  /// (Preamble::Deferred), for a compile started from \p P, before the end
  /// of its translation unit. Returns how many functions could not be read
  /// back (0 when all were).
  static unsigned restoreDeferredDiagnostics(const Preamble &P,
                                             CompilerInstance &CI);

  /// The key of the flags a preamble is built with: the cc1 command line
  /// without the main file's name, plus the working directory.
  static std::string flagsKey(const CompilerInvocation &Invocation);

private:
  std::shared_ptr<const Preamble>
  build(const CompilerInvocation &Invocation, llvm::StringRef MainFile,
        const llvm::MemoryBuffer &MainBuffer, const LeadingIncludes &Scan,
        const Digest &Key,
        const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &FS,
        const std::shared_ptr<PCHContainerOperations> &PCHOps,
        const std::shared_ptr<const Preamble> &Shared, bool AllowUserHeaders,
        bool CompilerWarningsShown);
  /// The shared preamble of these flags (the predefines and the CUDA
  /// headers the driver force-includes, before any line of the file), or
  /// null when it cannot be had. Built once per run and flags, and kept.
  /// When neither this run nor the folder has it: Build builds it;
  /// LoadOnly gives null; Sighted (a run of one file) builds it only at
  /// its SharedAfter-th sighting (CacheStore::sight), else gives null.
  enum class SharedPolicy { Build, LoadOnly, Sighted };
  std::shared_ptr<const Preamble>
  acquireShared(const CompilerInvocation &Invocation, llvm::StringRef Cwd,
                const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &FS,
                const std::shared_ptr<PCHContainerOperations> &PCHOps,
                SharedPolicy Policy = SharedPolicy::Build);
  std::shared_ptr<const Preamble>
  load(const Digest &Key, const std::shared_ptr<const Preamble> &Shared);
  /// \p Compress: the PCH bytes go to the folder compressed (each load
  /// then decompresses them; see PchCodec).
  void store(const Digest &Key, const Preamble &P, bool Compress);

  CacheStore *Disk;
  ContentHasher &Hasher;
  CacheCounters &Counters;

  struct Slot {
    std::shared_future<std::shared_ptr<const Preamble>> Ready;
    std::string Signature;
  };
  std::mutex Mutex;
  std::map<Digest, Slot> Slots;
  /// Files of this run still to come, per signature; a slot is dropped
  /// when none is left, so memory holds only preambles still needed.
  /// (files with the signature, those not started yet).
  llvm::StringMap<std::pair<unsigned, unsigned>> Planned;
  /// Whether preambles are chained on the shared one of their flags: yes
  /// unless CUDA_TIDY_NO_SHARED_PCH is set (then as before it, one whole
  /// preamble per include list).
  bool ChainOnShared = std::getenv("CUDA_TIDY_NO_SHARED_PCH") == nullptr;
  /// Whether a preamble may hold the user's headers (replayed to the
  /// checks): yes unless CUDA_TIDY_PREAMBLE_SYSTEM_ONLY is set (then, as
  /// before, it is cut before the first include line that enters one).
  bool UserHeaders = std::getenv("CUDA_TIDY_PREAMBLE_SYSTEM_ONLY") == nullptr;
  /// A run of one file with a cache folder builds a preamble the folder
  /// does not have only at its BuildAfter-th sighting (counted in the
  /// folder, CacheStore::sight): a preamble built for a file seen once
  /// costs more than the parse it replaces (issue 39; the first run of a
  /// lone file parses it directly, as --no-cache does). The shared
  /// preamble of a set of flags likewise at its SharedAfter-th. A run of
  /// several files builds what another file of the run shares, and a warm
  /// run that parses a few files while the result cache answered the
  /// others (planRun's Relint: a project linted again after an edit)
  /// builds their whole preambles, as before. CUDA_TIDY_PREAMBLE_AFTER and CUDA_TIDY_SHARED_PCH_AFTER set
  /// them (1: at once, the behaviour before issue 39); only what is built
  /// when changes, never a finding.
  static unsigned sightingsFromEnv(const char *Name, unsigned Default);
  unsigned BuildAfter = sightingsFromEnv("CUDA_TIDY_PREAMBLE_AFTER", 2);
  unsigned SharedAfter = sightingsFromEnv("CUDA_TIDY_SHARED_PCH_AFTER", 2);
  /// How many include lines planRun chose a file's preamble to cover, for
  /// the files where that is fewer than all (absolute path, no dots).
  llvm::StringMap<unsigned> PlannedCuts;
  /// Whether planRun was given more than one file (and not EachAlone).
  bool ManyFiles = false;
  /// planRun's Relint.
  bool Relinted = false;
  /// The shared preambles of this run, by key (kept for the whole run: few,
  /// one per set of flags); null when the build failed.
  std::map<Digest, std::shared_future<std::shared_ptr<const Preamble>>>
      SharedSlots;
};

} // namespace clang::tidy::cuda::driver

#endif
