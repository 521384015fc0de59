"""What the report shows, read from a dump directory (no torch import).

``index.json`` is the source; the dump's own files fill in what the index does not
hold: an entry's compile id (the first line of its transformed file, for dumps written
before the index recorded ``compile_id``), the original source (the end of the
function's ``full_code`` file) and when each entry was compiled (its file's mtime).
"""
import io
import keyword
import os
import re
import textwrap
import tokenize

from ..torch import naming  # (names only: no torch import)

SLOTS_MARK = "# (unveil) declares the local variable slots"  # hook.SLOTS_COMMENT, without importing torch code
_CID_IN_HEADER = re.compile(r"\(compile id ([^)\s]+)\)")
_CID_IN_FULL_CODE = re.compile(r"^# (?:resume function: )?entry (\d+) of .* -- compile id (\S+)$", re.M)
_ORIGINAL_SOURCE = re.compile(r"^# Original source of .*\n# =+\n", re.M)
_GRAPH_FILE_LINE = re.compile(r"# File: (.+?):(\d+) in ")
_COMPILED_FN_CALL = re.compile(r"(__compiled_fn_\d+)")
_RESUME_CALL = re.compile(r"\b__resume_at_\w+")
_ASSIGNED = re.compile(r"^\s*([A-Za-z_][\w]*(?:\s*,\s*[A-Za-z_]\w*)*)\s*=(?!=)")
# names the transformation introduces: they say nothing about which original line a line comes from
# (__compiled_fn_<n>_<uuid>, __resume_at_*, __temp_*, __builtins_dict___*, __import_*, ___stack0, ...)
_INTERNAL = re.compile(r"^(__(?!\w+__$)\w+|graph_out_\d+|tmp_\d+)$")


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


def cid_key(cid):
    """Sort key of a compile id "frame/attempt" ("!a/f/c" under compiled autograd)."""
    nums = [int(p) if p.isdigit() else -1 for p in str(cid).lstrip("!").split("/")]
    return nums


class Entry:
    """One cache entry of a function, as the report shows it."""

    def __init__(self, fn, data, position):
        self.fn = fn
        self.data = data
        self.position = position  # 0 = checked first
        self.index = data.get("index")
        self.transformed_file = data.get("transformed_file")
        self.guard = [str(g) for g in data.get("guard") or []]
        self.reason = data.get("reason")
        self.compiled_fns = list(data.get("compiled_fns") or [])
        self.resume_functions = list(data.get("resume_functions") or [])
        self.error = data.get("error")
        self.compile_id = data.get("compile_id")
        self.compiled_ns = None  # when its transformed file was written
        self.page = None
        self.transformed_text = None

    @property
    def label(self):
        return "[%s]" % (self.compile_id or "?")


class Function:
    """A compiled function (or a resume function Dynamo generated) and its entries."""

    def __init__(self, data, number):
        self.data = data
        self.number = number
        self.name = data.get("name") or "?"
        self.qualname = data.get("qualname") or self.name
        self.source_file = data.get("source_file")
        self.first_line = data.get("first_line")
        self.full_code = data.get("full_code")
        self.entries = [Entry(self, e, k) for k, e in enumerate(data.get("entries") or [])]
        self.resume_of = None  # the Function whose entries jump here
        self.resumes = []  # Functions this one's entries jump to
        self.original = None  # (first line number, text) of the source shown beside entries
        self.stack_values = data.get("stack_values") or {}  # ___stack<k> -> what it is

    @property
    def is_resume(self):
        return self.resume_of is not None or self.name.startswith("__resume_at_") \
            or self.qualname.startswith("torch_dynamo_resume_in_")

    @property
    def title(self):
        """The function's display name, as everywhere (``unveil.torch.naming``)."""
        return naming.title_of(self.data)

    @property
    def torch_names(self):
        """torch's names of the function that its title does not show."""
        return naming.torch_names_of(self.data)

    def root(self):
        """The user function this one belongs to (itself unless it is a resume function)."""
        f, seen = self, set()
        while f.resume_of is not None and id(f) not in seen:
            seen.add(id(f))
            f = f.resume_of
        return f


