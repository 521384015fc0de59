"""Graph code (Dynamo's captured graph, AOT forward/backward) runs from the dumped graph files.

torch turns a graph into Python source and compiles it in
``torch.fx.graph_module._exec_with_source``; while installed, :class:`GraphRunner`
wraps that function (unveil's one narrow patch of torch, undone by
:meth:`GraphRunner.remove`). When the ``forward`` torch just made holds the same
statements as the ``forward`` of a dumped graph file (after a prologue torch may
add, such as unpacking boxed arguments), its code is replaced by the same source
compiled with the file as ``co_filename`` and each statement on the line of its
twin in the file -- checked to be the identical bytecode -- so breakpoints in the
graph file are hit. Graph code torch compiles after :meth:`GraphRunner.remove` (a
backward first run after ``prepare_debug``) is not affected.

This runs inside every graph compilation, so it parses each text once and compares
statements by their source text, not by ``ast.dump``.
"""
import ast
import types
import weakref

from .hook import gc_paused

#: graph stages whose code runs as written with the eager and aot_eager backends
RUNNABLE_STAGES = ("captured", "aot_forward", "aot_backward")


def _text(lines, node):
    """The source text of a one-line ``node`` (``lines``: the source's lines; offsets count
    UTF-8 bytes); a node over several lines (which may hold comments) by its tree."""
    if node.lineno != node.end_lineno:
        return ast.dump(node)
    line = lines[node.lineno - 1]
    if line.isascii():
        return line[node.col_offset:node.end_col_offset]
    return line.encode()[node.col_offset:node.end_col_offset].decode()


def _statement_key(lines, node):
    """What a statement does, independent of annotations and line numbers: torch writes the
    graph file (``print_readable``) and the code it runs from one code generator, which adds
    only annotations to the file (and spreads the ``return`` over lines with comments)."""
    if isinstance(node, ast.Return):
        return ast.dump(node)
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return (_text(lines, node.target), _text(lines, node.value))
    if isinstance(node, ast.Assign):
        return (" = ".join(_text(lines, t) for t in node.targets), _text(lines, node.value))
    return _text(lines, node)


def _runnable_statements(fn):
    """The statements of a graph's ``forward``; an annotation without a value is not one."""
    return [s for s in fn.body if not (isinstance(s, ast.AnnAssign) and s.value is None)]


def _move(node, line, skip_body=False):
    """Put every line number below ``node`` ``line - node.lineno`` further (the body of a
    function only when not ``skip_body``)."""
    delta = line - node.lineno
    if not delta:
        return
    todo = [node]
    while todo:
        n = todo.pop()
        if getattr(n, "lineno", None) is not None:
            n.lineno += delta
            if getattr(n, "end_lineno", None) is not None:
                n.end_lineno += delta
        for field, value in ast.iter_fields(n):
            if skip_body and n is node and field == "body":
                continue
            if isinstance(value, list):
                todo.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                todo.append(value)


def _forward_of(tree):
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)


class _Forward:
    """The ``forward`` of torch's generated source: statement keys, and where it is in the source."""

    def __init__(self, src):
        fdef = _forward_of(ast.parse(src))
        self.keys = None
        if fdef is None:
            return
        lines = src.splitlines()
        statements = _runnable_statements(fdef)
        self.keys = [_statement_key(lines, s) for s in statements]
        self.def_line = fdef.lineno
        self.spans = [(s.lineno, s.end_lineno) for s in statements]


def _laid_out(src, fwd, f, prologue):
    """``src`` with blank lines put in so each statement of ``forward`` stands on the line of
    its twin in graph file ``f``, and the statements torch adds in front (``prologue`` of them)
    on the line before the first twin (so they have run when a breakpoint there stops); None
    when that layout is impossible (then the tree is moved)."""
    lines = src.splitlines()
    if not fwd.spans or any(a != b for a, b in fwd.spans):
        return None  # a statement over several lines
    head = [line for line in lines[:fwd.def_line - 1] if line.strip()]
    if len(head) > f.forward_line - 1:
        return None
    out = head + [""] * (f.forward_line - 1 - len(head)) + lines[fwd.def_line - 1:fwd.spans[0][0] - 1]
    placed = {}  # source line -> file line
    for k, (line, _) in enumerate(fwd.spans):
        target = f.lines[k - prologue] if k >= prologue else f.lines[0] - 1
        if placed.setdefault(line, target) != target:
            return None  # statements of one source line go to different lines
    previous = None
    for line, target in sorted(placed.items()):
        if target == previous:
            out[-1] += ";  " + lines[line - 1].strip()  # the prologue shares one line
            continue
        if target <= len(out):
            return None
        out += [""] * (target - 1 - len(out)) + [lines[line - 1]]
        previous = target
    out += lines[fwd.spans[-1][0]:]
    return "\n".join(out) + "\n"


class GraphFile:
    """A dumped graph file: its ``forward``'s statements (as keys) and their lines.

    ``tree`` is the syntax tree of ``text``, which starts on line ``1 + header_lines``
    of the file at ``path``."""

    def __init__(self, path, tree, text, header_lines=0):
        self.path = path
        cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
        forward = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward")
        self.forward_line = forward.lineno + header_lines
        lines = text.splitlines()
        statements = _runnable_statements(forward)
        self.keys = [_statement_key(lines, s) for s in statements]
        self.lines = [s.lineno + header_lines for s in statements]


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
        self.forwards = {}  # torch's source -> its _Forward
        self.made = {}  # (source, file path) -> the code compiled from that file
        self.original = None

    def add(self, path: str, tree, text: str, header_lines=0) -> None:
        """A graph file was written: ``text`` (parsed: ``tree``) after ``header_lines`` lines."""
        try:
            f = GraphFile(path, tree, text, header_lines)
        except StopIteration:  # no class with a forward in it
            return
        self.files.append(f)
        for ref, src in list(self.waiting):
            fn = ref()
            if fn is None or self.retarget(fn, src, [f]):
                self.waiting.remove((ref, src))

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
                except Exception:  # never break torch: the graph runs from torch's own code
                    pass
        graph_module._exec_with_source = _exec_with_source

    def remove(self):
        if self.original is not None:
            import torch.fx.graph_module as graph_module
            graph_module._exec_with_source = self.original
            self.original = None
        self.waiting = []

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
            fwd = self.forwards[src] = _Forward(src)
        keys = fwd.keys
        for f in reversed(files):
            n = len(f.keys)
            if keys and n and len(keys) >= n and keys[len(keys) - n:] == f.keys:
                break
        else:
            return False
        prologue = len(keys) - n
        text = _laid_out(src, fwd, f, prologue)
        if text is not None:
            module = compile(text, f.path, "exec", dont_inherit=True)
        else:  # slower: move the line numbers in the tree
            tree = ast.parse(src)
            fdef = _forward_of(tree)
            _move(fdef, f.forward_line, skip_body=True)
            for k, s in enumerate(_runnable_statements(fdef)):
                _move(s, f.lines[k - prologue] if k >= prologue else f.forward_line)
            module = compile(tree, f.path, "exec", dont_inherit=True)
        new = next(c for c in module.co_consts if isinstance(c, types.CodeType) and c.co_name == "forward")
        from unveil.decompiler.recompile import check_layout
        check_layout(new, fn.__code__)
        if not _same_code(new, fn.__code__):
            return False
        fn.__code__ = self.made[(src, f.path)] = new.replace(co_flags=fn.__code__.co_flags)
        return True
