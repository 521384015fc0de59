"""``unveil run --break FILE:LINE`` / ``--pdb``: stop in the compiled code without editing the script.

The script runs under a :class:`pdb.Pdb` that does not stop until a breakpoint is hit. The
dumped files do not exist when the run starts, so breakpoints are placed as the dump writes
them (:func:`unveil.torch.dump.listen`):

* ``FILE`` inside the dump directory (or a bare dumped file name): that line of that file;
* ``FILE`` a source file of the user: Dynamo's transformed code keeps no line table of the
  user's lines, so the break goes (a) on the first line of every dumped entry of a function
  whose code spans LINE that does the user's work (the graph call or the user's statement, not
  Dynamo's bookkeeping before it), and (b) in graph files, on the statement torch annotated with
  ``# File: FILE:LINE`` (graph code runs from its file with the eager / aot_eager backends).
  A LINE without code is said at once (with the nearest lines that have code), a LINE in no
  function torch compiled when the run ends: either way the run would never stop there;
* ``--pdb``: that first line of the first entry torch runs from the dump (a temporary breakpoint).
"""
import bdb
import dis
import os
import pdb
import re
import sys


class BadBreak(ValueError):
    """A ``--break`` argument that is not FILE:LINE."""


def parse(spec: str, dump_dir: str):
    """``FILE:LINE`` -> (absolute file, line, whether the file is in the dump)."""
    file, sep, line = spec.rpartition(":")
    if not sep or not file or not line.isdigit() or int(line) < 1:
        raise BadBreak("--break wants FILE:LINE (a dumped file or a line of your source), not %r" % spec)
    dump = os.path.abspath(dump_dir)
    if os.path.dirname(file) == "" and not os.path.exists(file) and (
            file.startswith(("__transformed_code_", "__compiled_fn_", "full_code_for_"))):
        file = os.path.join(dump, file)  # a bare dumped file name
    path = os.path.abspath(file)
    in_dump = os.path.dirname(path) == dump
    if not in_dump and not os.path.isfile(path):
        raise BadBreak("--break %s: no such file (give a dumped file or a file of your source)" % spec)
    return path, int(line), in_dump


def code_lines(code) -> list:
    """The line numbers of ``code``'s instructions (nested code excluded), sorted."""
    return sorted({line for _, line in dis.findlinestarts(code) if line is not None})


def file_code_lines(path):
    """The lines of the Python file ``path`` that have code (any function's or the module's),
    sorted; None when it cannot be read or does not compile."""
    try:
        with open(path, "rb") as fh:
            module = compile(fh.read(), path, "exec", dont_inherit=True)
    except (OSError, SyntaxError, ValueError):
        return None
    lines, todo = set(), [module]
    while todo:
        code = todo.pop()
        lines.update(code_lines(code))
        todo.extend(c for c in code.co_consts if isinstance(c, type(code)))
    return sorted(lines)


def nearest(lines, line) -> list:
    """The closest of ``lines`` before and after ``line`` (one or two of them)."""
    before = [l for l in lines if l < line]
    after = [l for l in lines if l > line]
    return before[-1:] + after[:1]


_NO_WORK = {"RESUME", "NOP", "CACHE", "EXTENDED_ARG", "COPY_FREE_VARS", "MAKE_CELL", "GEN_START"}
# Dynamo's bookkeeping before a graph call (timing records) and the ``del`` of its temporaries:
# not a statement of the user's, so not where a stop for the user's line should land
_BOOKKEEPING = {"record_pregraph_bytecode_enter", "record_pregraph_bytecode_exit"}


def _body_lines(code):
    """{line: [instructions]} of ``code``'s body (after its ``def`` line), in code order."""
    lines, line = {}, None
    for ins in dis.get_instructions(code):
        if hasattr(ins, "line_number"):  # 3.13+: every instruction's line
            line = ins.line_number
        elif ins.starts_line is not None:  # up to 3.12: set on a line's first instruction only
            line = ins.starts_line
        if line is not None and line > code.co_firstlineno:
            lines.setdefault(line, []).append(ins)
    return lines


def _is_bookkeeping(instrs) -> bool:
    return all(i.opname in _NO_WORK or i.opname == "DELETE_FAST" for i in instrs) or any(
        isinstance(i.argval, str) and i.argval in _BOOKKEEPING for i in instrs)