class Dump:
    """Everything the report needs from one dump directory."""

    def __init__(self, path, index):
        self.path = os.path.abspath(path)
        self.index = index
        self.functions = [Function(f, k) for k, f in enumerate(index.get("functions") or [])]
        self.graphs = [g for g in index.get("graphs") or [] if isinstance(g, dict)]
        self.graph_breaks = [b for b in index.get("graph_breaks") or [] if isinstance(b, dict)]
        self.errors = [e for e in index.get("errors") or [] if isinstance(e, dict)]
        self.graphs_of = {}
        for g in self.graphs:
            self.graphs_of.setdefault(g.get("compiled_fn"), []).append(g)
        self._full_code_text = {}
        self._texts = {}
        self.link_resume_functions()
        for fn in self.functions:
            for e in fn.entries:
                self.complete_entry(e)
            fn.original = self.original_source(fn)

    # -- derived data ------------------------------------------------------
    def file_text(self, name):
        if not name:
            return None
        if name not in self._texts:  # graph files are read for several pages
            self._texts[name] = read_text(os.path.join(self.path, os.path.basename(name)))
        return self._texts[name]

    def full_code_text(self, fn):
        if fn.full_code not in self._full_code_text:
            self._full_code_text[fn.full_code] = self.file_text(fn.full_code) or ""
        return self._full_code_text[fn.full_code]

    def link_resume_functions(self):
        by_name = {}
        for fn in self.functions:
            for n in [fn.name, fn.qualname] + list(fn.data.get("aliases") or []):
                by_name.setdefault(n, fn)
        self.by_name = by_name
        for fn in self.functions:
            for e in fn.entries:
                for name in e.resume_functions:
                    target = by_name.get(name)
                    if target is not None and target is not fn:
                        if target.resume_of is None:
                            target.resume_of = fn
                        if target not in fn.resumes:
                            fn.resumes.append(target)

    def complete_entry(self, e):
        """Compile id and compile time of an entry from its files when the index lacks them."""
        path = os.path.join(self.path, os.path.basename(e.transformed_file)) if e.transformed_file else None
        text = read_text(path) if path else None
        e.transformed_text = text
        if text is not None:
            try:
                e.compiled_ns = os.stat(path).st_mtime_ns
            except OSError:
                pass
        if not e.compile_id and text:
            m = _CID_IN_HEADER.search(text.split("\n", 1)[0])
            if m:
                e.compile_id = m.group(1)
        if not e.compile_id:
            for m in _CID_IN_FULL_CODE.finditer(self.full_code_text(e.fn)):
                if str(e.index) == m.group(1):
                    e.compile_id = m.group(2)
                    break

    def original_source(self, fn):
        """(first line number, text) of the source shown beside ``fn``'s entries.

        The ``full_code`` file ends with the source as it was when the dump was written; a
        resume function shows the source of the function it continues."""
        home = fn.root()
        text = self.full_code_text(home)
        m = None
        for m in _ORIGINAL_SOURCE.finditer(text):
            pass
        if m is not None and not home.is_resume:
            body = _unwrap_for_reading(text[m.end():])
            if body.strip() and not body.lstrip().startswith("# (source of"):
                return home.first_line or 1, body
        if home.source_file:  # fall back on the file itself
            src = read_text(home.source_file)
            if src is not None and home.first_line:
                lines = src.splitlines(True)[home.first_line - 1:]
                return home.first_line, "".join(block_of(lines))
        return None

    # -- totals ------------------------------------------------------------
    def entries(self):
        return [e for fn in self.functions for e in fn.entries]

    def totals(self):
        entries = self.entries()
        return {
            "functions": sum(1 for f in self.functions if not f.is_resume),
            "resume functions": sum(1 for f in self.functions if f.is_resume),
            "entries": len(entries),
            "recompiles": sum(1 for e in entries if e.reason),
            "graphs": len({g.get("compiled_fn") for g in self.graphs}),
            "graph breaks": len(self.graph_breaks),
            "errors": len(self.errors) + sum(1 for e in entries if e.error),
        }

    def timeline(self):
        """Entries in the order they were compiled: file time, then compile id."""
        entries = self.entries()
        return sorted(entries, key=lambda e: (e.compiled_ns is None, e.compiled_ns or 0,
                                              cid_key(e.compile_id or "")))

    def breaks_of(self, fn):
        names = {fn.name, fn.qualname}
        return [b for b in self.graph_breaks if b.get("function") in names]

    def break_lines(self, fn):
        """{line of ``fn``'s source file: graph breaks there} for ``fn`` and the resume functions
        that continue it (a break in a resume function is a break in the user's function)."""
        home = fn.root()
        found = {}
        for f in self.functions:
            if f.root() is not home:
                continue
            for b in self.breaks_of(f):
                if break_line(b) is not None:
                    found.setdefault(break_line(b), []).append(b)
        return found


