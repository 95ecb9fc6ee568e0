//===--- CacheTest.cpp - the cache folder, its entries and payloads -------===//
//
// What the preamble and result caches rest on: the folder's safety rules,
// entries that are checked on every read, atomic writes under concurrent
// readers, pruning, the result encoding, and the scan of a file's leading
// include lines. (That results are identical with and without the caches
// is tested end to end on the lit suite: tests/cache.)
//
//===----------------------------------------------------------------------===//

#include "tool/driver/cache/CacheStore.h"
#include "tool/driver/cache/PreambleCache.h"
#include "tool/driver/cache/ResultCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <atomic>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace clang::tidy::cuda::driver;
using clang::tidy::ClangTidyError;

namespace {

class CacheFolderTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cache-test", Root));
    Dir = (Root + "/nested/cache").str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  std::unique_ptr<CacheStore> openStore() {
    auto Store = CacheStore::open(Dir);
    EXPECT_TRUE(bool(Store))
        << (Store ? "" : llvm::toString(Store.takeError()));
    return Store ? std::move(*Store) : nullptr;
  }
  std::string entryPath(EntryKind Kind, const Digest &Key) {
    return Dir + "/" + CacheStore::entryName(Kind, Key);
  }
  static std::string readAll(const std::string &Path) {
    std::ifstream In(Path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(In), {});
  }
  static void writeAll(const std::string &Path, const std::string &Bytes) {
    std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
    Out << Bytes;
  }

  llvm::SmallString<128> Root;
  std::string Dir;
  const Digest Key = digestOf("some key");
};

// The tool's identity in every key is the build ID of the running binary,
// read here independently through LLVM's object-file reader.
TEST(ToolVersionKeyTest, NamesTheRunningBinarysBuildId) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
  auto Binary = llvm::object::ObjectFile::createObjectFile(Exe);
  ASSERT_TRUE(static_cast<bool>(Binary)) << llvm::toString(Binary.takeError());
  llvm::object::BuildIDRef Id =
      llvm::object::getBuildID(Binary->getBinary());
  ASSERT_FALSE(Id.empty()) << "the test binary was linked without a build ID";
  std::string Expected = "; build-id " + llvm::toHex(Id, /*LowerCase=*/true);
  EXPECT_TRUE(toolVersionKey().ends_with(Expected)) << toolVersionKey().str();
  EXPECT_TRUE(toolVersionKey().starts_with("cuda-tidy "));
  EXPECT_EQ(toolVersionKey().data(), toolVersionKey().data()); // computed once
}

TEST(KeyBuilderTest, PartsAreLengthPrefixed) {
  EXPECT_NE(KeyBuilder().add("ab").add("c").final(),
            KeyBuilder().add("a").add("bc").final());
  EXPECT_EQ(KeyBuilder().add("ab").add("c").final(),
            KeyBuilder().add("ab").add("c").final());
  EXPECT_EQ(toHex(digestOf("")).size(), 64u);
}

TEST_F(CacheFolderTest, CreatesTheFolderOwnerOnly) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  struct stat St;
  ASSERT_EQ(::stat(Dir.c_str(), &St), 0);
  EXPECT_TRUE(S_ISDIR(St.st_mode));
  EXPECT_EQ(St.st_mode & 0777, 0700u);
}

TEST_F(CacheFolderTest, RefusesAFolderOthersCanWrite) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(Dir));
  ASSERT_EQ(::chmod(Dir.c_str(), 0777), 0);
  auto Store = CacheStore::open(Dir);
  ASSERT_FALSE(bool(Store));
  EXPECT_NE(llvm::toString(Store.takeError()).find("writable by other"),
            std::string::npos);
}

TEST_F(CacheFolderTest, RefusesAFile) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/nested"));
  writeAll(Dir, "not a folder");
  auto Store = CacheStore::open(Dir);
  ASSERT_FALSE(bool(Store));
  llvm::consumeError(Store.takeError());
}

TEST_F(CacheFolderTest, WritesAndReadsBack) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  EXPECT_FALSE(Store->read(EntryKind::Result, Key));
  ASSERT_TRUE(Store->write(EntryKind::Result, Key, {"hello, ", "cache"}));
  auto Entry = Store->read(EntryKind::Result, Key);
  ASSERT_TRUE(Entry);
  EXPECT_EQ(Entry->Payload, "hello, cache");
  EXPECT_EQ((Entry->Payload.data() - Entry->Buffer->getBufferStart()) % 64, 0);
  // Another kind is another entry.
  EXPECT_FALSE(Store->read(EntryKind::Preamble, Key));
  struct stat St;
  ASSERT_EQ(::stat(entryPath(EntryKind::Result, Key).c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0600u);
  // Nothing but the entry is left behind (and the folder's cache tag).
  std::error_code EC;
  unsigned Files = 0;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC))
    if (llvm::sys::path::filename(It->path()) != "CACHEDIR.TAG")
      ++Files;
  EXPECT_EQ(Files, 1u);
}

// Issue 39: sightings count the runs that wanted a preamble the folder did
// not have; a damaged or foreign sighting entry counts as none (and is
// replaced), never as an error.
TEST_F(CacheFolderTest, SightingsCountAndSurviveDamage) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  EXPECT_FALSE(Store->contains(EntryKind::Sighting, Key));
  EXPECT_EQ(Store->sight(Key), 0u);
  EXPECT_TRUE(Store->contains(EntryKind::Sighting, Key));
  EXPECT_EQ(Store->sight(Key), 1u);
  EXPECT_EQ(Store->sight(Key), 2u);
  // Another key is counted apart; a preamble of the same key is not one.
  EXPECT_EQ(Store->sight(digestOf("another key")), 0u);
  EXPECT_FALSE(Store->contains(EntryKind::Preamble, Key));
  EXPECT_TRUE(CacheStore::isEntryName(CacheStore::entryName(EntryKind::Sighting, Key)));

  const std::string Path = entryPath(EntryKind::Sighting, Key);
  writeAll(Path, "not a cuda-tidy entry");
  const unsigned CorruptBefore = Store->Counters.CorruptEntries;
  EXPECT_EQ(Store->sight(Key), 0u);
  EXPECT_EQ(Store->Counters.CorruptEntries, CorruptBefore + 1);
  EXPECT_EQ(Store->sight(Key), 1u);
  // A valid entry of the right kind whose payload is not a count.
  ASSERT_TRUE(Store->write(EntryKind::Sighting, Key, {"xyz"}));
  EXPECT_EQ(Store->sight(Key), 0u);
  EXPECT_EQ(Store->sight(Key), 1u);
  // The listing knows them as sightings (the eviction order keeps them
  // apart from results).
  unsigned Sightings = 0;
  for (const CacheStore::ListedEntry &E : Store->listing())
    Sightings += E.Kind == EntryKind::Sighting;
  EXPECT_EQ(Sightings, 2u);
}

