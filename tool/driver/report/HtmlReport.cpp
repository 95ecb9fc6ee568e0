//===--- HtmlReport.cpp - a static report of findings for people ----------===//

#include "tool/driver/report/HtmlReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace clang::tidy::cuda::driver {
namespace {

/// Lines of context shown around a step; windows closer than twice this
/// are shown as one.
constexpr unsigned ContextLines = 3;

const char *const Style = R"(<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#1b1b1b}
h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}
table{border-collapse:collapse}
#findings th,#findings td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
#findings th{background:#f2f2f2;cursor:pointer}
.tier-definite{color:#a00}.tier-potential{color:#a60}.tier-guideline{color:#555}.tier-advisory{color:#06a}.tier-compiler-error{color:#600}
.source{font:13px/1.35 ui-monospace,monospace;border:1px solid #ddd;margin:.5em 0}
.source td{padding:0 .6em;white-space:pre}
.source .ln{color:#888;text-align:right;user-select:none}
.source tr.hit .code{background:#fff3c4}
.source tr.step td{white-space:normal;background:#eef4ff;font-family:system-ui,sans-serif}
.source tr.step.warning td{background:#ffe3e0}
.n{display:inline-block;min-width:1.4em;padding:0 .3em;margin-right:.4em;border-radius:.7em;background:#2456b3;color:#fff;text-align:center;font-weight:bold}
.warning .n{background:#b3241f}
.gap td{color:#888}
.diff{font:13px/1.35 ui-monospace,monospace;white-space:pre;border:1px solid #ddd;padding:.4em}
.del{background:#ffe3e0;display:block}.add{background:#e2f6e2;display:block}
#filters select{margin-right:1em}
</style>
)";

/// Sorting and filtering of the index; the table reads the same without it.
const char *const IndexScript = R"(<script>
(function(){
var t=document.getElementById('findings');if(!t)return;
var rows=Array.prototype.slice.call(t.tBodies[0].rows);
var f=document.getElementById('filters');f.hidden=false;
['check','file','tier'].forEach(function(k){
 var s=document.getElementById('filter-'+k),seen={};
 rows.forEach(function(r){var v=r.dataset[k];if(!seen[v]){seen[v]=1;var o=document.createElement('option');o.value=v;o.textContent=v;s.appendChild(o);}});
 s.onchange=apply;});
function apply(){rows.forEach(function(r){var show=['check','file','tier'].every(function(k){var v=document.getElementById('filter-'+k).value;return !v||r.dataset[k]===v;});r.hidden=!show;});}
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){th.onclick=function(){
 var d=th.dataset.dir==='a'?'d':'a';th.dataset.dir=d;
 rows.sort(function(a,b){var x=a.cells[i].dataset.key||a.cells[i].textContent,y=b.cells[i].dataset.key||b.cells[i].textContent;
  var c=(+x===+x&&+y===+y)?(+x)-(+y):x.localeCompare(y);return d==='a'?c:-c;});
 rows.forEach(function(r){t.tBodies[0].appendChild(r);});};});
})();
</script>
)";

std::string tierClass(llvm::StringRef Tier) {
  std::string Class = "tier-" + Tier.str();
  llvm::replace(Class, ' ', '-');
  return Class;
}

std::string where(const SourcePoint &P, const ReportContext &Context) {
  if (P.File.empty())
    return "(no file)";
  return relativeTo(P.File, Context.Root) + ":" + std::to_string(P.Line) +
         ":" + std::to_string(P.Column);
}

std::string pageName(size_t Index) {
  return "finding-" + std::to_string(Index + 1) + ".html";
}

void pageStart(llvm::raw_ostream &OS, llvm::StringRef Title) {
  OS << "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
     << "<meta name='viewport' content='width=device-width'>\n<title>"
     << escapeMarkup(Title) << "</title>\n"
     << Style << "</head>\n<body>\n";
}

/// A step of a finding's path: where, what, and whether it is the warning.
struct Step {
  unsigned Number;
  SourcePoint Where;
  std::string Message;
  bool IsWarning;
};

/// Where a step of a divergence finding's path comes in the story it tells,
/// from its message (checks/DivergenceNotes.cpp and the checks' notes): 0
/// the value that differs between threads, 1 the argument that carries it
/// into a call, 2 the condition on it, 3 the exit some threads take, 4 the
/// call that reaches the barrier, 5 the barrier or collective. None for a
/// step of another kind.
std::optional<unsigned> causalRank(const Step &S) {
  const llvm::StringRef M = S.Message;
  if (S.IsWarning)
    return M.starts_with("call to '") ? 4 : 5;
  if (M.starts_with("this argument "))
    return 1;
  if (M.starts_with("this condition") ||
      M.starts_with("the lanes that reach the call are decided by this "
                    "condition"))
    return 2;
  if (M.starts_with("threads that take this '") ||
      M.starts_with("lanes that take this '"))
    return 3;
  if (M.ends_with("' is called here") || M.contains("' is called here with "))
    return 5;
  if (M.contains("' calls '") || M.starts_with("called by '"))
    return 4;
  for (const llvm::StringRef Origin :
       {" depends on ", " is loaded from shared memory",
        " is assigned under a condition", " is updated in a loop",
        " is written by inline assembly", " is not uniform across the "})
    if (M.contains(Origin))
      return 0;
  return std::nullopt;
}

/// The source of one file with \p Steps (all in that file) placed under
/// their lines, in windows of context around them.
void writeSource(llvm::raw_ostream &OS, llvm::StringRef File,
                 const std::vector<const Step *> &Steps, SourceLines &Lines) {
  std::map<unsigned, std::vector<const Step *>> ByLine;
  for (const Step *S : Steps)
    ByLine[S->Where.Line].push_back(S);
  // Windows [First, Last] of lines to show, merged when close.
  std::vector<std::pair<unsigned, unsigned>> Windows;
  for (const auto &[Line, _] : ByLine) {
    const unsigned First = Line > ContextLines ? Line - ContextLines : 1;
    const unsigned Last = Line + ContextLines;
    if (!Windows.empty() && First <= Windows.back().second + ContextLines + 1)
      Windows.back().second = std::max(Windows.back().second, Last);
    else
      Windows.emplace_back(First, Last);
  }
  OS << "<table class='source'>\n";
  bool FirstWindow = true;
  for (auto [First, Last] : Windows) {
    if (!FirstWindow)
      OS << "<tr class='gap'><td class='ln'>&#8942;</td><td></td></tr>\n";
    FirstWindow = false;
    for (unsigned Line = First; Line <= Last; ++Line) {
      llvm::StringRef Text = Lines.lineText(File, Line);
      // Past the end of the file, lineText is empty: stop at the first
      // empty line past every step.
      if (Text.empty() && Line > ByLine.rbegin()->first)
        break;
      const auto It = ByLine.find(Line);
      OS << "<tr id='L" << Line << "'" << (It != ByLine.end() ? " class='hit'" : "")
         << "><td class='ln'>" << Line << "</td><td class='code'>"
         << escapeMarkup(Text) << "</td></tr>\n";
      if (It == ByLine.end())
        continue;
      for (const Step *S : It->second)
        OS << "<tr class='step" << (S->IsWarning ? " warning" : "")
           << "' data-line='" << Line << "'><td></td><td><span class='n'>"
           << S->Number << "</span>" << escapeMarkup(S->Message) << "</td></tr>\n";
    }
  }
  OS << "</table>\n";
}

/// The fix-its of one file as the lines they change, before and after, all
/// applied together (a fix-it is often several edits on one line).
void writeFixDiff(llvm::raw_ostream &OS, llvm::StringRef File,
                  std::vector<const FindingFix *> Fixes,
                  const ReportContext &Context, SourceLines &Lines) {
  unsigned First = 0;
  unsigned Last = 0;
  for (const FindingFix *Fix : Fixes) {
    if (!Fix->Begin.Line || Fix->End.Line < Fix->Begin.Line) {
      // No line to show it against: the inserted text alone.
      OS << "<p>" << escapeMarkup(relativeTo(File, Context.Root))
         << ":</p>\n<div class='diff'><span class='add'>+ "
         << escapeMarkup(Fix->Replacement) << "</span></div>\n";
      return;
    }
    First = First ? std::min(First, Fix->Begin.Line) : Fix->Begin.Line;
    Last = std::max(Last, Fix->End.Line);
  }
  // The lines, and where each starts in Before.
  std::string Before;
  std::vector<size_t> LineStart;
  for (unsigned Line = First; Line <= Last; ++Line) {
    if (Line > First)
      Before += "\n";
    LineStart.push_back(Before.size());
    Before += Lines.lineText(File, Line).str();
  }
  auto OffsetOf = [&](const SourcePoint &P) {
    // Columns are 1-based byte positions within their lines.
    return std::min<size_t>(LineStart[P.Line - First] + P.Column - 1,
                            Before.size());
  };
  // Applied from the last edit back, so earlier offsets stay right.
  llvm::sort(Fixes, [](const FindingFix *A, const FindingFix *B) {
    return A->Offset > B->Offset;
  });
  std::string After = Before;
  for (const FindingFix *Fix : Fixes) {
    const size_t Start = OffsetOf(Fix->Begin);
    const size_t Stop = std::max(Start, OffsetOf(Fix->End));
    After.replace(Start, Stop - Start, Fix->Replacement);
  }
  OS << "<p>" << escapeMarkup(relativeTo(File, Context.Root)) << ", line"
     << (First == Last ? " " : "s ") << First;
  if (Last != First)
    OS << "&ndash;" << Last;
  OS << ":</p>\n<div class='diff'>";
  for (llvm::StringRef Line : llvm::split(Before, '\n'))
    OS << "<span class='del'>- " << escapeMarkup(Line) << "</span>";
  for (llvm::StringRef Line : llvm::split(After, '\n'))
    OS << "<span class='add'>+ " << escapeMarkup(Line) << "</span>";
  OS << "</div>\n";
}

void writeFindingPage(llvm::raw_ostream &OS, const Finding &F, size_t Index,
                      size_t Count, const ReportContext &Context,
                      SourceLines &Lines) {
  pageStart(OS, F.Check + ": " + where(F.Where, Context));
  OS << "<p><a href='index.html'>All findings</a>";
  if (Index > 0)
    OS << " &middot; <a href='" << pageName(Index - 1) << "'>previous</a>";
  if (Index + 1 < Count)
    OS << " &middot; <a href='" << pageName(Index + 1) << "'>next</a>";
  OS << "</p>\n<h1 class='" << tierClass(tierOf(F)) << "'>"
     << escapeMarkup(F.Message) << "</h1>\n<p>"
     << escapeMarkup(where(F.Where, Context)) << " &middot; ";
  if (std::string Doc = checkDocumentationUri(F.Check, Context); !Doc.empty())
    OS << "<a class='check' href='" << escapeMarkup(Doc) << "'>"
       << escapeMarkup(F.Check) << "</a>";
  else
    OS << "<span class='check'>" << escapeMarkup(F.Check) << "</span>";
  OS << " &middot; <span class='tier " << tierClass(tierOf(F)) << "'>"
     << escapeMarkup(tierOf(F)) << "</span></p>\n";

  // The path, numbered in causal order (issue 37 §3): where the
  // thread-dependent value comes from, the condition on it, the exit, the
  // call, the barrier, whatever their order in the source (a callee defined
  // above its caller puts the condition first there). The checks emit their
  // notes in no such order. A finding with a note of another kind keeps
  // source order. Within a kind, and in source order, steps in the
  // warning's file come first; at one place the notes go before the
  // warning. (Number holds the note's index until then: equal places keep
  // the checks' order.)
  std::vector<Step> Steps;
  Steps.reserve(F.Notes.size() + 1);
  for (const FindingNote &N : F.Notes)
    Steps.push_back({static_cast<unsigned>(Steps.size()), N.Where, N.Message,
                     false});
  Steps.push_back({static_cast<unsigned>(Steps.size()), F.Where, F.Message,
                   true});
  const bool Causal = llvm::all_of(
      Steps, [](const Step &S) { return causalRank(S).has_value(); });
  llvm::sort(Steps, [&](const Step &A, const Step &B) {
    auto Key = [&](const Step &S) {
      return std::make_tuple(Causal ? *causalRank(S) : 0,
                             S.Where.File != F.Where.File, S.Where.File,
                             S.Where.Line, S.Where.Column, S.IsWarning,
                             S.Number);
    };
    return Key(A) < Key(B);
  });
  for (size_t I = 0; I < Steps.size(); ++I)
    Steps[I].Number = static_cast<unsigned>(I + 1);
  OS << "<h2>Path</h2>\n<ol class='path'>\n";
  for (const Step &S : Steps)
    OS << "<li" << (S.IsWarning ? " class='warning'" : "") << ">"
       << escapeMarkup(where(S.Where, Context)) << ": "
       << escapeMarkup(S.Message) << "</li>\n";
  OS << "</ol>\n";
  // The source of each file the path goes through, the warning's first.
  std::vector<std::string> Files;
  if (F.Where.Line)
    Files.push_back(F.Where.File);
  for (const Step &S : Steps)
    if (S.Where.Line && !S.Where.File.empty() && !llvm::is_contained(Files, S.Where.File))
      Files.push_back(S.Where.File);
  for (const std::string &File : Files) {
    std::vector<const Step *> InFile;
    for (const Step &S : Steps)
      if (S.Where.File == File && S.Where.Line)
        InFile.push_back(&S);
    OS << "<h2 class='file'>" << escapeMarkup(relativeTo(File, Context.Root))
       << "</h2>\n";
    writeSource(OS, File, InFile, Lines);
  }
  if (!F.Fixes.empty()) {
    OS << "<h2>Fix-it</h2>\n";
    std::map<std::string, std::vector<const FindingFix *>> ByFile;
    for (const FindingFix &Fix : F.Fixes)
      ByFile[Fix.File].push_back(&Fix);
    for (const auto &[File, Fixes] : ByFile)
      writeFixDiff(OS, File, Fixes, Context, Lines);
  }
  OS << "</body>\n</html>\n";
}

void writeIndex(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const ReportContext &Context) {
  pageStart(OS, "cuda-tidy: " + std::to_string(Findings.size()) +
                    (Findings.size() == 1 ? " finding" : " findings"));
  OS << "<h1>cuda-tidy " << escapeMarkup(Context.ToolVersion) << ": <span id='count'>"
     << Findings.size() << "</span> finding" << (Findings.size() == 1 ? "" : "s")
     << "</h1>\n";
  std::map<std::string, unsigned> ByCheck;
  std::map<std::string, unsigned> ByTier;
  for (const Finding &F : Findings) {
    ++ByCheck[F.Check];
    ++ByTier[tierOf(F).str()];
  }
  OS << "<p>";
  llvm::StringRef Separator;
  for (const auto &[Tier, N] : ByTier) {
    OS << Separator << N << " " << escapeMarkup(Tier);
    Separator = ", ";
  }
  OS << "</p>\n<ul class='checks'>\n";
  for (const auto &[Check, N] : ByCheck)
    OS << "<li>" << escapeMarkup(Check) << ": " << N << "</li>\n";
  OS << "</ul>\n<p id='filters' hidden>"
     << "<label>check <select id='filter-check'><option value=''>all</option></select></label>"
     << "<label>file <select id='filter-file'><option value=''>all</option></select></label>"
     << "<label>tier <select id='filter-tier'><option value=''>all</option></select></label></p>\n"
     << "<table id='findings'>\n<thead><tr><th>#</th><th>tier</th><th>check</th>"
        "<th>file</th><th>line</th><th>message</th></tr></thead>\n<tbody>\n";
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    const std::string File =
        F.Where.File.empty() ? "(no file)" : relativeTo(F.Where.File, Context.Root);
    OS << "<tr class='finding' data-check='" << escapeMarkup(F.Check)
       << "' data-file='" << escapeMarkup(File) << "' data-tier='"
       << escapeMarkup(tierOf(F)) << "'><td>" << I + 1 << "</td><td class='"
       << tierClass(tierOf(F)) << "'>" << escapeMarkup(tierOf(F))
       << "</td><td>" << escapeMarkup(F.Check) << "</td><td>"
       << escapeMarkup(File) << "</td><td>" << F.Where.Line
       << "</td><td><a href='" << pageName(I) << "'>"
       << escapeMarkup(F.Message) << "</a></td></tr>\n";
  }
  OS << "</tbody>\n</table>\n" << IndexScript << "</body>\n</html>\n";
}

llvm::Error writePage(llvm::StringRef Dir, llvm::StringRef Name,
                      llvm::function_ref<void(llvm::raw_ostream &)> Write) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Name);
  return llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    Write(OS);
    return llvm::Error::success();
  });
}

/// The marker's first line: a file of that name that does not start with
/// it is not cuda-tidy's.
constexpr llvm::StringLiteral MarkerSignature = "cuda-tidy HTML report";

/// True for the names of the pages a report writes: index.html and
/// finding-N.html. Nothing else is ever deleted, whatever a marker says.
bool isPageName(llvm::StringRef Name) {
  if (Name == "index.html")
    return true;
  if (!Name.consume_front("finding-") || !Name.consume_back(".html"))
    return false;
  return !Name.empty() && llvm::all_of(Name, llvm::isDigit);
}

/// The pages \p Dir's marker lists; none when \p Dir has no marker, an
/// error when the file of that name is not cuda-tidy's.
llvm::Expected<std::optional<std::set<std::string>>>
readMarker(llvm::StringRef Dir) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, HtmlReportMarker);
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
    if (EC == std::errc::no_such_file_or_directory)
      return std::nullopt;
    return llvm::createStringError(EC, "cannot read its " +
                                           HtmlReportMarker.str());
  }
  auto NotOurs = [] {
    return llvm::createStringError(
        "its " + HtmlReportMarker.str() +
        " is not one cuda-tidy wrote; name a new or empty folder");
  };
  // A report of a million findings lists about 20 MB of names.
  constexpr uint64_t MaxBytes = 64u << 20;
  if (Status.type() != llvm::sys::fs::file_type::regular_file ||
      Status.getSize() > MaxBytes)
    return NotOurs();
  auto Text = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Text || !(*Text)->getBuffer().starts_with(MarkerSignature))
    return NotOurs();
  std::set<std::string> Pages;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : llvm::drop_begin(Lines))
    if (isPageName(Line.rtrim("\r")))
      Pages.insert(Line.rtrim("\r").str());
  return Pages;
}

