"""Issue 16 F19: file names with ESC/OSC sequences, C1 controls or invalid
UTF-8, through every output format (text, json, sarif, github) and the
failure line on standard error. No output carries such a byte raw; the text
format writes it \\xHH (and still shows the source line and the fix-it);
JSON keeps the exact name (control bytes escaped by JSON itself) and, when
the name is not UTF-8, gives its bytes percent-encoded in "fileUri"; SARIF's
URI decodes to the exact bytes; GitHub percent-encodes.

  check_escaped_names.py CUDA_TIDY FINDING_CU WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys
import urllib.parse

tidy, finding, work = (os.path.abspath(a) for a in sys.argv[1:4])
os.makedirs(work, exist_ok=True)
names = [b"esc\x1b]0;pwned\x07x.cu", b"esc\x1b[31mred.cu", b"c1\xc2\x9bname.cu",
         b"bad\xff\xfename.cu", b"caf\xc3\xa9.cu"]
escaped = {b"esc\x1b]0;pwned\x07x.cu": b"esc\\x1B]0;pwned\\x07x.cu",
           b"esc\x1b[31mred.cu": b"esc\\x1B[31mred.cu",
           b"c1\xc2\x9bname.cu": b"c1\\xC2\\x9Bname.cu",
           b"bad\xff\xfename.cu": b"bad\\xFF\\xFEname.cu",
           b"caf\xc3\xa9.cu": b"caf\xc3\xa9.cu"}  # valid UTF-8 stays
github = {b"esc\x1b]0;pwned\x07x.cu": b"esc%1B]0;pwned%07x.cu",
          b"esc\x1b[31mred.cu": b"esc%1B[31mred.cu",
          b"c1\xc2\x9bname.cu": b"c1%C2%9Bname.cu",
          b"bad\xff\xfename.cu": b"bad%FF%FEname.cu",
          b"caf\xc3\xa9.cu": b"caf\xc3\xa9.cu"}
for name in names:
    shutil.copy(finding, os.path.join(os.fsencode(work), name))
broken = b"broken\x1b[2Jx.cu"
with open(os.path.join(os.fsencode(work), broken), "wb") as f:
    f.write(b"__global__ void k( {\n")

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def run(fmt, name):
    r = subprocess.run([tidy, "--no-cache", "--format=" + fmt, name, "--"],
                       cwd=work, capture_output=True)
    return r.returncode, r.stdout, r.stderr


def raw_unsafe(data):
    """The first byte a terminal would act on, or invalid UTF-8, if any."""
    for i, c in enumerate(data):
        if c < 0x20 and c not in (0x0a, 0x0d) or c == 0x7f:
            return "byte 0x%02x at %d" % (c, i)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return "invalid UTF-8: %s" % e
    for ch in text:
        if 0x80 <= ord(ch) <= 0x9f:
            return "C1 control U+%04X" % ord(ch)
    return None


for name in names:
    label = repr(name)
    for fmt in ("text", "json", "sarif", "github", "rdjson", "codequality"):
        code, out, err = run(fmt, name)
        check(code == 0, "%s %s: exit %d: %r" % (label, fmt, code, err))
        bad = raw_unsafe(out + err)
        check(bad is None, "%s %s: raw %s" % (label, fmt, bad))
        if fmt == "text":
            want = (os.fsencode(work) + b"/" + escaped[name] +
                    b":3:42: warning: cooperative-groups handle 'b'")
            check(out.startswith(want), "%s text: %r" % (label, out[:120]))
            check(b"__device__ void byValue(cg::thread_block b)" in out and
                  b"const            &" in out,
                  "%s text: no source line or fix-it: %r" % (label, out))
        elif fmt == "json":
            f = json.loads(out)["findings"][0]
            if name.decode("utf-8", "replace").encode("utf-8") == name:
                check(f["file"].encode("utf-8") == name and "fileUri" not in f,
                      "%s json: file %r" % (label, f))
            else:
                check(urllib.parse.unquote_to_bytes(f.get("fileUri", "")) == name,
                      "%s json: fileUri %r" % (label, f))
                check(all(urllib.parse.unquote_to_bytes(x.get("fileUri", "")) == name
                          for x in f["fixes"]), "%s json: fixes %r" % (label, f))
        elif fmt == "sarif":
            loc = json.loads(out)["runs"][0]["results"][0]["locations"][0]
            uri = loc["physicalLocation"]["artifactLocation"]["uri"]
            check(urllib.parse.unquote_to_bytes(uri) == name,
                  "%s sarif: uri %r" % (label, uri))
        elif fmt in ("rdjson", "codequality"):
            # Issue 38 G12: no room for "fileUri" in these schemas; a name
            # that is not UTF-8 has each invalid byte as \xHH text, as in
            # the text report, not U+FFFD; any other name is exact.
            doc = json.loads(out)
            if fmt == "rdjson":
                path = doc["diagnostics"][0]["location"]["path"]
            else:
                path = doc[0]["location"]["path"]
            utf8 = name.decode("utf-8", "replace").encode("utf-8") == name
            want = name if utf8 else escaped[name]
            check(path.encode("utf-8") == want and "\ufffd" not in path,
                  "%s %s: path %r" % (label, fmt, path))
        else:
            line = out.split(b"\n")[0]
            want = (b"::warning file=" + github[name] +
                    b",line=3,col=42,title=cuda-group-by-value::")
            check(line.startswith(want), "%s github: %r" % (label, line))

# A file that does not compile: its failure line is escaped too.
code, out, err = run("text", broken)
check(code == 3, "broken: exit %d" % code)
check(b"Error while processing " in err and b"broken\\x1B[2Jx.cu." in err,
      "broken: %r" % err)
check(raw_unsafe(out + err) is None, "broken: raw %s" % raw_unsafe(out + err))

# A file that is not there, and one with no command in a database: the
# warnings and errors on standard error name them escaped too.
missing = b"gone\x1b]0;title\x07.cu"
code, out, err = run("text", missing)
check(code == 3, "missing: exit %d" % code)
check(b"cannot analyze 'gone\\x1B]0;title\\x07.cu': no such file" in err,
      "missing: %r" % err)
check(raw_unsafe(out + err) is None, "missing: raw %s" % raw_unsafe(out + err))
db = os.path.join(work, "db")
os.makedirs(db, exist_ok=True)
with open(os.path.join(db, "compile_commands.json"), "w") as f:
    json.dump([{"directory": work, "file": "other.cu",
                "command": "clang++ -x cuda -c other.cu"}], f)
outside = names[0]
r = subprocess.run([tidy, "--no-cache", "-p", db, outside], cwd=work,
                   capture_output=True)
check(b"has no command for '" in r.stderr,
      "no command: %r" % r.stderr)
check(raw_unsafe(r.stdout + r.stderr) is None,
      "no command: raw %s" % raw_unsafe(r.stdout + r.stderr))

for f in failures:
    print("FAIL:", f)
print("checked %d names in 6 formats; %d failures" % (len(names), len(failures)))
sys.exit(1 if failures else 0)