// Issue 16 F4: the folder must be ours before anything in it is pruned.
TEST_F(CacheFolderTest, TagsANewFolder) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  EXPECT_EQ(readAll(Dir + "/CACHEDIR.TAG").substr(0, 43),
            "Signature: 8a477f597d28d172789f06886806bc55");
  // Opened again: tagged, so used whatever else it holds.
  writeAll(Dir + "/notes.txt", "a user's file");
  Store.reset();
  EXPECT_TRUE(openStore());
}

TEST_F(CacheFolderTest, RefusesAnUntaggedFolderWithOtherFiles) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(Dir));
  ASSERT_EQ(::chmod(Dir.c_str(), 0700), 0);
  writeAll(Dir + "/tmp-notes.txt", "a user's file");
  writeAll(Dir + "/preamble-draft.doc", "another");
  auto Store = CacheStore::open(Dir);
  ASSERT_FALSE(bool(Store));
  EXPECT_NE(llvm::toString(Store.takeError()).find("not a cache folder"),
            std::string::npos);
  EXPECT_FALSE(llvm::sys::fs::exists(Dir + "/CACHEDIR.TAG"));
  EXPECT_EQ(readAll(Dir + "/tmp-notes.txt"), "a user's file");
}

TEST_F(CacheFolderTest, RefusesAForeignTag) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(Dir));
  ASSERT_EQ(::chmod(Dir.c_str(), 0700), 0);
  writeAll(Dir + "/CACHEDIR.TAG", "not the signature");
  auto Store = CacheStore::open(Dir);
  ASSERT_FALSE(bool(Store));
  llvm::consumeError(Store.takeError());
}

TEST_F(CacheFolderTest, AdoptsAnUntaggedFolderOfItsOwnEntries) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(Dir));
  ASSERT_EQ(::chmod(Dir.c_str(), 0700), 0);
  writeAll(entryPath(EntryKind::Result, Key), "an entry of an older run");
  writeAll(Dir + "/tmp-12-0-ABC.part", "a temporary file");
  EXPECT_TRUE(openStore());
  EXPECT_TRUE(llvm::sys::fs::exists(Dir + "/CACHEDIR.TAG"));
}

// Several processes claiming one new folder at once: each one must find
// the folder ours, whichever order their listing, tagging and reading of
// the tag come in. (Before the tag was linked into place whole, a process
// that listed the folder just after another had tagged it refused it for
// holding CACHEDIR.TAG, about one race in 400 of the cache-identity test;
// here threads race on 300 new folders, which hit it every time.)
TEST_F(CacheFolderTest, ConcurrentOpensOfANewFolderAllSucceed) {
  for (int Round = 0; Round < 300; ++Round) {
    const std::string Fresh = Root.str().str() + "/race-" + std::to_string(Round);
    std::atomic<int> Ready{0};
    std::atomic<unsigned> Refused{0};
    std::string FirstError;
    std::mutex ErrorMutex;
    std::vector<std::thread> Threads;
    for (int T = 0; T < 4; ++T)
      Threads.emplace_back([&] {
        ++Ready;
        while (Ready < 4) {
        }
        auto Store = CacheStore::open(Fresh);
        if (!Store) {
          ++Refused;
          std::scoped_lock Lock(ErrorMutex);
          FirstError = llvm::toString(Store.takeError());
          return;
        }
        // An entry written at once, as a run would: the others must not
        // take it (or its temporary file) for a foreign file either.
        (*Store)->write(EntryKind::Result, Key, {"payload"});
      });
    for (std::thread &T : Threads)
      T.join();
    ASSERT_EQ(Refused, 0u) << "round " << Round << ": " << FirstError;
    EXPECT_EQ(readAll(Fresh + "/CACHEDIR.TAG").substr(0, 43),
              "Signature: 8a477f597d28d172789f06886806bc55");
    // No temporary file of the tag is left behind.
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Fresh, EC), End; !EC && It != End;
         It.increment(EC))
      EXPECT_FALSE(llvm::sys::path::filename(It->path()).starts_with("tmp-"))
          << It->path();
  }
}

// The tag is linked into place whole: a reader never sees it empty or cut
// (an older cuda-tidy created it, then wrote it, and a second process could
// read it in between and refuse the folder).
TEST_F(CacheFolderTest, TheTagIsNeverSeenHalfWritten) {
  const std::string Fresh = Root.str().str() + "/half";
  std::atomic<bool> Stop{false};
  std::atomic<unsigned> Bad{0};
  std::thread Reader([&] {
    while (!Stop) {
      std::ifstream In(Fresh + "/CACHEDIR.TAG", std::ios::binary);
      if (!In)
        continue;
      std::string Text((std::istreambuf_iterator<char>(In)), {});
      if (Text.substr(0, 43) != "Signature: 8a477f597d28d172789f06886806bc55")
        ++Bad;
    }
  });
  for (int Round = 0; Round < 200; ++Round) {
    llvm::sys::fs::remove_directories(Fresh);
    auto Store = CacheStore::open(Fresh);
    ASSERT_TRUE(bool(Store)) << llvm::toString(Store.takeError());
  }
  Stop = true;
  Reader.join();
  EXPECT_EQ(Bad, 0u);
}