llvm::Error writeMarker(llvm::StringRef Dir,
                        const std::set<std::string> &Pages) {
  return writePage(Dir, HtmlReportMarker, [&](llvm::raw_ostream &OS) {
    OS << MarkerSignature
       << "\n# cuda-tidy wrote the pages below. A later report into this "
          "folder replaces them and deletes no other file.\n";
    for (const std::string &Page : Pages)
      OS << Page << "\n";
  });
}

} // namespace

llvm::Error checkHtmlReportFolder(llvm::StringRef Dir) {
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Dir, Status)) {
    if (EC != std::errc::no_such_file_or_directory)
      return llvm::createStringError(EC, "cannot read the folder");
    // A new folder named like a page is a mistake for a page.
    llvm::StringRef Extension = llvm::sys::path::extension(Dir);
    if (Extension.equals_insensitive(".html") ||
        Extension.equals_insensitive(".htm")) {
      llvm::SmallString<256> Folder(Dir);
      llvm::sys::path::replace_extension(Folder, "");
      return llvm::createStringError(
          "--format=html writes a folder of pages (index.html and "
          "finding-N.html), not one page; name a folder, such as --output=" +
          Folder.str().str());
    }
    // The folder is made after the analysis: its nearest existing parent
    // must take it.
    llvm::SmallString<256> Parent(Dir);
    (void)llvm::sys::fs::make_absolute(Parent);
    while (!Parent.empty() && !llvm::sys::fs::exists(Parent))
      Parent = llvm::sys::path::parent_path(Parent);
    if (!Parent.empty() && !llvm::sys::fs::is_directory(Parent))
      return llvm::createStringError("cannot make the folder: '" +
                                     Parent.str().str() + "' is not a folder");
    if (!Parent.empty() &&
        llvm::sys::fs::access(Parent, llvm::sys::fs::AccessMode::Write))
      return llvm::createStringError("cannot make the folder: '" +
                                     Parent.str().str() + "' is not writable");
    return llvm::Error::success();
  }
  if (Status.type() != llvm::sys::fs::file_type::directory_file)
    return llvm::createStringError(
        "not a folder (--format=html writes a folder of pages)");
  if (llvm::sys::fs::access(Dir, llvm::sys::fs::AccessMode::Write))
    return llvm::createStringError("the folder is not writable");
  auto Marker = readMarker(Dir);
  if (!Marker)
    return Marker.takeError();
  if (*Marker)
    return llvm::Error::success();
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot list the folder");
  if (It != llvm::sys::fs::directory_iterator())
    return llvm::createStringError(
        "the folder holds files that cuda-tidy did not write (no " +
        HtmlReportMarker.str() + " in it); name a new or empty folder");
  return llvm::Error::success();
}

