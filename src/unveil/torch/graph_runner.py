"""Graph code (Dynamo's captured graph, AOT forward/backward) runs from the dumped graph files.

torch turns a graph into Python source and compiles it in
``torch.fx.graph_module._exec_with_source``; while installed, :class:`GraphRunner`
wraps that function (a narrow patch of torch -- see docs/dump.md -- undone by
:meth:`GraphRunner.remove`). When the ``forward`` torch just made holds the same
statements as the ``forward`` of a dumped graph file (after a prologue torch may
add, such as unpacking boxed arguments), its code is replaced by the same source
compiled with the file as ``co_filename`` and each statement on the line of its
twin in the file -- checked to be the identical bytecode -- so breakpoints in the
graph file are hit. Graph code torch compiles after :meth:`GraphRunner.remove` (a
backward first run after ``prepare_debug``) is not affected.

This runs inside every graph compilation, so it reads both texts as lines -- a
statement per line, keyed by its text without the file's annotations -- and parses
nothing unless a statement takes several lines.
"""
import ast
import re
import types
import weakref

from unveil.decompiler.api import gc_paused

#: graph stages whose code runs as written with the eager and aot_eager backends
RUNNABLE_STAGES = ("captured", "aot_forward", "aot_backward")

_ANNOTATED = re.compile(r'^([A-Za-z_]\w*): "[^"]*" = ')


def _key(statement: str) -> str:
    """What a statement line does: torch writes the graph file (``print_readable``) and the
    code it runs with one code generator, which only adds annotations to the file's
    assignments (and spreads its ``return`` over lines with comments)."""
    if statement == "return" or statement.startswith(("return ", "return(")):
        return "return"
    return _ANNOTATED.sub(r"\1 = ", statement, count=1)


class _Body:
    """The ``forward`` in graph code read as lines (no parsing: this runs inside every graph
    compilation): the line of its ``def`` and, for each line of its body that starts a
    statement, the line number and :func:`_key`. ``simple``: no statement continues on
    another line."""

    def __init__(self, lines, indent):
        self.def_line, self.lines, self.keys, self.simple = None, [], [], True
        head = " " * indent + "def forward("
        d = next((k for k, line in enumerate(lines) if line.startswith(head)), None)
        if d is None:
            return
        end = d
        while not lines[end].rstrip().endswith(":"):  # the signature may take several lines
            end += 1
            if end == len(lines):
                return
        self.def_line = d + 1
        body = " " * (indent + 4)
        for k in range(end + 1, len(lines)):
            line = lines[k]
            text = line.strip()
            if not text:
                continue
            if not line.startswith(body):
                break  # the function ended
            if line.startswith(body + " ") or text[0] in ")]}":
                self.simple = False  # the rest of a statement over several lines
            elif not text.startswith("#"):
                self.lines.append(k + 1)
                self.keys.append(_key(text))


def _forward_of(tree):
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)


def _laid_out(lines, fwd, f, prologue):
    """torch's source (``lines``) with blank lines put in so each statement of its ``forward``
    (``fwd``) stands on the line of its twin in graph file ``f``, and the statements torch adds
    in front (``prologue`` of them) on the line before the first twin (so they have run when a
    breakpoint there stops); None when that layout is impossible."""
    if not fwd.simple:
        return None
    head = [line for line in lines[:fwd.def_line - 1] if line.strip()]
    if len(head) > f.forward_line - 1:
        return None
    out = head + [""] * (f.forward_line - 1 - len(head)) + lines[fwd.def_line - 1:fwd.lines[0] - 1]
    previous = None
    for k, line in enumerate(fwd.lines):
        target = f.lines[k - prologue] if k >= prologue else f.lines[0] - 1
        if target == previous:
            out[-1] += ";  " + lines[line - 1].strip()  # the prologue shares one line
            continue
        if target <= len(out):
            return None
        out += [""] * (target - 1 - len(out)) + [lines[line - 1]]
        previous = target
    out += lines[fwd.lines[-1]:]
    return "\n".join(out) + "\n"


def _moved(src, fwd, f, prologue):
    """torch's source parsed, each statement of ``forward`` moved to the line of its twin in
    graph file ``f`` (the prologue to the ``def`` line)."""
    tree = ast.parse(src)
    fdef = _forward_of(tree)
    target = {line: f.lines[k - prologue] if k >= prologue else f.forward_line
              for k, line in enumerate(fwd.lines)}
    targets = [target[s.lineno] for s in fdef.body]
    ast.increment_lineno(fdef, f.forward_line - fdef.lineno)  # the body moves along ...
    for s, line in zip(fdef.body, targets):
        ast.increment_lineno(s, line - s.lineno)  # ... and then to its twins' lines
    return tree