def break_line(b):
    """The line number of a graph break's location (``x.py:7``), or None."""
    tail = str(b.get("location") or "").rpartition(":")[2]
    return int(tail) if tail.isdigit() else None


def block_of(lines):
    """The lines of the def (with its decorators) that starts ``lines``: up to the first
    non-blank line indented no deeper than the def."""
    out = []
    indent = None
    in_body = False
    for line in lines:
        stripped = line.strip()
        width = len(line) - len(line.lstrip())
        if indent is None:
            indent = width
        elif stripped and width <= indent and in_body and not stripped.startswith((")", "]", "}")):
            break
        if stripped.startswith(("def ", "async def ")) or (in_body is False and stripped.endswith(":")):
            in_body = True
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


# -- guards -----------------------------------------------------------------

# a name Dynamo numbers per compile (G['__builtins_dict___7']): the same guard in every entry
_NUMBERED = re.compile(r"(__builtins_dict___|___stack)\d+")


def same_guard(line):
    """A guard line with Dynamo's per-compile numbering removed, to compare entries' guards."""
    return _NUMBERED.sub(r"\1N", line)


_SUBJECT = re.compile(r"""\b([LG])\[(['"])(.+?)\2\]""")


def guard_subject(line):
    """What a guard line is about: the first local or global it names, else "global state"."""
    m = _SUBJECT.search(line)
    if not m:
        return "global state and other checks"
    return "%s[%r]" % (m.group(1), m.group(3))


def group_guards(entry, siblings):
    """(differing, groups): the entry's guard lines no sibling entry has (what sets it apart
    from the frame's other entries), then every line grouped by subject, in torch's order."""
    others = [{same_guard(g) for g in s.guard} for s in siblings if s is not entry]
    if others:
        differing = [g for g in entry.guard if not all(same_guard(g) in o for o in others)]
    else:
        differing = []
    groups = {}
    for g in entry.guard:
        groups.setdefault(guard_subject(g), []).append(g)
    return differing, list(groups.items())


# -- line links between the original source and the transformed code --------------

def names_in(line):
    """Identifiers and string literals of one line of Python (internal names dropped)."""
    found = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline):
            if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string) and not _INTERNAL.match(tok.string):
                found.add(tok.string)
            elif tok.type == tokenize.STRING:
                found.add(tok.string.strip("'\"rbuf"))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        found.update(w for w in re.findall(r"[A-Za-z_]\w*", line) if not keyword.iskeyword(w)
                     and not _INTERNAL.match(w))
    return found


def _unwrap_for_reading(body):
    """The source without the ``if False:`` full_code puts it under (so that loading the
    file to run its guards does not run the source's decorators)."""
    head, sep, rest = body.lstrip("\n").partition("\n")
    if head.startswith("if False:") and "(unveil)" in head:
        return textwrap.dedent(rest)
    return body


