"""The bytecode hook: Dynamo's transformed code -> a dumped file -> the code torch runs.

For each (original code, transformed code) pair Dynamo produces, unveil
decompiles the transformed code, writes it to ``__transformed_code_<i>_for_<fn>.py``
and compiles *that file's text* with the file's absolute path as ``co_filename``
(:func:`unveil.decompiler.recompile.compile_source`), so a breakpoint set in the
file is hit when torch runs the entry.

The replacement is returned to Dynamo only when it is provably the same
program: the same layout (argument names, local slots, cell and free variables,
flags; :func:`~unveil.decompiler.recompile.check_layout`) and either the same
normalized bytecode or the same paths of effects under :mod:`.verify`'s
symbolic interpreter. Anything else (a ``DecompilationError``, any exception,
a difference) makes the hook return ``None`` -- Dynamo's own code runs -- and
the file gets the disassembly and the error instead.

:class:`GraphRunner` does the same for graph code (eager / aot_eager): the
``forward`` torch generates for a graph is compiled again with the dumped
graph file as ``co_filename`` and each statement on the line of the same
statement in that file.
"""
import ast
import functools
import dis
import sys
import types

#: the ``if False:`` statement that fixes the order of local slots (compiles to no code)
RUNS_HERE = "# torch runs the code compiled from this file: breakpoints set here are hit.\n\n"
SLOTS_COMMENT = "# (unveil) declares the local variable slots in Dynamo's order; generates no code"


class NotEquivalent(Exception):
    """The code compiled from the decompiled text is not provably Dynamo's program."""


def prove_same(new: types.CodeType, like: types.CodeType) -> None:
    """Raise :class:`NotEquivalent` unless ``new`` (layout already checked) computes what
    ``like`` computes: identical normalized bytecode, or the same paths of effects."""
    from unveil.decompiler.measure import normalized
    from .verify import Unverifiable, same_effects
    if normalized(new) == normalized(like):
        return
    try:
        same_effects(new, like)
    except Unverifiable as exc:
        raise NotEquivalent("not provably the same program as Dynamo's code: %s" % exc) from None


class Decompiled(str):
    """Decompiled text; ``consts`` maps the ``__unveil_const_<k>`` names in it to the
    constants of the code that have no literal form."""
    consts = None


def decompile_as(code: types.CodeType, def_name: str) -> str:
    """The decompiler's text for ``code`` as ``def <def_name>(...)`` (a :class:`Decompiled`)."""
    from unveil.decompiler import Decompiler
    from unveil.decompiler.emit import to_source
    module, ctx = Decompiler(code).decompile_ast(def_name)
    text = Decompiled(to_source(module))
    text.consts = dict(ctx.consts)
    return text


def with_locals_declared(source: str, def_name: str, code: types.CodeType) -> str:
    """``source`` with the non-argument locals of ``code`` declared first in ``def_name``
    (:func:`unveil.decompiler.recompile.declare_locals`), so the compiler numbers the local
    slots like Dynamo did; the declaration carries a comment saying so."""
    from unveil.decompiler.emit import to_source
    from unveil.decompiler.recompile import declare_locals
    tree = ast.parse(source)
    fn = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
               and n.name == def_name), None)
    if fn is None:
        raise NotEquivalent("no function %s in the decompiled text" % def_name)
    before = len(fn.body)
    declare_locals(fn, code)
    if len(fn.body) == before:
        return source
    lines = to_source(tree).splitlines(True)
    # the declaration is the first `if False:` of the function; put the comment above it
    for k, line in enumerate(lines):
        if line.strip() == "if False:" and k > 0 and lines[k - 1].lstrip().startswith("def %s(" % def_name):
            indent = line[:len(line) - len(line.lstrip())]
            lines.insert(k, indent + SLOTS_COMMENT + "\n")
            break
    return "".join(lines)


def consts_comment(consts) -> str:
    if not consts:
        return ""
    lines = ["(unveil) names for constants of Dynamo's code that have no literal form; the code"
             " torch runs holds the objects themselves:"]
    for name, value in consts.items():
        text = repr(value)
        lines.append("  %s = %s" % (name, text if len(text) <= 100 else text[:97] + "..."))
    return comment_block("\n".join(lines)) + "\n"


class Transformed:
    """Outcome for one cache entry: the file text, and the code torch should run (or None)."""

    def __init__(self, text, code, error, decompiled):
        self.text = text
        self.code = code
        self.error = error
        self.decompiled = decompiled


def comment_block(text: str, prefix: str = "# ") -> str:
    return "\n".join((prefix + line).rstrip() for line in text.splitlines()) + "\n"


def disassembly(code: types.CodeType) -> str:
    import io
    out = io.StringIO()
    dis.dis(code, file=out)
    return out.getvalue()


def transform(new_code: types.CodeType, def_name: str, path: str, header: str,
              log_bytecode: bool = False) -> Transformed:
    """Decompile Dynamo's ``new_code`` into the text of the file at ``path`` and compile it.

    Never raises: failures are reported in ``Transformed.error`` and written into the text."""
    decompiled = None
    try:
        from unveil.decompiler.recompile import compile_source
        decompiled = decompile_as(new_code, def_name)
        consts = getattr(decompiled, "consts", None) or {}
        text = header + RUNS_HERE + consts_comment(consts) + with_locals_declared(decompiled, def_name, new_code)
        code = compile_source(text, new_code, path, def_name, consts)
        prove_same(code, new_code)
        if log_bytecode:
            text += "\n" + comment_block("Dynamo's bytecode for this entry:\n" + disassembly(new_code))
        return Transformed(text, code, None, decompiled)
    except BaseException as exc:  # anything: Dynamo's own code runs instead
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        error = "%s: %s" % (type(exc).__name__, exc)
        return Transformed(failure_text(header, new_code, error, decompiled), None, error, decompiled)


