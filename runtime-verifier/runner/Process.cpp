//===- Process.cpp - run a command in its own process group, with a watchdog =//

#include "Process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rv {

namespace {
constexpr size_t kMaxOutput = 4u << 20; // keep at most 4 MiB of a run's output

std::string readAll(int Fd) {
  std::string Out;
  lseek(Fd, 0, SEEK_SET);
  char Buf[65536];
  ssize_t N;
  while ((N = read(Fd, Buf, sizeof(Buf))) > 0) {
    if (Out.size() < kMaxOutput)
      Out.append(Buf, static_cast<size_t>(N));
  }
  return Out;
}
} // namespace

ProcessResult runProcess(const std::vector<std::string> &Argv,
                         double TimeoutS) {
  ProcessResult R;
  if (Argv.empty())
    return R;
  char Template[] = "/tmp/rv-run-XXXXXX";
  const int Fd = mkstemp(Template);
  if (Fd < 0)
    return R;
  unlink(Template);

  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);

  const auto Start = std::chrono::steady_clock::now();
  const pid_t Pid = fork();
  if (Pid < 0) {
    close(Fd);
    return R;
  }
  if (Pid == 0) {
    setpgid(0, 0);
    dup2(Fd, STDOUT_FILENO);
    dup2(Fd, STDERR_FILENO);
    const int Null = open("/dev/null", O_RDONLY);
    if (Null >= 0)
      dup2(Null, STDIN_FILENO);
    execvp(Args[0], Args.data());
    std::fprintf(stderr, "cannot run %s\n", Args[0]);
    _exit(127);
  }
  setpgid(Pid, Pid); // also here, so the group exists before any kill
  R.Started = true;

  auto Elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Start)
        .count();
  };
  int Status = 0;
  bool Reaped = false;
  while (!Reaped) {
    const pid_t W = waitpid(Pid, &Status, WNOHANG);
    if (W == Pid) {
      Reaped = true;
      break;
    }
    if (W < 0 && errno != EINTR)
      break;
    if (Elapsed() > TimeoutS) {
      R.TimedOut = true;
      kill(-Pid, SIGKILL);
      // A process inside a GPU kernel can take a moment to die while the
      // driver tears its context down; wait for it, but not for ever.
      const double Deadline = Elapsed() + 120;
      while (Elapsed() < Deadline) {
        if (waitpid(Pid, &Status, WNOHANG) == Pid) {
          Reaped = true;
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Nothing of the group may outlive its run (a sanitizer's helpers, say).
  kill(-Pid, SIGKILL);
  R.WallS = Elapsed();
  if (Reaped && !R.TimedOut) {
    if (WIFEXITED(Status))
      R.ExitCode = WEXITSTATUS(Status);
    else if (WIFSIGNALED(Status))
      R.Signal = WTERMSIG(Status);
  }
  R.Output = readAll(Fd);
  close(Fd);
  return R;
}

std::string commandOutput(const std::vector<std::string> &Argv,
                          double TimeoutS) {
  const ProcessResult R = runProcess(Argv, TimeoutS);
  if (!R.Started || R.TimedOut || R.ExitCode != 0)
    return "";
  return R.Output;
}

} // namespace rv
