//===- Manifest.h - runtime-verifier manifest, read with yaml-cpp ---------===//
//
// The manifest (runtime-verifier/manifest.yaml) lists every reference kernel:
// which check it witnesses, the static verdict cuda-tidy must give it, how it
// is built, and what it is expected to do on a GPU. This is its one reader in
// C++; tests/rvyaml.py reads the same file for the CI tests, and the runner
// copies what it read into the evidence so the two readers can be compared.
//
//===----------------------------------------------------------------------===//

#ifndef RUNTIME_VERIFIER_MANIFEST_H
#define RUNTIME_VERIFIER_MANIFEST_H

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace rv {

/// A manifest that cannot be used: the message names the file, line and column.
class ManifestError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct Case {
  std::string Id;
  std::string Check; ///< the check this case witnesses (for a reference
                     ///< kernel: the check its static verdict names, if any)
  std::string Role;  ///< violating | compliant | reference
  std::vector<std::string> Twins;
  std::string File; ///< relative to the manifest's folder
  std::string Kernel;
  std::vector<std::string> Args;
  std::string Flags;  ///< nvcc flags, defaults applied
  std::string Static; ///< flagged | clean | unspecified
  std::vector<int> Lines;
  std::string StaticCheck; ///< the check expected at Lines (defaults to Check)
  std::string Outcome;     ///< expected runtime outcome
  std::string Note;
  std::string Evidence; ///< "pending": not yet run on the evidence GPU
  double TimeoutS = 0;
  std::vector<std::string> Sanitizers; ///< tools --sanitizer runs it under
  std::vector<std::string> Measure;    ///< res-usage, sass, ptxas
  std::vector<std::string> MeasureFunctions;
  int Line = 0; ///< where the entry starts in the manifest (1-based)
};

struct SeedRow {
  std::string Row;
  std::string T4;
  std::string H200; ///< template: {key} is replaced by the measure `key`
};

struct Manifest {
  std::string Path;
  std::string Dir;
  int Version = 0;
  std::string DefaultFlags;
  std::string CudaArchitectures;
  double DefaultTimeoutS = 10;
  double SanitizerTimeoutS = 60;
  std::vector<std::string> Checks;
  std::vector<Case> Cases;
  std::string SeedCase;
  std::string SeedSource;
  std::vector<SeedRow> SeedRows;

  const Case *find(const std::string &Id) const;
};

/// Reads and validates the manifest; throws ManifestError.
Manifest loadManifest(const std::string &Path);

/// The executable a case runs: one per distinct (file, flags) pair, named
/// after the first case that uses it.
std::string executableFor(const Manifest &M, const Case &C);

} // namespace rv

#endif