// Issue 16 F12: a FIFO where an entry should be is dropped at once (the
// open used to block until something wrote to it).
TEST_F(CacheFolderTest, AFifoUnderAnEntrysNameIsDropped) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  const std::string Path = entryPath(EntryKind::Result, Key);
  ASSERT_EQ(::mkfifo(Path.c_str(), 0600), 0);
  EXPECT_FALSE(Store->read(EntryKind::Result, Key));
  EXPECT_EQ(Store->Counters.CorruptEntries, 1u);
  EXPECT_FALSE(llvm::sys::fs::exists(Path));
  // And the entry can be written again.
  EXPECT_TRUE(Store->write(EntryKind::Result, Key, {"payload"}));
  auto Entry = Store->read(EntryKind::Result, Key);
  ASSERT_TRUE(Entry);
  EXPECT_EQ(Entry->Payload, "payload");
}

TEST_F(CacheFolderTest, EntryNamesAreExact) {
  EXPECT_TRUE(CacheStore::isEntryName(CacheStore::entryName(EntryKind::Result, Key)));
  EXPECT_TRUE(CacheStore::isEntryName(CacheStore::entryName(EntryKind::Preamble, Key)));
  EXPECT_TRUE(CacheStore::isEntryName("tmp-1-2-3.part"));
  EXPECT_FALSE(CacheStore::isEntryName("tmp-notes"));
  EXPECT_FALSE(CacheStore::isEntryName("tmp-1-2-3.part.bak"));
  EXPECT_FALSE(CacheStore::isEntryName("result-2024.txt"));
  EXPECT_FALSE(CacheStore::isEntryName("preamble-"));
  EXPECT_FALSE(CacheStore::isEntryName("CACHEDIR.TAG"));
}

TEST_F(CacheFolderTest, DropsATruncatedEntry) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  std::string Payload(5000, 'x');
  ASSERT_TRUE(Store->write(EntryKind::Preamble, Key, {Payload}));
  std::string Path = entryPath(EntryKind::Preamble, Key);
  for (size_t Keep : {size_t(0), size_t(10), size_t(127), size_t(128),
                      size_t(2000), size_t(5127)}) {
    ASSERT_TRUE(Store->write(EntryKind::Preamble, Key, {Payload}));
    std::string Bytes = readAll(Path);
    writeAll(Path, Bytes.substr(0, Keep));
    EXPECT_FALSE(Store->read(EntryKind::Preamble, Key)) << Keep;
    EXPECT_FALSE(llvm::sys::fs::exists(Path)) << Keep;
  }
  EXPECT_EQ(Store->Counters.CorruptEntries, 6u);
}

TEST_F(CacheFolderTest, DropsAFlippedByteAnywhere) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  std::string Path = entryPath(EntryKind::Result, Key);
  ASSERT_TRUE(Store->write(EntryKind::Result, Key, {"payload bytes"}));
  const std::string Good = readAll(Path);
  for (size_t At = 0; At < Good.size(); At += 7) {
    std::string Bad = Good;
    Bad[At] ^= 0x20;
    writeAll(Path, Bad);
    EXPECT_FALSE(Store->read(EntryKind::Result, Key)) << "byte " << At;
  }
  // Appended bytes are damage too.
  writeAll(Path, Good + "x");
  EXPECT_FALSE(Store->read(EntryKind::Result, Key));
  writeAll(Path, Good);
  EXPECT_TRUE(Store->read(EntryKind::Result, Key));
}

TEST_F(CacheFolderTest, AnEntryUnderAnotherKeysNameIsNotRead) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  const Digest Other = digestOf("other key");
  ASSERT_TRUE(Store->write(EntryKind::Result, Key, {"for Key"}));
  ASSERT_FALSE(llvm::sys::fs::rename(entryPath(EntryKind::Result, Key),
                                     entryPath(EntryKind::Result, Other)));
  EXPECT_FALSE(Store->read(EntryKind::Result, Other));
}

TEST_F(CacheFolderTest, DoesNotFollowAPlantedSymlink) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  // A perfectly valid entry, outside the folder, linked in under its name.
  ASSERT_TRUE(Store->write(EntryKind::Result, Key, {"valid"}));
  std::string Outside = (Root + "/outside-entry").str();
  ASSERT_FALSE(
      llvm::sys::fs::rename(entryPath(EntryKind::Result, Key), Outside));
  ASSERT_EQ(
      ::symlink(Outside.c_str(), entryPath(EntryKind::Result, Key).c_str()), 0);
  EXPECT_FALSE(Store->read(EntryKind::Result, Key));
  EXPECT_TRUE(llvm::sys::fs::exists(Outside)); // the target is left alone
  // Writing replaces the link itself, never writes through it.
  const std::string Before = readAll(Outside);
  ASSERT_TRUE(Store->write(EntryKind::Result, Key, {"new"}));
  EXPECT_EQ(readAll(Outside), Before);
  auto Entry = Store->read(EntryKind::Result, Key);
  ASSERT_TRUE(Entry);
  EXPECT_EQ(Entry->Payload, "new");
}

TEST_F(CacheFolderTest, ReadersNeverSeeHalfAnEntry) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  const std::string A(300000, 'a'), B(200000, 'b');
  std::atomic<bool> Stop{false};
  std::atomic<unsigned> Reads{0}, Bad{0};
  std::vector<std::thread> Threads;
  for (int W = 0; W < 2; ++W)
    Threads.emplace_back([&, W] {
      for (int I = 0; I < 40; ++I)
        Store->write(EntryKind::Preamble, Key, {(I + W) % 2 ? A : B});
    });
  for (int R = 0; R < 2; ++R)
    Threads.emplace_back([&] {
      while (!Stop) {
        if (auto Entry = Store->read(EntryKind::Preamble, Key)) {
          ++Reads;
          if (Entry->Payload != A && Entry->Payload != B)
            ++Bad;
        }
      }
    });
  Threads[0].join();
  Threads[1].join();
  Stop = true;
  Threads[2].join();
  Threads[3].join();
  EXPECT_EQ(Bad, 0u);
  EXPECT_EQ(Store->Counters.CorruptEntries, 0u);
  EXPECT_GT(Reads, 0u);
}