llvm::Error writeHtmlReport(llvm::StringRef Dir,
                            const std::vector<Finding> &Findings,
                            const ReportContext &Context, SourceLines &Lines) {
  // Checked before the analysis too; the folder may have changed since.
  if (llvm::Error E = checkHtmlReportFolder(Dir))
    return E;
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create the folder");
  auto Marker = readMarker(Dir);
  if (!Marker)
    return Marker.takeError();
  const std::set<std::string> Earlier = Marker->value_or(std::set<std::string>{});
  std::set<std::string> Pages = {"index.html"};
  for (size_t I = 0; I < Findings.size(); ++I)
    Pages.insert(pageName(I));
  // A file the user put in a report folder since is never overwritten,
  // even one named like a page.
  for (const std::string &Page : Pages) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Page);
    if (!Earlier.count(Page) && llvm::sys::fs::exists(Path))
      return llvm::createStringError(
          "'" + Page + "' in the folder was not written by cuda-tidy; move "
          "it away or name another folder");
  }
  // Listed before they are written: a run stopped half-way leaves no page
  // of its own unlisted, to be refused or kept forever by the next one.
  std::set<std::string> Both = Earlier;
  Both.insert(Pages.begin(), Pages.end());
  if (llvm::Error E = writeMarker(Dir, Both))
    return E;
  for (size_t I = 0; I < Findings.size(); ++I)
    if (llvm::Error E = writePage(Dir, pageName(I), [&](llvm::raw_ostream &OS) {
          writeFindingPage(OS, Findings[I], I, Findings.size(), Context, Lines);
        }))
      return E;
  if (llvm::Error E = writePage(Dir, "index.html", [&](llvm::raw_ostream &OS) {
        writeIndex(OS, Findings, Context);
      }))
    return E;
  // The pages of an earlier, longer report must not outlive it; only those
  // cuda-tidy listed as its own go.
  for (const std::string &Page : Earlier) {
    if (Pages.count(Page))
      continue;
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Page);
    (void)llvm::sys::fs::remove(Path);
  }
  return writeMarker(Dir, Pages);
}

} // namespace clang::tidy::cuda::driver