def failure_text(header: str, new_code: types.CodeType, error: str, decompiled) -> str:
    parts = [header,
             "# unveil could not turn this entry into debuggable Python, so torch runs Dynamo's\n"
             "# own bytecode for it (breakpoints in this file are not hit).\n",
             comment_block("error: " + error), "#\n"]
    if decompiled:
        parts.append(comment_block("Decompiler output (NOT equivalent to Dynamo's code, shown for reference):\n"
                                   + decompiled))
        parts.append("#\n")
    parts.append(comment_block("Disassembly of Dynamo's code (%s, Python %d.%d):\n%s" % (
        new_code.co_name, sys.version_info[0], sys.version_info[1], disassembly(new_code))))
    return "".join(parts)


class BytecodeHook:
    """Registers ``callback(original_code, transformed_code)`` with Dynamo; removable."""

    def __init__(self, callback):
        self.callback = callback
        self.handle = None

    def install(self):
        from torch._dynamo.convert_frame import register_bytecode_hook
        self.handle = register_bytecode_hook(self._hook)

    def remove(self):
        if self.handle is not None:
            self.handle.remove()
            self.handle = None

    def _hook(self, code, new_code):
        try:
            return self.callback(code, new_code)
        except Exception:  # never break the user's compilation
            return None


#: graph stages whose code runs as written with the eager and aot_eager backends
RUNNABLE_STAGES = ("captured", "aot_forward", "aot_backward")


def _statement_key(node):
    """What a statement does, independent of annotations and line numbers."""
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return ("=", (ast.dump(node.target),), ast.dump(node.value))
    if isinstance(node, ast.Assign):
        return ("=", tuple(ast.dump(t) for t in node.targets), ast.dump(node.value))
    return ast.dump(node)


@functools.lru_cache(maxsize=256)
def _forward_keys(src):
    """The statement keys of the ``forward`` in torch's generated ``src``
    (cached: torch compiles the same graph source several times)."""
    tree = ast.parse(src)
    fdef = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
    if fdef is None:
        return None
    return tuple(_statement_key(s) for s in _runnable_statements(fdef))


def _runnable_statements(fn):
    """The statements of a graph's ``forward``; an annotation without a value is not one."""
    return [s for s in fn.body if not (isinstance(s, ast.AnnAssign) and s.value is None)]


def _shift(node, delta):
    for n in ast.walk(node):
        if getattr(n, "lineno", None) is not None:
            n.lineno += delta
            if getattr(n, "end_lineno", None) is not None:
                n.end_lineno += delta


class _GraphFile:
    """A dumped graph file: the lines of its ``forward``'s statements, by what they do."""

    def __init__(self, path, text):
        self.path = path
        tree = ast.parse(text)
        cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
        self.forward = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward")
        statements = _runnable_statements(self.forward)
        self.keys = [_statement_key(s) for s in statements]
        self.lines = [s.lineno for s in statements]


class GraphRunner:
    """Runs graph code (Dynamo's captured graph, AOT forward/backward) from the dumped files.

    torch turns a graph into Python source and compiles it in
    ``torch.fx.graph_module._exec_with_source``; while installed, unveil wraps that
    function (the one narrow patch, undone by :meth:`remove`). When the ``forward`` it
    just made does the same statements as the ``forward`` of a dumped graph file (after
    a prologue torch may add, such as unpacking boxed arguments), the function's code is
    replaced by the same source compiled with the file as ``co_filename`` and each
    statement on the line of its twin in the file -- checked to be the identical
    bytecode -- so breakpoints in the graph file are hit. Graph code torch compiles
    after :meth:`remove` (a backward first run after ``prepare_debug``) is not affected.
    """

    def __init__(self):
        self.files = []  # most recent last
        self.waiting = []  # (weakref to forward, its source): made before their file was written
        self.original = None

    def add(self, path: str, text: str) -> None:
        try:
            f = _GraphFile(path, text)
        except (StopIteration, SyntaxError, ValueError):  # the file holds the graph as comments
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
                    if not self.retarget(fn, src, self.files):
                        import weakref
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

    @staticmethod
    def retarget(fn, src, files) -> bool:
        """Run ``fn`` (torch's ``forward`` compiled from ``src``) from the last of ``files``
        that holds the same statements; False if none does."""
        if not files:
            return False
        keys = _forward_keys(src)
        if keys is None:
            return False
        for f in reversed(files):
            n = len(f.keys)
            if n and len(keys) >= n and list(keys[len(keys) - n:]) == f.keys:
                break
        else:
            return False
        tree = ast.parse(src)  # a fresh tree: its line numbers are moved below
        fdef = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "forward")
        statements = _runnable_statements(fdef)
        _shift(fdef, f.forward.lineno - fdef.lineno)
        prologue = len(keys) - n
        for k, s in enumerate(statements):
            line = f.lines[k - prologue] if k >= prologue else f.forward.lineno
            _shift(s, line - s.lineno)
        module = compile(tree, f.path, "exec", dont_inherit=True)
        new = next(c for c in module.co_consts if isinstance(c, types.CodeType) and c.co_name == "forward")
        from unveil.decompiler.measure import normalized
        from unveil.decompiler.recompile import check_layout
        check_layout(new, fn.__code__)
        if new.co_varnames != fn.__code__.co_varnames or normalized(new) != normalized(fn.__code__):
            return False
        fn.__code__ = new.replace(co_flags=fn.__code__.co_flags)
        return True