class GraphFile:
    """A dumped graph file: its ``forward``'s statements (as keys) and their lines.

    ``text`` (torch's graph text) starts on line ``1 + header_lines`` of the file at ``path``."""

    def __init__(self, path, text, header_lines=0):
        self.path = path
        body = _Body(text.splitlines(), 4)
        if body.def_line is None:
            raise ValueError("no forward method in the graph text")
        self.forward_line = body.def_line + header_lines
        self.keys = body.keys
        self.lines = [line + header_lines for line in body.lines]


def _same_code(a: types.CodeType, b: types.CodeType) -> bool:
    if (a.co_code, a.co_consts, a.co_names, a.co_varnames) == (b.co_code, b.co_consts, b.co_names, b.co_varnames):
        return True
    from unveil.decompiler.measure import normalized  # line changes can move a NOP
    return a.co_varnames == b.co_varnames and normalized(a) == normalized(b)


class GraphRunner:
    """See the module docstring."""

    def __init__(self):
        self.files = []  # GraphFile, most recent last
        self.waiting = []  # (weakref to forward, its source): made before their file was written
        # (weakref to forward, its source) made since a file was last added: torch makes a
        # graph's forward before unveil writes its file, so a forward whose statements match an
        # older file (a recompile with the same graph) moves to its own file when that is added
        self.fresh = []
        self.forwards = {}  # torch's source -> its _Forward
        self.made = {}  # (source, file path) -> the code compiled from that file
        self.original = None

    def add(self, path: str, text: str, header_lines=0) -> None:
        """A graph file was written: torch's ``text`` after ``header_lines`` lines."""
        try:
            f = GraphFile(path, text, header_lines)
        except ValueError:  # no forward in it
            return
        self.files.append(f)
        for ref, src in list(self.waiting):
            fn = ref()
            if fn is None or self.retarget(fn, src, [f]):
                self.waiting.remove((ref, src))
        for ref, src in list(self.fresh):
            fn = ref()
            if fn is None or self.retarget(fn, src, [f]):
                self.fresh.remove((ref, src))

    def install(self):
        import torch.fx.graph_module as graph_module
        original = self.original = graph_module._exec_with_source

        def _exec_with_source(src, globals, co_fields=None):
            original(src, globals, co_fields)
            fn = globals.get("forward")
            if isinstance(fn, types.FunctionType):
                try:
                    with gc_paused():
                        if not self.retarget(fn, src, self.files):
                            self.waiting = self.waiting[-31:] + [(weakref.ref(fn), src)]
                        else:
                            self.fresh = self.fresh[-31:] + [(weakref.ref(fn), src)]
                except Exception:  # never break torch: the graph runs from torch's own code
                    pass
        graph_module._exec_with_source = _exec_with_source

    def remove(self):
        if self.original is not None:
            import torch.fx.graph_module as graph_module
            graph_module._exec_with_source = self.original
            self.original = None
        self.waiting = []
        self.fresh = []

    def retarget(self, fn, src, files) -> bool:
        """Run ``fn`` (torch's ``forward`` compiled from ``src``) from the last of ``files``
        that holds the same statements; False if none does."""
        if not files:
            return False
        for f in reversed(files):
            made = self.made.get((src, f.path))
            if made is not None:
                fn.__code__ = made
                return True
        fwd = self.forwards.get(src)
        if fwd is None:
            fwd = self.forwards[src] = _Body(src.splitlines(), 0)
        keys = fwd.keys
        for f in reversed(files):
            n = len(f.keys)
            if keys and n and len(keys) >= n and keys[len(keys) - n:] == f.keys:
                break
        else:
            return False
        prologue = len(keys) - n
        text = _laid_out(src.splitlines(), fwd, f, prologue)
        module = compile(text if text is not None else _moved(src, fwd, f, prologue), f.path, "exec",
                         dont_inherit=True)
        new = next(c for c in module.co_consts if isinstance(c, types.CodeType) and c.co_name == "forward")
        from unveil.decompiler.recompile import check_layout
        check_layout(new, fn.__code__)
        if not _same_code(new, fn.__code__):
            return False
        fn.__code__ = self.made[(src, f.path)] = new.replace(co_flags=fn.__code__.co_flags)
        return True