TEST_F(CacheFolderTest, PrunesTheOldestEntriesOnly) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  std::vector<Digest> Keys;
  for (int I = 0; I < 6; ++I) {
    Keys.push_back(digestOf("key " + std::to_string(I)));
    ASSERT_TRUE(
        Store->write(EntryKind::Result, Keys.back(), {std::string(1000, 'p')}));
    // Entry I was last used I hours ago... in reverse: 0 is the oldest.
    struct timespec Times[2];
    Times[0].tv_sec = Times[1].tv_sec = 1000000 + I * 3600;
    Times[0].tv_nsec = Times[1].tv_nsec = 0;
    ASSERT_EQ(::utimensat(AT_FDCWD,
                          entryPath(EntryKind::Result, Keys.back()).c_str(),
                          Times, 0),
              0);
  }
  writeAll(Dir + "/notes.txt", std::string(100000, 'n')); // not ours
  writeAll(Dir + "/tmp-notes", "a user's file, named like ours");
  struct timespec LongAgo[2] = {{1000, 0}, {1000, 0}};
  ::utimensat(AT_FDCWD, (Dir + "/tmp-notes").c_str(), LongAgo, 0);
  writeAll(Dir + "/tmp-1-2-3.part", "left by a crash");
  struct timespec Old[2] = {{1000, 0}, {1000, 0}};
  ::utimensat(AT_FDCWD, (Dir + "/tmp-1-2-3.part").c_str(), Old, 0);
  Store->prune(4 * 1128 + 100); // room for four entries
  for (int I = 0; I < 6; ++I)
    EXPECT_EQ(llvm::sys::fs::exists(entryPath(EntryKind::Result, Keys[I])),
              I >= 3)
        << I; // down to three quarters: the three newest stay
  EXPECT_TRUE(llvm::sys::fs::exists(Dir + "/notes.txt"));
  EXPECT_TRUE(llvm::sys::fs::exists(Dir + "/tmp-notes"));
  EXPECT_FALSE(llvm::sys::fs::exists(Dir + "/tmp-1-2-3.part"));
}

// Sets the entry's last use to \p SecondsAgo before now.
static void lastUsedAgo(const std::string &Path, int64_t SecondsAgo) {
  struct timespec Times[2];
  Times[0].tv_sec = Times[1].tv_sec = ::time(nullptr) - SecondsAgo;
  Times[0].tv_nsec = Times[1].tv_nsec = 0;
  ASSERT_EQ(::utimensat(AT_FDCWD, Path.c_str(), Times, 0), 0) << Path;
}

// Each entry is 1000 bytes of payload plus the 128-byte header.
static constexpr uint64_t EntryBytes = 1128;

TEST_F(CacheFolderTest, TheMostUsedEntriesOutliveNewerOnes) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  std::vector<Digest> Keys;
  for (int I = 0; I < 4; ++I) {
    Keys.push_back(digestOf("key " + std::to_string(I)));
    ASSERT_TRUE(Store->write(EntryKind::Preamble, Keys.back(),
                             {std::string(1000, 'p')}));
  }
  // Entry 0 served three more files; it is also the least recently used.
  for (int Use = 0; Use < 3; ++Use)
    ASSERT_TRUE(Store->read(EntryKind::Preamble, Keys[0]));
  for (int I = 0; I < 4; ++I)
    lastUsedAgo(entryPath(EntryKind::Preamble, Keys[I]), 3600 * (10 - I));
  Store->prune(3 * EntryBytes); // down to 2.25 entries: two stay
  EXPECT_TRUE(llvm::sys::fs::exists(entryPath(EntryKind::Preamble, Keys[0])));
  EXPECT_FALSE(llvm::sys::fs::exists(entryPath(EntryKind::Preamble, Keys[1])));
  EXPECT_FALSE(llvm::sys::fs::exists(entryPath(EntryKind::Preamble, Keys[2])));
  EXPECT_TRUE(llvm::sys::fs::exists(entryPath(EntryKind::Preamble, Keys[3])));
}

TEST_F(CacheFolderTest, AStaleEntryGoesFirstHoweverOftenItServed) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  const Digest Old = digestOf("old toolkit"), Fresh = digestOf("fresh");
  ASSERT_TRUE(Store->write(EntryKind::Preamble, Old, {std::string(1000, 'o')}));
  for (int Use = 0; Use < 20; ++Use)
    ASSERT_TRUE(Store->read(EntryKind::Preamble, Old));
  ASSERT_TRUE(
      Store->write(EntryKind::Preamble, Fresh, {std::string(1000, 'f')}));
  lastUsedAgo(entryPath(EntryKind::Preamble, Old),
              CacheStore::StaleAfterSeconds + 60);
  std::vector<CacheStore::ListedEntry> Listed = Store->listing();
  ASSERT_EQ(Listed.size(), 2u);
  EXPECT_EQ(Listed[0].Name, CacheStore::entryName(EntryKind::Preamble, Old));
  EXPECT_TRUE(Listed[0].Stale);
  EXPECT_EQ(Listed[0].Uses, 21u);
  EXPECT_FALSE(Listed[1].Stale);
  EXPECT_EQ(Listed[1].Uses, 1u);
  Store->prune(2 * EntryBytes - 1); // one over: down to 1.5 entries
  EXPECT_FALSE(llvm::sys::fs::exists(entryPath(EntryKind::Preamble, Old)));
  EXPECT_TRUE(llvm::sys::fs::exists(entryPath(EntryKind::Preamble, Fresh)));
}

TEST_F(CacheFolderTest, UseCountsCarryOverToTheNextRun) {
  const Digest A = digestOf("a"), B = digestOf("b");
  {
    auto Store = openStore();
    ASSERT_TRUE(Store);
    ASSERT_TRUE(Store->write(EntryKind::Preamble, A, {"aaaa"}));
    ASSERT_TRUE(Store->write(EntryKind::Result, B, {"bbbb"}));
    Store->noteUse(EntryKind::Preamble, A); // shared in memory
    Store->finish();
  }
  {
    auto Store = openStore();
    ASSERT_TRUE(Store);
    ASSERT_TRUE(Store->read(EntryKind::Preamble, A));
    Store->finish();
  }
  auto Store = openStore();
  ASSERT_TRUE(Store);
  std::vector<CacheStore::ListedEntry> Listed = Store->listing();
  ASSERT_EQ(Listed.size(), 2u);
  EXPECT_EQ(Listed[0].Name, CacheStore::entryName(EntryKind::Result, B));
  EXPECT_EQ(Listed[0].Uses, 1u);
  EXPECT_EQ(Listed[1].Name, CacheStore::entryName(EntryKind::Preamble, A));
  EXPECT_EQ(Listed[1].Uses, 3u);
  // The usage file is cuda-tidy's own: a fresh open of the folder is fine.
  EXPECT_TRUE(llvm::sys::fs::exists(
      Dir + "/" + CacheStore::UsageFileName.str()));
}

