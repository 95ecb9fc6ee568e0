"""A restricted YAML reader for runtime-verifier/manifest.yaml (stdlib only).

The runner reads the manifest with yaml-cpp; the CI tests must not depend on
PyYAML, so they read it with this. It accepts the subset the manifest uses and
rejects anything else with a line number, rather than guessing:

- block mappings (``key: value``, ``key:`` followed by an indented block);
- block sequences (``- item``, ``- key: value`` starting a mapping);
- flow sequences of scalars on one line (``[a, "b c", 3]``);
- plain, double-quoted and single-quoted scalars on one line;
- folded (``>``, ``>-``) and literal (``|``, ``|-``) block scalars;
- ``#`` comments.

Every scalar is returned as a string (the manifest's consumers convert), as
yaml-cpp's ``as<std::string>()`` would see it. tests/check_evidence.py compares
what this reader returns with the copy of the manifest the runner wrote into
the evidence, so a divergence between the two readers is caught.
"""

import re


class YamlError(Exception):
    pass


def _strip_comment(text):
    """Drops a trailing comment outside quotes."""
    quote = None
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                continue
        elif c in "\"'":
            quote = c
        elif c == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
    return text.rstrip()


def _scalar(text, lineno):
    text = text.strip()
    if not text:
        return ""
    if text[0] == '"':
        if len(text) < 2 or text[-1] != '"':
            raise YamlError("line %d: unterminated double-quoted scalar" % lineno)
        body, out, i = text[1:-1], [], 0
        while i < len(body):
            c = body[i]
            if c == "\\":
                i += 1
                if i >= len(body):
                    raise YamlError("line %d: dangling escape" % lineno)
                esc = body[i]
                out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\",
                            "/": "/"}.get(esc))
                if out[-1] is None:
                    raise YamlError("line %d: unsupported escape \\%s" % (lineno, esc))
            elif c == '"':
                raise YamlError("line %d: stray quote in scalar" % lineno)
            else:
                out.append(c)
            i += 1
        return "".join(out)
    if text[0] == "'":
        if len(text) < 2 or text[-1] != "'":
            raise YamlError("line %d: unterminated single-quoted scalar" % lineno)
        return text[1:-1].replace("''", "'")
    if text[0] in "{&*!|>%@`":
        raise YamlError("line %d: unsupported YAML construct %r" % (lineno, text[0]))
    if text[0] == "[":
        raise YamlError("line %d: a flow list is only allowed as a whole value" % lineno)
    return text


def _flow_list(text, lineno):
    if not text.endswith("]"):
        raise YamlError("line %d: a flow list must end on its line" % lineno)
    body = text[1:-1].strip()
    if not body:
        return []
    items, cur, quote = [], [], None
    for c in body:
        if quote:
            cur.append(c)
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            cur.append(c)
        elif c == ",":
            items.append("".join(cur))
            cur = []
        elif c in "[]{}":
            raise YamlError("line %d: nested flow collections are not supported" % lineno)
        else:
            cur.append(c)
    items.append("".join(cur))
    return [_scalar(i, lineno) for i in items]


def _value(text, lineno):
    text = text.strip()
    if text.startswith("["):
        return _flow_list(text, lineno)
    return _scalar(text, lineno)


_KEY = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:\s+(.*))?$")


class _Reader:
    def __init__(self, text):
        self.raw = text.split("\n")
        self.i = 0

    def _significant(self):
        """(index, indent, text) of the next non-blank, non-comment line."""
        j = self.i
        while j < len(self.raw):
            line = self.raw[j]
            if "\t" in line[: len(line) - len(line.lstrip())]:
                raise YamlError("line %d: tabs in indentation" % (j + 1))
            text = _strip_comment(line)
            if text.strip():
                return j, len(text) - len(text.lstrip()), text.strip()
            j += 1
        return None

    def block(self, indent):
        nxt = self._significant()
        if nxt is None or nxt[1] < indent:
            return None
        _, ind, text = nxt
        if text == "-" or text.startswith("- "):
            return self.sequence(ind)
        return self.mapping(ind)

    def mapping(self, indent, first=None):
        out = {}
        while True:
            if first is not None:
                lineno, text = first
                first = None
            else:
                nxt = self._significant()
                if nxt is None or nxt[1] < indent:
                    return out
                j, ind, text = nxt
                lineno = j + 1
                if ind != indent:
                    raise YamlError("line %d: bad indentation" % lineno)
                if text == "-" or text.startswith("- "):
                    return out
                self.i = j + 1
            m = _KEY.match(text)
            if not m:
                raise YamlError("line %d: expected 'key: value'" % lineno)
            key, rest = m.group(1), (m.group(2) or "").strip()
            if key in out:
                raise YamlError("line %d: duplicate key %r" % (lineno, key))
            if rest in (">", ">-", "|", "|-"):
                out[key] = self.block_scalar(indent, rest)
            elif rest:
                out[key] = _value(rest, lineno)
            else:
                nxt = self._significant()
                child = None
                if nxt is not None and (nxt[1] > indent or (
                        nxt[1] == indent and (nxt[2] == "-" or nxt[2].startswith("- ")))):
                    child = self.block(nxt[1])
                out[key] = child

    def sequence(self, indent):
        out = []
        while True:
            nxt = self._significant()
            if nxt is None or nxt[1] != indent:
                if nxt is not None and nxt[1] > indent:
                    raise YamlError("line %d: bad indentation" % (nxt[0] + 1))
                return out
            j, _, text = nxt
            if not (text == "-" or text.startswith("- ")):
                return out
            self.i = j + 1
            rest = text[1:].strip()
            if not rest:
                out.append(self.block(indent + 1))
            elif _KEY.match(rest):
                out.append(self.mapping(indent + 2, first=(j + 1, rest)))
            else:
                out.append(_value(rest, j + 1))

    def block_scalar(self, parent_indent, style):
        lines, ind = [], None
        while self.i < len(self.raw):
            line = self.raw[self.i]
            if not line.strip():
                lines.append("")
                self.i += 1
                continue
            cur = len(line) - len(line.lstrip())
            if cur <= parent_indent:
                break
            if ind is None:
                ind = cur
            if cur < ind:
                raise YamlError("line %d: bad indentation in block scalar" % (self.i + 1))
            lines.append(line[ind:])
            self.i += 1
        while lines and not lines[-1]:
            lines.pop()
        if style.startswith(">"):
            text, para = [], []
            for l in lines:
                if l:
                    para.append(l)
                else:
                    text.append(" ".join(para))
                    para = []
            text.append(" ".join(para))
            value = "\n".join(text)
        else:
            value = "\n".join(lines)
        if not style.endswith("-"):
            value += "\n"
        return value


def loads(text):
    r = _Reader(text)
    value = r.block(0)
    if r._significant() is not None:
        raise YamlError("line %d: unexpected content" % (r._significant()[0] + 1))
    return value


def load(path):
    with open(path, encoding="utf-8") as f:
        return loads(f.read())
