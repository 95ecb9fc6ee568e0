//===--- UserFiles.cpp - the user's files a translation unit entered -------===//

#include "checks/UserFiles.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::cuda {

namespace {
thread_local const PreambleReplay *CurrentReplay = nullptr;

class Tracker : public PPCallbacks {
public:
  Tracker(const SourceManager &SM, std::shared_ptr<UserFiles> Into)
      : SM(SM), Into(std::move(Into)) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind FileType,
                   FileID PrevFID) override {
    if (Reason != EnterFile || SrcMgr::isSystem(FileType))
      return;
    FileID FID = SM.getFileID(Loc);
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(FID);
    if (!Entry || !Into->Seen.insert(&Entry->getFileEntry()).second)
      return;
    Into->Files.push_back(FID);
    // A full parse enters the preamble's user headers next.
    const PreambleReplay *Replay = PreambleReplay::current();
    if (!Replay || FID != SM.getMainFileID())
      return;
    std::vector<FileID> Entered;
    Replay->replay(SM, Entered, Into->Skipped);
    for (FileID Header : Entered)
      if (OptionalFileEntryRef File = SM.getFileEntryRefForID(Header))
        if (Into->Seen.insert(&File->getFileEntry()).second)
          Into->Files.push_back(Header);
  }

  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    Into->Skipped.push_back(Range);
  }

private:
  const SourceManager &SM;
  std::shared_ptr<UserFiles> Into;
};

} // namespace

void PreambleReplay::set(const PreambleReplay *Replay) {
  CurrentReplay = Replay;
}
const PreambleReplay *PreambleReplay::current() { return CurrentReplay; }

std::vector<FileID> UserFiles::withMainFile() const {
  std::vector<FileID> Out = Files;
  if (SM && SM->getMainFileID().isValid() &&
      !llvm::is_contained(Out, SM->getMainFileID()))
    Out.insert(Out.begin(), SM->getMainFileID());
  return Out;
}

bool UserFiles::isSkipped(SourceLocation Loc) const {
  if (!SM)
    return false;
  const FileID FID = SM->getFileID(Loc);
  return llvm::any_of(Skipped, [&](const SourceRange &Range) {
    return SM->getFileID(Range.getBegin()) == FID &&
           !SM->isBeforeInTranslationUnit(Loc, Range.getBegin()) &&
           SM->isBeforeInTranslationUnit(Loc, Range.getEnd());
  });
}

std::unique_ptr<PPCallbacks> trackUserFiles(const SourceManager &SM,
                                            std::shared_ptr<UserFiles> Into) {
  Into->SM = &SM;
  return std::make_unique<Tracker>(SM, std::move(Into));
}

} // namespace clang::tidy::cuda