def assigned(line):
    m = _ASSIGNED.match(line)
    if not m:
        return set()
    return {n.strip() for n in m.group(1).split(",") if not _INTERNAL.match(n.strip())}


def graph_lines(dump, compiled_fn, source_file):
    """Original line numbers Dynamo's captured graph records for its nodes ("# File: x.py:12")."""
    found = set()
    base = os.path.basename(source_file or "")
    for g in dump.graphs_of.get(compiled_fn, []):
        if g.get("stage") != "captured":
            continue
        text = dump.file_text(g.get("file")) or ""
        for path, line in _GRAPH_FILE_LINE.findall(text):
            if not base or os.path.basename(path) == base:
                found.add(int(line))
    return found


def line_links(dump, entry):
    """{transformed line number: [original line numbers]} for an entry (line numbers as in
    the files). Derived, not recorded: a graph call links to the lines its graph's nodes
    came from, the code that resumes after a break to the break, any other line to the
    original lines that assign the same names or share the most names and strings with it."""
    fn = entry.fn
    original = fn.original
    text = entry.transformed_text
    if not original or not text:
        return {}
    first, src = original
    orig_lines = {first + k: l for k, l in enumerate(src.splitlines())}
    code_lines = {n: l for n, l in orig_lines.items() if l.strip() and not l.strip().startswith(("#", "@"))}
    lo, hi = (min(orig_lines), max(orig_lines)) if orig_lines else (0, -1)
    orig_names = {n: names_in(l) for n, l in code_lines.items()}
    orig_assigned = {n: assigned(l) for n, l in code_lines.items()}
    def_line = next((n for n, l in sorted(code_lines.items()) if l.lstrip().startswith(("def ", "async def "))),
                    None)
    # the resume call after a break: the break of this function (of the one it continues when
    # the index has none for it)
    break_lines = {break_line(b) for b in dump.breaks_of(fn) or dump.breaks_of(fn.root())} - {None}
    links = {}
    in_body = False
    skip = 0
    graph_vars = {}
    for k, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith(SLOTS_MARK):
            skip = 2  # "if False:" and the assignment that only fixes the order of local slots
            continue
        if not stripped or stripped.startswith("#"):
            continue
        if skip:
            skip -= 1
            continue
        if stripped.startswith(("def ", "async def ")):
            in_body = True
            if def_line is not None and not fn.is_resume:
                links[k] = [def_line]
            continue
        if not in_body:
            continue
        found = set()
        for cf in _COMPILED_FN_CALL.findall(line):
            found |= {n for n in graph_lines(dump, cf, fn.root().source_file) if lo <= n <= hi}
        m = _ASSIGNED.match(line)
        if found and m:  # graph_out_0 = __compiled_fn_3(...): what reads graph_out_0 comes from there too
            for name in m.group(1).split(","):
                graph_vars[name.strip()] = found
        if not found and _RESUME_CALL.search(line):
            found = {n for n in break_lines if lo <= n <= hi}
        if not found and not stripped.startswith("del "):
            for name in set(re.findall(r"[A-Za-z_]\w*", line)) & set(graph_vars):
                found |= graph_vars[name]
        if not found:
            found = best_matches(line, orig_names, orig_assigned)
        if found:
            links[k] = sorted(found)
    return links


def best_matches(line, orig_names, orig_assigned):
    targets = assigned(line)
    if targets:
        hit = {n for n, a in orig_assigned.items() if a & targets}
        if hit:
            return hit
    words = names_in(line) - targets
    if not words:
        return set()
    best, score = set(), 0.0
    for n, names in orig_names.items():
        common = len(words & names)
        if not common:
            continue
        s = common / float(len(words | names))
        if s > score + 1e-9:
            best, score = {n}, s
        elif abs(s - score) <= 1e-9:
            best.add(n)
    return best if score >= 0.34 else set()
