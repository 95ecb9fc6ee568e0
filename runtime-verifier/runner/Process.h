//===- Process.h - run a command in its own process group, with a watchdog ===//

#ifndef RUNTIME_VERIFIER_PROCESS_H
#define RUNTIME_VERIFIER_PROCESS_H

#include <string>
#include <vector>

namespace rv {

struct ProcessResult {
  bool Started = false;
  bool TimedOut = false;
  int ExitCode = -1; ///< -1 unless the process exited normally
  int Signal = 0;    ///< the signal that ended it, if any
  double WallS = 0;
  std::string Output; ///< stdout and stderr, interleaved
};

/// Runs Argv[0] (looked up in PATH) with stdout and stderr captured, in a
/// process group of its own. After TimeoutS seconds the whole group is killed
/// with SIGKILL, so a case stuck in a GPU kernel (and a compute-sanitizer
/// wrapping it) dies without taking the runner or the next case with it.
ProcessResult runProcess(const std::vector<std::string> &Argv, double TimeoutS);

/// Output of a short command, or "" when it cannot run.
std::string commandOutput(const std::vector<std::string> &Argv,
                          double TimeoutS = 60);

} // namespace rv

#endif