TEST_F(CacheFolderTest, ADamagedUsageFileCountsForNothing) {
  const Digest A = digestOf("a");
  auto Store = openStore();
  ASSERT_TRUE(Store);
  ASSERT_TRUE(Store->write(EntryKind::Preamble, A, {"aaaa"}));
  const std::string Usage = Dir + "/" + CacheStore::UsageFileName.str();
  const std::string Name = CacheStore::entryName(EntryKind::Preamble, A);
  // A wrong header: the whole file is ignored.
  writeAll(Usage, "something else\n" + Name + "\t99\n");
  EXPECT_EQ(Store->listing()[0].Uses, 1u);
  // Bad lines are skipped, good ones kept.
  writeAll(Usage, "cuda-tidy entry uses 1\n" + Name + "\tmany\nnot-ours\t5\n" +
                      Name + "\t7\n\t\t\n");
  EXPECT_EQ(Store->listing()[0].Uses, 8u);
  // A symlink in its place is not followed.
  ASSERT_EQ(::unlink(Usage.c_str()), 0);
  const std::string Elsewhere = (Root + "/elsewhere").str();
  writeAll(Elsewhere, "cuda-tidy entry uses 1\n" + Name + "\t50\n");
  ASSERT_EQ(::symlink(Elsewhere.c_str(), Usage.c_str()), 0);
  EXPECT_EQ(Store->listing()[0].Uses, 1u);
}

TEST_F(CacheFolderTest, TheBudgetHoldsDuringTheRun) {
  auto Store = openStore();
  ASSERT_TRUE(Store);
  Store->setMaxBytes(4 * EntryBytes);
  for (int I = 0; I < 12; ++I) {
    ASSERT_TRUE(Store->write(EntryKind::Result,
                             digestOf("key " + std::to_string(I)),
                             {std::string(1000, 'r')}));
    uint64_t Total = 0;
    for (const CacheStore::ListedEntry &E : Store->listing())
      Total += E.Size;
    EXPECT_LE(Total, 4 * EntryBytes) << "after write " << I;
  }
  // The newest entry is never the one evicted for its own write.
  EXPECT_TRUE(llvm::sys::fs::exists(
      entryPath(EntryKind::Result, digestOf("key 11"))));
}

TEST(ByteSizeTest, ParsesUnitsAndRejectsTheRest) {
  auto Is = [](llvm::StringRef Text, uint64_t Want) {
    llvm::Expected<uint64_t> Got = parseByteSize(Text);
    if (!Got)
      return ::testing::AssertionFailure()
             << Text.str() << ": " << llvm::toString(Got.takeError());
    if (*Got != Want)
      return ::testing::AssertionFailure() << Text.str() << " -> " << *Got;
    return ::testing::AssertionSuccess();
  };
  EXPECT_TRUE(Is("0", 0));
  EXPECT_TRUE(Is("1048576", 1048576));
  EXPECT_TRUE(Is("400M", 400ull << 20));
  EXPECT_TRUE(Is("400MiB", 400ull << 20));
  EXPECT_TRUE(Is("400mb", 400ull << 20));
  EXPECT_TRUE(Is(" 2G ", 2ull << 30));
  EXPECT_TRUE(Is("2 GiB", 2ull << 30));
  EXPECT_TRUE(Is("64k", 64ull << 10));
  EXPECT_TRUE(Is("1T", 1ull << 40));
  EXPECT_TRUE(Is("512B", 512));
  for (llvm::StringRef Bad : {"", "M", "-1", "1.5G", "12 apples", "3Gx",
                              "99999999999999999999", "20000000T"}) {
    llvm::Expected<uint64_t> Got = parseByteSize(Bad);
    EXPECT_FALSE(bool(Got)) << Bad.str();
    if (!Got) {
      std::string Message = llvm::toString(Got.takeError());
      EXPECT_NE(Message.find("'" + Bad.str() + "'"), std::string::npos)
          << Message;
    }
  }
  EXPECT_EQ(formatByteSize(87), "87 B");
  EXPECT_EQ(formatByteSize(1536), "1.5 KiB");
  EXPECT_EQ(formatByteSize(400ull << 20), "400 MiB");
  EXPECT_EQ(formatByteSize(1ull << 30), "1.0 GiB");
}

TEST_F(CacheFolderTest, ContentHasherSeesAChange) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/src"));
  std::string File = (Root + "/src/a.cuh").str();
  writeAll(File, "one");
  ContentHasher Hasher;
  auto First = Hasher.hashFile(File);
  ASSERT_TRUE(First);
  EXPECT_EQ(*First, digestOf("one"));
  writeAll(File, "two, longer");
  auto Second = Hasher.hashFile(File);
  ASSERT_TRUE(Second);
  EXPECT_EQ(*Second, digestOf("two, longer"));
  EXPECT_TRUE(dependenciesUnchanged({{File, *Second}}, Hasher));
  EXPECT_FALSE(dependenciesUnchanged({{File, *First}}, Hasher));
  EXPECT_FALSE(dependenciesUnchanged({{File + ".gone", *First}}, Hasher));
}

