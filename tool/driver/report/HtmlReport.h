//===--- HtmlReport.h - a static report of findings for people ------------===//
//
// `--format=html --output=DIR`: a folder a reviewer opens in a browser, with
// no server and no network. index.html lists the findings (sortable and
// filterable by check, file and tier where JavaScript runs; a plain table
// where it does not), and finding-N.html shows one finding over its source:
// each note on its line as a numbered step of the path, the warning as the
// last step, fix-its as a diff, and a link to the check's page. Everything
// that comes from the code (source text, file names, messages) is escaped.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_HTMLREPORT_H
#define CUDA_TIDY_TOOL_DRIVER_HTMLREPORT_H

#include "tool/driver/report/Findings.h"
#include "tool/driver/report/Reporters.h"
#include "llvm/Support/Error.h"

namespace clang::tidy::cuda::driver {

/// The file that marks a folder as one cuda-tidy wrote a report into. It
/// lists the pages it wrote there: a later report replaces and deletes
/// those, and no other file.
inline constexpr llvm::StringLiteral HtmlReportMarker = ".cuda-tidy-report";

/// Whether \p Dir may take a report, asked before any file is analyzed: a
/// folder that does not exist yet (and whose name does not end in .html),
/// an empty folder, or one holding the marker; writable. Else an error
/// that says why (a usage error: exit 2).
llvm::Error checkHtmlReportFolder(llvm::StringRef Dir);

/// Writes the report into \p Dir (checked again, created if missing; each
/// page and the marker written atomically). \p Lines gives the source text,
/// read once per file.
llvm::Error writeHtmlReport(llvm::StringRef Dir,
                            const std::vector<Finding> &Findings,
                            const ReportContext &Context, SourceLines &Lines);

} // namespace clang::tidy::cuda::driver

#endif
