"""File names derived from code objects: sanitized, and always inside the dump directory."""
import os
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9_]")
_COMPILED_FN = re.compile(r"^__compiled_fn_(\d+)")
_MAX = 80


def sanitize(name: str) -> str:
    """``name`` reduced to ``[A-Za-z0-9_]`` (at most 80 characters), never empty.

    Code names such as ``<lambda>``, ``<genexpr>`` or ``forward.<locals>.g`` (and
    anything an attacker could put in ``co_name``, like ``../../x``) become plain
    identifiers, so a file name built from them cannot leave the dump directory.
    """
    clean = _UNSAFE.sub("_", str(name))[:_MAX].strip("_") or "anonymous"
    return clean


def printable(text: str) -> str:
    """``text`` with every character that is not printable written as its escape (``\\n``,
    ``\\u2028``...): a code name can hold any character, and the dump writes names into
    comments and Markdown, where a line break would end the comment and start code."""
    text = str(text)
    return text if text.isprintable() else "".join(
        c if c.isprintable() else repr(c)[1:-1] for c in text)


def inside(root: str, filename: str) -> str:
    """Absolute path of ``filename`` in ``root``; refuses anything that would land elsewhere."""
    root = os.path.abspath(root)
    if os.path.basename(filename) != filename or filename in ("", ".", ".."):
        raise ValueError("unveil: refusing to write %r outside the dump directory" % filename)
    path = os.path.abspath(os.path.join(root, filename))
    if os.path.dirname(path) != root:
        raise ValueError("unveil: refusing to write %r outside the dump directory" % filename)
    return path


def compiled_fn_name(global_name: str):
    """``__compiled_fn_12_<uuid>`` -> ``__compiled_fn_12`` (the name TORCH_LOGS prints), else None."""
    m = _COMPILED_FN.match(global_name)
    return "__compiled_fn_%s" % m.group(1) if m else None


def compiled_fn_number(name: str) -> int:
    m = _COMPILED_FN.match(name)
    return int(m.group(1)) if m else -1


def compiled_fns_of(code) -> list:
    """The compiled graphs a transformed code object calls, in number order."""
    found = {compiled_fn_name(n) for n in code.co_names}
    found.discard(None)
    return sorted(found, key=compiled_fn_number)


def resume_globals_of(code) -> list:
    """Names of the resume functions (``__resume_at_*``) a transformed code object jumps to."""
    return [n for n in code.co_names if n.startswith("__resume_at_")]