StoredResult sampleResult() {
  StoredResult R;
  R.Success = true;
  R.Stats.ErrorsDisplayed = 2;
  R.Stats.ErrorsIgnoredNOLINT = 3;
  R.Stats.ErrorsIgnoredLineFilter = 1;
  R.Dependencies = {{"/src/k.cu", digestOf("k")}, {"/inc/h.h", digestOf("h")}};
  R.Missing = {"/inc0/h.h", "/inc1/h.h", "/inc1/other.h", "/src/h.h"};
  R.Found = {"/inc1", "/src/feature.cuh"};
  R.FunctionsNotAnalyzed = {
      "/src/k.cu:3:1: function 'f' was not analyzed: it does not compile"};
  ClangTidyError E("cuda-group-by-value", ClangTidyError::Warning, "/build",
                   true);
  E.Message.Message = "handle passed by value";
  E.Message.FilePath = "/src/k.cu";
  E.Message.FileOffset = 120;
  cantFail(E.Message.Fix["/src/k.cu"].add(
      clang::tooling::Replacement("/src/k.cu", 100, 0, "const ")));
  cantFail(E.Message.Fix["/src/k.cu"].add(
      clang::tooling::Replacement("/src/k.cu", 110, 3, "&t\xff")));
  clang::tooling::FileByteRange Range;
  Range.FilePath = "/src/k.cu";
  Range.FileOffset = 100;
  Range.Length = 12;
  E.Message.Ranges.push_back(Range);
  clang::tooling::DiagnosticMessage Note("the handle is declared here");
  Note.FilePath = "/inc/h.h";
  Note.FileOffset = 7;
  E.Notes.push_back(Note);
  E.EnabledDiagnosticAliases = {"alias-a", "alias-b"};
  R.Errors.push_back(E);
  ClangTidyError Compiler("clang-diagnostic-warning", ClangTidyError::Remark,
                          "", false);
  R.Errors.push_back(Compiler);
  R.Records = {"{\"version\":1}"};
  return R;
}

TEST(ResultEncodingTest, RoundTrips) {
  StoredResult In = sampleResult();
  std::string Bytes = encodeResult(In);
  std::optional<StoredResult> Out = decodeResult(Bytes);
  ASSERT_TRUE(Out);
  EXPECT_EQ(encodeResult(*Out), Bytes);
  ASSERT_EQ(Out->Errors.size(), 2u);
  const ClangTidyError &E = Out->Errors[0];
  EXPECT_EQ(E.DiagnosticName, "cuda-group-by-value");
  EXPECT_EQ(E.BuildDirectory, "/build");
  EXPECT_TRUE(E.IsWarningAsError);
  EXPECT_EQ(E.Message.FileOffset, 120u);
  ASSERT_EQ(E.Message.Fix.count("/src/k.cu"), 1u);
  EXPECT_EQ(E.Message.Fix.find("/src/k.cu")->second.size(), 2u);
  EXPECT_EQ(
      E.Message.Fix.find("/src/k.cu")->second.begin()->getReplacementText(),
      "const ");
  ASSERT_EQ(E.Notes.size(), 1u);
  EXPECT_EQ(E.Notes[0].FilePath, "/inc/h.h");
  EXPECT_EQ(E.EnabledDiagnosticAliases.size(), 2u);
  EXPECT_EQ(Out->Errors[1].DiagLevel, ClangTidyError::Remark);
  EXPECT_EQ(Out->Stats.ErrorsIgnoredNOLINT, 3u);
  EXPECT_EQ(Out->Dependencies[1].Path, "/inc/h.h");
  EXPECT_EQ(Out->Records, In.Records);
  EXPECT_EQ(Out->Missing, In.Missing);
  EXPECT_EQ(Out->Found, In.Found);
  EXPECT_EQ(Out->FunctionsNotAnalyzed, In.FunctionsNotAnalyzed);
}

// Issue 16 F2: what a compile looked up is recorded as missing or found,
// whoever asked (status, open, exists), as absolute paths; and an entry's
// lookups are unchanged only while each answer is the same.
TEST_F(CacheFolderTest, LookupRecorderRecordsWhatWasAndWasNotFound) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/src"));
  writeAll((Root + "/src/h.cuh").str(), "header");
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Real(
      llvm::vfs::createPhysicalFileSystem().release());
  ASSERT_FALSE(Real->setCurrentWorkingDirectory(Root + "/src"));
  auto Lookups = llvm::makeIntrusiveRefCnt<LookupRecorder>(Real);
  EXPECT_FALSE(Lookups->exists("feature.cuh"));       // __has_include
  EXPECT_FALSE(Lookups->openFileForRead(Root + "/inc1/h.cuh")); // earlier -I
  EXPECT_FALSE(Lookups->status(Root + "/src/h.cuh/x")); // ENOTDIR
  EXPECT_TRUE(Lookups->status(Root + "/src"));
  EXPECT_TRUE(Lookups->openFileForRead("h.cuh"));
  const std::string Src = (Root + "/src").str();
  EXPECT_EQ(Lookups->missing(),
            (std::vector<std::string>{(Root + "/inc1/h.cuh").str(),
                                      Src + "/feature.cuh", Src + "/h.cuh/x"}));
  // h.cuh's contents are checked by its digest; only the folder is left.
  EXPECT_EQ(Lookups->found({{Src + "/h.cuh", digestOf("header")}}),
            std::vector<std::string>{Src});
  EXPECT_TRUE(lookupsUnchanged(Lookups->missing(), {Src}));
  writeAll(Src + "/feature.cuh", "");
  EXPECT_FALSE(lookupsUnchanged(Lookups->missing(), {Src}));
  llvm::sys::fs::remove(Src + "/feature.cuh");
  EXPECT_TRUE(lookupsUnchanged(Lookups->missing(), {Src}));
  EXPECT_FALSE(lookupsUnchanged({}, {Src + "/gone"}));
  Lookups->clear();
  EXPECT_TRUE(Lookups->missing().empty());
}

