"""The real-code corpora: one module per public project, each defining CORPUS.

A corpus module names where the code comes from and how a new user would
parse it:

  CORPUS = {
      "name":   short name (the --corpus argument, the triage file's name),
      "repo":   owner/name on GitHub,
      "mirror": folder of the git mirror under --mirrors (owner+name),
      "commit": the pinned commit (40 hex digits),
      "files":  files(paths, options) -> the corpus's files, relative to its
                root, in the order they are run; options holds "root" (the
                extracted corpus), "mirrors" (the mirrors folder) and the
                harness's switches ("ggml_instances"),
      "flags":  flags(path, root) -> what follows `--` for that file; paths
                relative to the corpus root (the working folder of every run),
      "prepare": optional prepare(root): write our own stand-in headers or
                shims into the extracted corpus (never third-party code),
      "extensions": optional extra file endings (or whole file names, such
                as "Makefile") to extract beside the source-like files,
  }

No module holds third-party code: only paths, flags and headers of our own.
"""

import importlib
import os
import pkgutil

HERE = os.path.dirname(os.path.abspath(__file__))
STUBS = os.path.join(HERE, "stubs")


def load():
    """Every corpus, in the order of their module names."""
    out = []
    for info in sorted(pkgutil.iter_modules([HERE]), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(__name__ + "." + info.name)
        corpus = getattr(mod, "CORPUS", None)
        if corpus is not None:
            out.append(corpus)
    return out
