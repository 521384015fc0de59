"""``unveil run --break FILE:LINE`` / ``--pdb``: stop in the compiled code without editing the script.

The script runs under a :class:`pdb.Pdb` that does not stop until a breakpoint is hit. The
dumped files do not exist when the run starts, so breakpoints are placed as the dump writes
them (:func:`unveil.torch.dump.listen`):

* ``FILE`` inside the dump directory (or a bare dumped file name): that line of that file;
* ``FILE`` a source file of the user: Dynamo's transformed code keeps no line table of the
  user's lines, so the break goes (a) on the first line of every dumped entry of a function
  whose code spans LINE, and (b) in graph files, on the statement torch annotated with
  ``# File: FILE:LINE`` (graph code runs from its file with the eager / aot_eager backends);
* ``--pdb``: the first line of the first entry torch runs from the dump (a temporary breakpoint).
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


_NO_WORK = {"RESUME", "NOP", "CACHE", "EXTENDED_ARG", "COPY_FREE_VARS", "MAKE_CELL", "GEN_START"}


def first_body_line(code):
    """The first line of ``code``'s body that does something (the ``if False:`` declaring the
    local slots compiles to a NOP only)."""
    for ins in dis.get_instructions(code):
        line = ins.starts_line if isinstance(ins.starts_line, int) and not isinstance(ins.starts_line, bool) \
            else getattr(ins, "line_number", None)
        if ins.opname not in _NO_WORK and line is not None and line > code.co_firstlineno:
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
        self.specs = [parse(s, dump_dir) for s in specs]
        self.stop_first = stop_first
        self.pdb = pdb.Pdb(stdin=stdin, stdout=stdout)
        self.placed = []  # (file, line) of every breakpoint set
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
        for source, line, in_dump in self.specs:
            if in_dump:
                continue
            if kind == "entry" and os.path.abspath(original.co_filename) == source:
                lines = code_lines(original)
                if lines and min(lines + [original.co_firstlineno]) <= line <= max(lines):
                    self.add(path, first_body_line(code))
            elif kind == "graph":
                for l in graph_lines(text, source, line):
                    self.add(path, l)

    def __enter__(self):
        from .dump import listen
        for path, line, in_dump in self.specs:
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
        return False