// Issue 39: a compile that failed is kept in the result cache only when
// every lookup that failed found nothing; a file that exists and cannot be
// read (here: the file system says EACCES) makes the failure unkeepable,
// until the recorder is cleared for the next compile.
TEST_F(CacheFolderTest, LookupRecorderTellsUnreadableFromAbsent) {
  struct Denying : llvm::vfs::ProxyFileSystem {
    using ProxyFileSystem::ProxyFileSystem;
    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
    openFileForRead(const llvm::Twine &Path) override {
      if (llvm::sys::path::filename(Path.str()) == "locked.cuh")
        return std::make_error_code(std::errc::permission_denied);
      return ProxyFileSystem::openFileForRead(Path);
    }
  };
  ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/src"));
  writeAll((Root + "/src/locked.cuh").str(), "header");
  auto Lookups = llvm::makeIntrusiveRefCnt<LookupRecorder>(
      llvm::makeIntrusiveRefCnt<Denying>(llvm::vfs::getRealFileSystem()));
  EXPECT_FALSE(Lookups->openFileForRead(Root + "/src/absent.cuh"));
  EXPECT_FALSE(Lookups->sawUnreadable());
  EXPECT_FALSE(Lookups->openFileForRead(Root + "/src/locked.cuh"));
  EXPECT_TRUE(Lookups->sawUnreadable());
  // Neither missing (it is there) nor found (it was not read).
  EXPECT_EQ(Lookups->missing(),
            std::vector<std::string>{(Root + "/src/absent.cuh").str()});
  Lookups->clear();
  EXPECT_FALSE(Lookups->sawUnreadable());
}

TEST(PayloadPathsTest, RoundTripAndDamage) {
  std::vector<std::string> In = {"/a/b/h.cuh", "/a/b/u.cuh", "/a/c/h.cuh",
                                 "/a/c/..", "/x"};
  llvm::sort(In);
  PayloadWriter W;
  W.paths(In);
  W.u8(7);
  std::string Bytes = W.bytes();
  PayloadReader R(Bytes);
  std::vector<std::string> Out;
  ASSERT_TRUE(R.paths(Out));
  EXPECT_EQ(Out, In);
  uint8_t Tail = 0;
  EXPECT_TRUE(R.u8(Tail) && Tail == 7 && R.atEnd());
  for (size_t Keep = 0; Keep + 1 < Bytes.size(); ++Keep) {
    PayloadReader Cut(llvm::StringRef(Bytes).take_front(Keep));
    std::vector<std::string> Ignored;
    EXPECT_FALSE(Cut.paths(Ignored)) << Keep;
  }
}

TEST(ResultEncodingTest, EveryTruncationIsRejected) {
  std::string Bytes = encodeResult(sampleResult());
  for (size_t Keep = 0; Keep < Bytes.size(); ++Keep)
    EXPECT_FALSE(decodeResult(llvm::StringRef(Bytes).take_front(Keep))) << Keep;
  EXPECT_FALSE(decodeResult(Bytes + "x"));
}

TEST(ResultEncodingTest, ACountLargerThanThePayloadIsRejected) {
  std::string Bytes = encodeResult(sampleResult());
  // The dependency count is the u32 after version and success.
  Bytes[5] = Bytes[6] = Bytes[7] = Bytes[8] = '\xff';
  EXPECT_FALSE(decodeResult(Bytes));
}

std::vector<std::string> spellings(llvm::StringRef Text) {
  std::vector<std::string> Out;
  for (const auto &L : scanLeadingIncludes(Text).Includes)
    Out.push_back(L.Spelling);
  return Out;
}

TEST(LeadingIncludesTest, TakesCommentsAndIncludeLines) {
  llvm::StringRef Text = "// RUN: something\n"
                         "/* a block\n   comment */\n"
                         "\n"
                         "#include <cooperative_groups.h>\n"
                         "  #  include \"util.cuh\" // why\n"
                         "#include <cub/cub.cuh> /* one-line */\n"
                         "namespace cg = cooperative_groups;\n"
                         "#include <late.h>\n";
  LeadingIncludes Scan = scanLeadingIncludes(Text);
  ASSERT_EQ(Scan.Includes.size(), 3u);
  EXPECT_EQ(Scan.Includes[0].Spelling, "<cooperative_groups.h>");
  EXPECT_EQ(Scan.Includes[1].Spelling, "\"util.cuh\"");
  EXPECT_EQ(Scan.Includes[2].Spelling, "<cub/cub.cuh>");
  EXPECT_TRUE(Scan.HasQuoted);
  // Each line runs from its first byte to just past its newline.
  EXPECT_EQ(Text.substr(Scan.Includes[0].Begin, 31),
            "#include <cooperative_groups.h>");
  EXPECT_EQ(Text[Scan.Includes[2].End - 1], '\n');
  EXPECT_EQ(Text.substr(Scan.Includes[2].End).take_front(9), "namespace");
}

TEST(LeadingIncludesTest, TakesDirectiveBlocksWhole) {
  // cuda-samples' shape: a Windows-only block among the include lines.
  llvm::StringRef Text = "#include <math.h>\n"
                         "#ifdef _WIN32\n"
                         "#  define WINDOWS_LEAN_AND_MEAN // why\n"
                         "\n"
                         "/* one-line */\n"
                         "#  if defined(X)\n#include \"x.h\"\n#  else\n#  endif\n"
                         "#include <windows.h>\n"
                         "#endif /* _WIN32 */\n"
                         "#define N 4\n"
                         "#undef M\n"
                         "#include <cuda_runtime.h>\n"
                         "int main();\n";
  LeadingIncludes Scan = scanLeadingIncludes(Text);
  ASSERT_EQ(Scan.Includes.size(), 5u);
  EXPECT_EQ(Scan.Includes[0].Spelling, "<math.h>");
  EXPECT_TRUE(llvm::StringRef(Scan.Includes[1].Spelling).starts_with("#ifdef _WIN32\n"));
  EXPECT_TRUE(llvm::StringRef(Scan.Includes[1].Spelling).ends_with("#endif /* _WIN32 */\n"));
  EXPECT_EQ(Text.substr(Scan.Includes[1].Begin,
                        Scan.Includes[1].End - Scan.Includes[1].Begin),
            Scan.Includes[1].Spelling);
  EXPECT_EQ(Scan.Includes[2].Spelling, "#define N 4\n");
  EXPECT_EQ(Scan.Includes[3].Spelling, "#undef M\n");
  EXPECT_EQ(Scan.Includes[4].Spelling, "<cuda_runtime.h>");
  // The block may include a quoted header: the folder is in the key.
  EXPECT_TRUE(Scan.HasQuoted);
  EXPECT_EQ(Text.substr(Scan.Includes[4].End), "int main();\n");
}

