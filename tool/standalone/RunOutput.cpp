//===--- RunOutput.cpp - what a run reports -------------------------------===//
//
// The last steps of a run (StandaloneRun.h): findings admitted through the
// gates as each file finishes and printed, the progress line, the results
// written (baseline, report, fixes), the summary and the exit code.
//
//===----------------------------------------------------------------------===//

#include "tool/standalone/StandaloneRun.h"

#include "llvm/Support/Timer.h"

namespace cuda_tidy_standalone {

/// What turns a finding into its report: the names (from Root), the
/// printer of the text format.
void StandaloneRun::prepareReporting() {
  Maker = std::make_unique<FindingMaker>(Lines, Root);
  PrintingFS = new llvm::vfs::OverlayFileSystem(workerFileSystem(Root));
  PrintingContext = std::make_unique<ClangTidyContext>(createOptionsProvider(),
                                                       false, false, false);
}

/// Findings pass the gates as each file finishes, in input order, and in
/// text they are printed then: a long run shows its findings as it goes,
/// and a CI timeout does not lose them. Compiler errors always show: a gate
/// must not hide a file it could not analyze.
void StandaloneRun::admit(llvm::ArrayRef<ClangTidyError> New) {
  std::vector<ClangTidyError> Shown;
  std::vector<const Finding *> ShownFindings;
  for (const ClangTidyError &Error : New) {
    Finding F = Maker->make(Error);
    // --compile-errors=warn: the file is reported as not analyzed, at
    // warning level in the machine formats (Reporters.h).
    if (F.IsCompilerError && CompileErrors == CompileErrorMode::Warn)
      F.Level = Finding::Severity::Warning;
    AllFindings.push_back(F);
    if (!F.IsCompilerError) {
      if (BaselineFingerprints &&
          BaselineFingerprints->contains(F.Fingerprint)) {
        ++HiddenByBaseline;
        continue;
      }
      if (Changed && !Changed->contains(F.Where.File, F.Where.Line)) {
        ++HiddenByDiff;
        continue;
      }
    }
    Errors.push_back(Error);
    Shown.push_back(Error);
    Findings.push_back(std::move(F));
  }
  for (size_t I = Findings.size() - Shown.size(); I < Findings.size(); ++I)
    ShownFindings.push_back(&Findings[I]);
  // clang-tidy's handleErrors prints; fixes are ours to write (FixApplier
  // keeps permissions, writes atomically, refuses a file changed
  // meanwhile).
  if (Format == OutputFormat::Text && !Shown.empty()) {
    // File names a terminal would act on (ESC sequences) or that are not
    // UTF-8 are printed escaped (issue 16 F19).
    auto [Printable, PrintFS] = withPrintableFileNames(Shown, PrintingFS);
    if (NoExplain) {
      handleErrors(Printable, *PrintingContext, FB_NoFix,
                   WarningsAsErrorsCount, PrintFS);
    } else {
      // Each finding, then the line that says how to fix it (issue 37 §3):
      // a note in clang's form, so editors attach it to the finding.
      for (size_t I = 0; I < Printable.size(); ++I) {
        handleErrors(llvm::ArrayRef(Printable[I]), *PrintingContext, FB_NoFix,
                     WarningsAsErrorsCount, PrintFS);
        const std::string Line =
            explanationLine(*ShownFindings[I], Printable[I].Message.FilePath,
                            clang::tidy::cuda::driver::ReportContext());
        if (!Line.empty())
          llvm::outs() << Line << "\n";
      }
    }
    llvm::outs().flush();
  }
}

void StandaloneRun::showProgress(size_t Done, size_t Found) {
  std::string Line = "[" + std::to_string(Done) + "/" +
                     std::to_string(Inputs.size()) + " files] " +
                     countOf(Found, "finding");
  llvm::errs() << "\r" << Line;
  if (Line.size() < ProgressWidth)
    llvm::errs() << std::string(ProgressWidth - Line.size(), ' ') << "\r"
                 << Line;
  ProgressWidth = Line.size();
  if (Done == Inputs.size()) {
    llvm::errs() << "\n";
    ProgressWidth = 0;
  }
  llvm::errs().flush();
}

/// Anything else printed during the run first clears the progress line.
void StandaloneRun::clearProgress() {
  if (!ProgressWidth)
    return;
  llvm::errs() << "\r" << std::string(ProgressWidth, ' ') << "\r";
  llvm::errs().flush();
  ProgressWidth = 0;
}

/// --write-baseline, the report in its format, the fixes, --export-fixes.
StandaloneRun::Stop StandaloneRun::writeResults() {
  if (!WriteBaseline.empty())
    if (llvm::Error E = writeBaseline(WriteBaseline, AllFindings, Root)) {
      error("cannot write baseline '" + WriteBaseline +
            "': " + llvm::toString(std::move(E)));
      return ExitUsageError;
    }

  if (Format != OutputFormat::Text) {
    WarningsAsErrorsCount = llvm::count_if(
        Errors, [](const ClangTidyError &E) { return E.IsWarningAsError; });
    clang::tidy::cuda::driver::ReportContext Report;
    Report.Root = Root.str().str();
    Report.ToolVersion = CUDA_TIDY_VERSION;
    Report.Inputs = Inputs;
    auto Write = [&](llvm::raw_ostream &OS) {
      switch (Format) {
      case OutputFormat::Json:
        writeJson(OS, Findings, Report);
        break;
      case OutputFormat::Sarif:
        writeSarif(OS, Findings, Report);
        break;
      case OutputFormat::RdJson:
        writeRdJson(OS, Findings, Report);
        break;
      case OutputFormat::CodeQuality:
        writeCodeQuality(OS, Findings, Report);
        break;
      case OutputFormat::JUnit:
        writeJUnit(OS, Findings, Report);
        break;
      default:
        writeGitHubAnnotations(OS, Findings, Report);
      }
    };
    if (Format == OutputFormat::Html) {
      if (llvm::Error E =
              writeHtmlReport(OutputFile, Findings, Report, Lines)) {
        error("--format=html --output=" + escapeForTerminal(OutputFile) +
              ": " + escapeForTerminal(llvm::toString(std::move(E))));
        return ExitUsageError;
      }
    } else if (OutputFile.empty()) {
      Write(llvm::outs());
    } else if (llvm::Error E = llvm::writeToOutput(
                   OutputFile, [&](llvm::raw_ostream &OS) {
                     Write(OS);
                     return llvm::Error::success();
                   })) {
      error("cannot write '" + OutputFile +
            "': " + llvm::toString(std::move(E)));
      return ExitUsageError;
    }
  }

  FixBehaviour Behaviour = FixNotes             ? FB_FixNotes
                           : (Fix || FixErrors) ? FB_Fix
                                                : FB_NoFix;
  if (FoundCompilerErrors && !FixErrors)
    Behaviour = FB_NoFix;
  if (Behaviour != FB_NoFix) {
    // For tests/lit/cli/fix-header-edited-during-run.test only: hold here,
    // after every file was read and before any fix is written, until the
    // test has opened and closed the FIFO this names (it edits a header in
    // between). An #include of a FIFO, which the test once held the parse
    // with, is refused since issue 16 F12.
    if (std::optional<std::string> Gate =
            llvm::sys::Process::GetEnv("CUDA_TIDY_TEST_FIX_GATE"))
      if (int FD = ::open(Gate->c_str(), O_RDONLY); FD >= 0) {
        char Byte;
        while (::read(FD, &Byte, 1) > 0) {
        }
        ::close(FD);
      }
    FixSummary Fixed =
        applyFixes(Errors, Behaviour == FB_FixNotes, Snapshots, llvm::errs());
    if (!Quiet && Fixed.Suggested)
      llvm::errs() << "cuda-tidy applied " << Fixed.Applied << " of "
                   << Fixed.Suggested << " suggested fix"
                   << (Fixed.Suggested == 1 ? "" : "es")
                   << (Fixed.Overlapping ? " (overlapping fixes skipped)" : "")
                   << ".\n";
    AnalysisFailed |= Fixed.FilesRefused > 0;
  }

  if (!ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(ExportFixes, EC, llvm::sys::fs::OF_None);
    if (EC) {
      error("cannot write '" + ExportFixes + "': " + EC.message());
      return ExitUsageError;
    }
    exportReplacements(Inputs.empty() ? "" : Inputs.front(), Errors, OS);
  }
  return std::nullopt;
}

/// The summary lines (unless --quiet) and the exit code: a configuration
/// error, then a file not analyzed, then findings that are errors.
int StandaloneRun::summarize() {
  if (!Quiet) {
    const ClangTidyStats &Stats = Run.Stats;
    // As clang-tidy says it: the parts that are not zero, which add up to
    // the total (diagnostics of checks not enabled, e.g. compiler warnings,
    // are "with check filters").
    if (Stats.errorsIgnored()) {
      llvm::errs() << "Suppressed " << countOf(Stats.errorsIgnored(), "finding")
                   << " (";
      llvm::StringRef Separator;
      auto Part = [&](unsigned N, llvm::StringRef What) {
        if (!N)
          return;
        llvm::errs() << Separator << N << " " << What;
        Separator = ", ";
      };
      Part(Stats.ErrorsIgnoredNonUserCode, "in non-user code");
      Part(Stats.ErrorsIgnoredLineFilter, "due to line filter");
      Part(Stats.ErrorsIgnoredNOLINT, "NOLINT");
      Part(Stats.ErrorsIgnoredCheckFilter, "with check filters");
      llvm::errs() << ").\n";
    }
    if (HiddenByBaseline)
      llvm::errs() << countOf(HiddenByBaseline, "finding")
                   << (HiddenByBaseline == 1 ? " is" : " are")
                   << " in the baseline.\n";
    if (HiddenByDiff)
      llvm::errs() << countOf(HiddenByDiff, "finding")
                   << (HiddenByDiff == 1 ? " is" : " are")
                   << " on unchanged lines.\n";
    if (NotAnalyzed)
      llvm::errs() << countOf(NotAnalyzed, "file")
                   << (NotAnalyzed == 1 ? " was" : " were")
                   << " not analyzed in full: compiler errors "
                      "(--compile-errors=warn).\n";
    if (FoundCompilerErrors && (Fix || FixNotes) && !FixErrors)
      llvm::errs() << "Found compiler errors; fixes were NOT applied (use "
                      "--fix-errors).\n";
    if (WarningsAsErrorsCount)
      llvm::errs() << WarningsAsErrorsCount << " warning"
                   << (WarningsAsErrorsCount == 1 ? "" : "s")
                   << " treated as error"
                   << (WarningsAsErrorsCount == 1 ? "" : "s") << "\n";
  }
  // An option value of the wrong type is reported by clang-tidy as a
  // clang-tidy-config warning when the check reads it: a configuration error.
  bool ConfigurationError = false;
  for (const Finding &F : Findings) {
    if (F.Check != "clang-tidy-config")
      continue;
    ConfigurationError = true;
    locateConfigurationProblem(Inputs, F.Message, llvm::errs());
  }
  if (ConfigurationError)
    return ExitUsageError;
  if (AnalysisFailed)
    return ExitAnalysisFailed;
  if (WarningsAsErrorsCount)
    return ExitFindingsAsErrors;
  return ExitSuccess;
}

int StandaloneRun::finish(int Code) {
  // A worker left running (abandoned over a limit) may still touch what
  // static destructors free, and a parse ended by a crash (recovered,
  // ParallelRun.cpp) may have left objects of its stack registered in
  // LLVM's globals (a timer in the default timer group): either way the
  // process ends here, its output flushed, without destructors.
  if (Run.LeftRunning || Run.Crashed) {
    llvm::outs().flush();
    llvm::errs().flush();
    if (Index.enabled())
      (void)llvm::sys::fs::remove_directories(Index.directory(),
                                              /*IgnoreErrors=*/true);
    ::_exit(Code);
  }
  // Timers a parse ran are reported at exit by LLVM's default group: a
  // `#pragma clang __debug crash` times itself even when it is ignored
  // (TidyRunner), so a file's text could append a timing table to the
  // output. cuda-tidy reports no timings of its own this way: the queued
  // reports are drained here, unprinted.
  llvm::TimerGroup::printAll(llvm::nulls());
  return Code;
}

} // namespace cuda_tidy_standalone
