"""The PEP 517 build backend of the repository's pyproject.toml: builds the
small `cuda-tidy-pre-commit` package that pre-commit installs for the
`language: python` hook (`pip install .` in its clone of this repository).
It needs nothing beyond the standard library (the pyproject's `requires` is
empty), so pip builds it offline; the binary comes from its one dependency,
the `cuda-tidy` wheel (packaging/python/build_wheel.py), found on the index
pip is given (PyPI, or PIP_FIND_LINKS / PIP_EXTRA_INDEX_URL for your own).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import wheelfile  # noqa: E402

NAME = "cuda-tidy-pre-commit"


def _version():
    text = open(os.path.join(SOURCE, "CMakeLists.txt")).read()
    return re.search(r"project\(cuda-tidy VERSION ([0-9.]+)", text).group(1)


def _metadata(version):
    # The same version of the binary wheel: the hook script and the binary's
    # flags are of one commit.
    return ["Summary: pre-commit hook running cuda-tidy from its wheel",
            "Requires-Python: >=3.7",
            "Requires-Dist: cuda-tidy==" + version]


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    version = _version()
    dist_info = "%s-%s.dist-info" % (wheelfile.normalize(NAME), version)
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    lines = ["Metadata-Version: 2.1", "Name: " + NAME, "Version: " + version] + _metadata(version)
    with open(os.path.join(metadata_directory, dist_info, "METADATA"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return dist_info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    files = []
    pkg = os.path.join(HERE, "cuda_tidy_pre_commit")
    with open(os.path.join(pkg, "__init__.py"), "rb") as f:
        files.append(("cuda_tidy_pre_commit/__init__.py", f.read(), 0o644))
    with open(os.path.join(SOURCE, "scripts", "cuda-tidy-pre-commit"), "rb") as f:
        files.append(("cuda_tidy_pre_commit/cuda-tidy-pre-commit", f.read(), 0o755))
    path = wheelfile.write_wheel(
        wheel_directory, NAME, version, "py3-none-any", files, _metadata(version),
        entry_points={"console_scripts": {NAME: "cuda_tidy_pre_commit:main"}})
    return os.path.basename(path)


def build_sdist(sdist_directory, config_settings=None):
    """The files build_wheel reads, so the sdist builds the same wheel."""
    import io
    import tarfile

    version = _version()
    base = "%s-%s" % (wheelfile.normalize(NAME), version)
    members = ["pyproject.toml", "CMakeLists.txt", "scripts/cuda-tidy-pre-commit",
               "packaging/python/hook_backend.py", "packaging/python/wheelfile.py",
               "packaging/python/cuda_tidy_pre_commit/__init__.py"]
    path = os.path.join(sdist_directory, base + ".tar.gz")
    pkg_info = "\n".join(["Metadata-Version: 2.1", "Name: " + NAME, "Version: " + version]
                         + _metadata(version)) + "\n"
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for member in members:
            tar.add(os.path.join(SOURCE, member), arcname=base + "/" + member)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size = len(pkg_info)
        tar.addfile(info, io.BytesIO(pkg_info.encode()))
    return os.path.basename(path)