TEST(LeadingIncludesTest, StopsAtBlocksWithCodeOrDoubt) {
  // Code in the block, even where the condition is false.
  EXPECT_EQ(spellings("#include <a.h>\n#ifdef X\nint x;\n#endif\n#include <b.h>\n"),
            std::vector<std::string>{"<a.h>"});
  // An unterminated block, an #endif without its #if.
  EXPECT_EQ(spellings("#ifdef X\n#include <b.h>\n"), std::vector<std::string>{});
  EXPECT_EQ(spellings("#endif\n#include <a.h>\n"), std::vector<std::string>{});
  // A continued line, a block comment over lines, #line.
  EXPECT_EQ(spellings("#define F(x) \\\n  (x)\n#include <a.h>\n"),
            std::vector<std::string>{});
  EXPECT_EQ(spellings("#ifdef X\n/* a\n#include <b.h> */\n#endif\n"),
            std::vector<std::string>{});
  EXPECT_EQ(spellings("#if 1\n#line 40\n#endif\n"), std::vector<std::string>{});
  // The last line without its newline.
  EXPECT_EQ(spellings("#ifdef X\n#endif"), std::vector<std::string>{});
  // Only #if/#ifdef/#ifndef open a block; #define and #undef are lines.
  EXPECT_EQ(spellings("#pragma once\n#include <a.h>\n"),
            std::vector<std::string>{});
}

TEST(LeadingIncludesTest, StopsAtEverythingElse) {
  EXPECT_EQ(spellings("#include <a.h>\n#include HEADER\n#include <b.h>\n"),
            std::vector<std::string>{"<a.h>"});
  EXPECT_EQ(spellings("#include_next <a.h>\n"), std::vector<std::string>{});
  EXPECT_EQ(spellings("#include <a.h> extra\n"), std::vector<std::string>{});
  EXPECT_EQ(spellings("#pragma once\n#include <a.h>\n"),
            std::vector<std::string>{});
  // No newline after the last line: it is not taken.
  EXPECT_EQ(spellings("#include <a.h>\n#include <b.h>"),
            std::vector<std::string>{"<a.h>"});
  // A line comment continued by a backslash.
  EXPECT_EQ(spellings("// note \\\n#include <a.h>\n"),
            std::vector<std::string>{});
  // A block comment that ends on the include's line: no clean place to cut.
  EXPECT_EQ(spellings("/* x\n */ #include <a.h>\n"),
            std::vector<std::string>{});
  // An unterminated header name.
  EXPECT_EQ(spellings("#include <a.h\n"), std::vector<std::string>{});
  // A byte-order mark.
  EXPECT_EQ(spellings("\xEF\xBB\xBF#include <a.h>\n"),
            std::vector<std::string>{});
}

TEST(LeadingIncludesTest, EndOfTheLeadingComments) {
  // A preamble of no include line (the force-included CUDA headers alone)
  // may end after the leading comments, at the start of a line.
  EXPECT_EQ(scanLeadingIncludes("// c\n#include <a.h>\n").CommentEnd, 5u);
  EXPECT_EQ(scanLeadingIncludes("// a\n\n__global__ void k() {}\n").CommentEnd,
            6u);
  EXPECT_EQ(scanLeadingIncludes("__global__ void k() {}\n").CommentEnd, 0u);
  EXPECT_EQ(scanLeadingIncludes("// only a comment\n").CommentEnd, 0u);
  EXPECT_EQ(scanLeadingIncludes("/* a\n b */ int x;\n").CommentEnd, 0u);
  LeadingIncludes Scan = scanLeadingIncludes("// c\n#include <a.h>\nint x;\n");
  EXPECT_EQ(Scan.cut(0), 5u);
  EXPECT_EQ(Scan.cut(1), 20u);
}

TEST(LeadingIncludesTest, HandlesCrLf) {
  EXPECT_EQ(spellings("// c\r\n#include <a.h>\r\n#include <b.h>\r\nint x;\r\n"),
            (std::vector<std::string>{"<a.h>", "<b.h>"}));
}

TEST(LeadingIncludesTest, SignatureNamesTheFolderOnlyForQuotedIncludes) {
  LeadingIncludes Angled = scanLeadingIncludes("#include <a.h>\n");
  EXPECT_EQ(preambleSignature(Angled, "/p/one/x.cu"),
            preambleSignature(Angled, "/p/two/y.cu"));
  LeadingIncludes Quoted = scanLeadingIncludes("#include \"a.h\"\n");
  EXPECT_NE(preambleSignature(Quoted, "/p/one/x.cu"),
            preambleSignature(Quoted, "/p/two/y.cu"));
  EXPECT_EQ(preambleSignature(Quoted, "/p/one/x.cu"),
            preambleSignature(Quoted, "/p/one/z.cu"));
}

// Several files: each preamble stops at the first lines another file starts
// with too, so two files that share only <a.h> share its preamble (one
// group). EachAlone (the few files a warm run parses, issue 21): each file
// gets the preamble of all its lines, as a run of it alone, which a later
// run of it alone finds; the two have no preamble in common.
TEST_F(CacheFolderTest, PlanEachAloneKeepsEveryIncludeLine) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/src"));
  const std::string A = (Root + "/src/a.cu").str();
  const std::string B = (Root + "/src/b.cu").str();
  const std::string C = (Root + "/src/c.cu").str();
  writeAll(A, "#include <a.h>\n#include <b.h>\nint a;\n");
  writeAll(B, "#include <a.h>\n#include <c.h>\nint b;\n");
  writeAll(C, "#include <a.h>\n#include <b.h>\nint c;\n");
  ContentHasher Hasher;
  CacheCounters Counters;
  PreambleCache Shared(nullptr, Hasher, Counters);
  EXPECT_EQ(Shared.planRun({A, B}),
            (std::vector<std::vector<size_t>>{{0, 1}}));
  PreambleCache Alone(nullptr, Hasher, Counters);
  EXPECT_EQ(Alone.planRun({A, B}, /*EachAlone=*/true),
            (std::vector<std::vector<size_t>>{{0}, {1}}));
  // Files with the same lines still start from one preamble.
  EXPECT_EQ(Alone.planRun({A, B, C}, /*EachAlone=*/true),
            (std::vector<std::vector<size_t>>{{0, 2}, {1}}));
}

} // namespace
