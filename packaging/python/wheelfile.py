"""Writes a wheel (PEP 427, binary distribution format 1.0) with the standard
library alone, so that building one needs no network and no build
dependency: the binary wheel of cuda-tidy (build_wheel.py) and the
pre-commit hook's package (hook_backend.py, the root pyproject.toml's PEP 517
backend) are both written here.

Entries are written in a fixed order with a fixed timestamp
(SOURCE_DATE_EPOCH when set, else 1980-01-01), so the same inputs give the
same bytes.
"""

import base64
import hashlib
import os
import time
import zipfile


def normalize(name):
    """The distribution name as file names spell it (PEP 427/503)."""
    return "".join(c if c.isalnum() or c == "." else "_" for c in name).replace(".", "_")


def _record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def write_wheel(out_dir, name, version, tag, files, metadata, entry_points=None,
                purelib=True):
    """Writes <out_dir>/<name>-<version>-<tag>.whl and returns its path.

    files: (path in the wheel, bytes, mode) triples; mode 0o755 makes pip
    install the file executable. metadata: extra METADATA header lines
    ("Requires-Dist: x"), and a "" line then the long description if any.
    entry_points: {"console_scripts": {"cuda-tidy": "cuda_tidy:main"}}.
    """
    dist = normalize(name)
    dist_info = "%s-%s.dist-info" % (dist, version)
    wheel_name = "%s-%s-%s.whl" % (dist, version, tag)
    meta = ["Metadata-Version: 2.1", "Name: " + name, "Version: " + version]
    meta += list(metadata)
    wheel_meta = ["Wheel-Version: 1.0",
                  "Generator: cuda-tidy packaging/python/wheelfile.py",
                  "Root-Is-Purelib: " + ("true" if purelib else "false")]
    wheel_meta += ["Tag: " + t for t in _expand_tag(tag)]
    entries = [(p, d, m) for p, d, m in sorted(files, key=lambda f: f[0])]
    entries.append((dist_info + "/METADATA", ("\n".join(meta) + "\n").encode(), 0o644))
    entries.append((dist_info + "/WHEEL", ("\n".join(wheel_meta) + "\n").encode(), 0o644))
    if entry_points:
        text = ""
        for group, scripts in sorted(entry_points.items()):
            text += "[%s]\n" % group
            text += "".join("%s = %s\n" % kv for kv in sorted(scripts.items()))
        entries.append((dist_info + "/entry_points.txt", text.encode(), 0o644))
    record = "".join("%s,%s,%d\n" % (p, _record_hash(d), len(d)) for p, d, _ in entries)
    record += dist_info + "/RECORD,,\n"
    entries.append((dist_info + "/RECORD", record.encode(), 0o644))

    stamp = time.gmtime(max(int(os.environ.get("SOURCE_DATE_EPOCH", 315532800)), 315532800))[:6]
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, wheel_name)
    tmp = path + ".part"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for arcname, data, mode in entries:
            info = zipfile.ZipInfo(arcname, date_time=stamp)
            info.external_attr = (0o100000 | mode) << 16  # a regular file, mode
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    os.replace(tmp, path)
    return path


def _expand_tag(tag):
    """py3-none-any -> [py3-none-any]; compressed tag sets (a.b-none-x) expand."""
    py, abi, plat = tag.split("-")
    return ["%s-%s-%s" % (p, a, q) for p in py.split(".") for a in abi.split(".")
            for q in plat.split(".")]