def first_body_line(code):
    """The first line of ``code``'s body that does the user's work (the graph call, the user's
    statement): not the ``if False:`` declaring the local slots (a NOP), nor Dynamo's
    bookkeeping before a graph call; else the first line that does anything."""
    lines = _body_lines(code)
    for line, instrs in lines.items():
        if not _is_bookkeeping(instrs):
            return line
    for line, instrs in lines.items():
        if any(i.opname not in _NO_WORK for i in instrs):
            return line
    return code.co_firstlineno


def graph_lines(text: str, source: str, line: int) -> list:
    """Lines (1-based) of the statements a graph file annotates with ``# File: source:line``."""
    mark = re.compile(r"^\s*# File: (.*):(\d+) in ")
    lines = text.splitlines()
    found = []
    for k, l in enumerate(lines):
        m = mark.match(l)
        if m and int(m.group(2)) == line and os.path.abspath(m.group(1)) == source:
            for j in range(k + 1, len(lines)):
                if lines[j].strip() and not lines[j].lstrip().startswith("#"):
                    found.append(j + 1)
                    break
    return found


class RunDebugger:
    """A pdb session around ``unveil run``'s script: breakpoints placed as files are dumped."""

    def __init__(self, specs, stop_first, dump_dir, stdin=None, stdout=None):
        # (argument, file, line, in the dump) of each --break given (once: a repeat is not warned twice)
        self.specs = [spec for spec in ((s,) + parse(s, dump_dir) for s in dict.fromkeys(specs))
                      if _has_code(*spec)]
        self.stop_first = stop_first
        self.pdb = pdb.Pdb(stdin=stdin, stdout=stdout)
        self.placed = []  # (file, line) of every breakpoint set
        self.used = set()  # the --break arguments a breakpoint was set for
        self.stop_listening = None

    def add(self, path, line, temporary=False):
        """A breakpoint at ``path:line`` whether or not the file exists yet (pdb's ``break``
        refuses a file it cannot read, and the dump writes files while the script runs)."""
        path = self.pdb.canonic(path)
        if (path, line) in self.placed:
            return
        lines = self.pdb.breaks.setdefault(path, [])
        if line not in lines:
            lines.append(line)
        bdb.Breakpoint(path, line, temporary)
        self.placed.append((path, line))
        print("unveil: breakpoint at %s:%d" % (path, line), file=sys.stderr)

    def on_file(self, kind, path, code=None, original=None, text=None):
        if kind == "entry" and self.stop_first:
            self.stop_first = False  # one stop: torch runs an entry right after compiling it
            self.add(path, first_body_line(code), temporary=True)
        for spec, source, line, in_dump in self.specs:
            if in_dump:
                continue
            if kind == "entry" and os.path.abspath(original.co_filename) == source:
                lines = code_lines(original)
                if lines and min(lines + [original.co_firstlineno]) <= line <= max(lines):
                    self.add(path, first_body_line(code))
                    self.used.add(spec)
            elif kind == "graph":
                for l in graph_lines(text, source, line):
                    self.add(path, l)
                    self.used.add(spec)

    def __enter__(self):
        from .dump import listen
        for spec, path, line, in_dump in self.specs:
            if in_dump:
                self.add(path, line)
        self.stop_listening = listen(self.on_file)
        p = self.pdb
        p.reset()
        p.botframe = sys._getframe(1)
        # continue (stop only at breakpoints), with tracing on although no file has one yet
        p._set_stopinfo(p.botframe, None, -1)
        sys.settrace(p.trace_dispatch)
        return self

    def __exit__(self, *exc):
        sys.settrace(None)
        if self.stop_listening is not None:
            self.stop_listening()
        self.pdb.clear_all_breaks()
        for spec, source, line, in_dump in self.specs:
            if not in_dump and spec not in self.used:
                _warn("--break %s: torch compiled no function containing line %d of %s, so the run "
                      "never stopped there" % (spec, line, os.path.basename(source)))
        return False


def _has_code(spec, path, line, in_dump) -> bool:
    """Whether a line of the user's source has code; if not, say so (and where code is)."""
    if in_dump:
        return True  # the dumped file is written during the run
    lines = file_code_lines(path)
    if lines is None or line in lines:
        return True
    near = nearest(lines, line)
    _warn("--break %s: line %d of %s has no code%s; no breakpoint set there" % (
        spec, line, os.path.basename(path),
        " (nearest lines with code: %s)" % ", ".join(map(str, near)) if near else ""))
    return False


def _warn(message):
    print("unveil: %s" % message, file=sys.stderr)
