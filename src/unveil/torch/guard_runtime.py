"""What the guard functions of a dump need to run, and which of their lines are plain Python.

Each ``__guard_<k>_for_<fn>(L, G)`` in ``full_code_for_<fn>_<k>.py`` is torch's guard of one
cache entry, one statement per condition (:func:`unveil.torch.guards.guard_function`). A
condition stays Python when its text is exactly what torch checks (:func:`python_form`); the
names it uses are torch's own guard helpers, taken from the running torch
(:func:`guard_globals`). Every other condition -- a tensor match, the global state, a lambda
guard, a relational guard -- is checked only in C++: the file calls :func:`torch_guard`, which
runs the leaf guard of the live cache entry (found by compile id) on the value the condition
reads. So calling the guard function with a frame's locals and globals returns torch's verdict.

Imports torch lazily: planning happens while torch compiles; running needs torch loaded anyway.
"""
import ast
import builtins
import functools

# Helpers torch binds per cache entry (their meaning depends on the entry): never plain Python.
_PER_ENTRY = frozenset(["___check_global_state", "___check_torch_function_mode_stack",
                        "___check_tensors", "___check_tensors_verbose"])

# Leaf guards whose text is exactly the check torch runs in C++ (same operands, same result,
# no exception swallowed that Python would raise on the values the guard accepts).
# A LAMBDA_GUARD whose text is Python runs that very text (torch compiles its code parts with the
# same helper names), e.g. the shape guards ``2 <= L['x'].size()[0]``.
_EXACT_KINDS = frozenset(["ID_MATCH", "TYPE_MATCH", "NONE_MATCH", "NOT_NONE", "DEFAULT_DEVICE",
                          "DIMENSION_DYNAMIC_MARKING_GUARD", "NO_HASATTR", "LENGTH_CHECK",
                          "DICT_LENGTH", "DICT_CONTAINS", "LAMBDA_GUARD"])

# Leaf guards that also require the exact type of the value torch saw: ``L['b'] == 1`` fails
# for ``True`` and ``1.0``, ``L['f'] == True`` (TRUE_MATCH is an identity test) fails for ``1``.
_TYPED_KINDS = frozenset(["EQUALS_MATCH", "TRUE_MATCH", "FALSE_MATCH"])
_NAMED_TYPES = {t: t.__name__ for t in (int, float, bool, str, bytes, complex)}


class GuardNotLive(RuntimeError):
    """A condition torch checks only in C++ whose cache entry is not in this process."""


@functools.lru_cache(maxsize=1)
def _shared_names() -> dict:
    """torch's helpers for guard code that mean the same for every cache entry."""
    names = {}
    try:
        from torch._dynamo import guards as tg
    except ImportError:
        return names
    get = getattr(tg, "_get_closure_vars", None)
    if callable(get):
        names.update(get())
    names.update(getattr(tg, "SYMPY_INTERP", {}))  # what torch adds for shape guards
    for name in _PER_ENTRY:
        names.pop(name, None)
    return names


def guard_globals() -> dict:
    """The names the guard functions of a dumped file use (``globals().update(...)`` in it)."""
    out = dict(_shared_names())
    out["___torch_guard"] = torch_guard
    return out


@functools.lru_cache(maxsize=1)
def _known_names() -> frozenset:
    return frozenset(_shared_names()) | {"L", "G"}


# the entries of one frame share most of their guard texts, and a dump's exit parses every
# condition of every entry (GPT-2's forward: about 700, a tenth of the exit's time)
@functools.lru_cache(maxsize=8192)
def _is_python(expr: str) -> bool:
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return False
    known = _known_names()
    return all(n.id in known or (hasattr(builtins, n.id) and n.id not in _PER_ENTRY)
               for n in ast.walk(tree) if isinstance(n, ast.Name))


class Leaf:
    """One condition of a guard manager: torch's text (one verbose code part) and where it runs."""

    def __init__(self, part, kind, source, value_type, guard, relational):
        self.part = part  # torch's verbose code part, with its "# source line" comment
        self.kind = kind  # the leaf guard's class name, e.g. TENSOR_MATCH
        self.source = source  # the value it checks, e.g. L['a'] (L for the frame itself)
        self.value_type = value_type
        self.guard = guard
        self.relational = relational

    @property
    def text(self) -> str:
        from .guards import split_comment
        return split_comment(self.part)[0].strip()


def leaves(guard_manager) -> list:
    """Every condition of ``guard_manager`` in the order torch lists them (leaves of a manager,
    then its children, then the epilogue guards)."""
    try:
        from torch._C._dynamo.guards import RelationalGuard
    except ImportError:  # pragma: no cover - older torch
        RelationalGuard = ()
    out = []

    def add(mgr, guard, source, value_type):
        for part in guard.verbose_code_parts():
            out.append(Leaf(part, type(guard).__name__, source, value_type, guard,
                            isinstance(guard, RelationalGuard)))

    def walk(mgr):
        source = mgr.get_source() if hasattr(mgr, "get_source") else None
        value_type = None
        if hasattr(mgr, "get_type_of_guarded_value"):
            try:
                value_type = mgr.get_type_of_guarded_value()
            except Exception:
                value_type = None
        for guard in mgr.get_leaf_guards():
            add(mgr, guard, source, value_type)
        for child in mgr.get_child_managers():
            walk(child)

    root = getattr(guard_manager, "root", None)
    if root is None:
        return out
    walk(root)
    for guard in getattr(root, "get_epilogue_lambda_guards", lambda: [])():
        add(root, guard, root.get_source() if hasattr(root, "get_source") else None, None)
    return out


def python_form(leaf: Leaf):
    """The Python expression that decides ``leaf`` exactly as torch does, or None when only
    torch's C++ guard can (the file then calls :func:`torch_guard`)."""
    from .guards import to_python
    expr, _, _ = to_python(leaf.part)
    if leaf.relational or not _is_python(expr):
        return None
    if leaf.kind in _EXACT_KINDS:
        return expr
    if leaf.kind in _TYPED_KINDS and leaf.value_type in _NAMED_TYPES and leaf.source:
        # torch compares only a value of the very type it saw
        return "type(%s) is %s and %s" % (leaf.source, _NAMED_TYPES[leaf.value_type], expr)
    return None


class Executable:
    """``guard_function``'s per-line rewrite for one cache entry: a line stays Python when it
    is torch's exact check, else it is evaluated through the entry's guard manager."""

    def __init__(self, compile_id: str, guard_manager):
        self.compile_id = str(compile_id)
        self.forms = {}
        self.parts = []
        self.relational = set()
        for leaf in leaves(guard_manager) if guard_manager is not None else []:
            if leaf.part not in self.forms:  # the first leaf of a text decides its form
                self.parts.append(leaf.part)
                self.forms[leaf.part] = python_form(leaf)
            if leaf.relational:
                self.relational.add(leaf.part)

    def complete(self, lines) -> list:
        """``lines`` and, after them, every condition of the guard manager they lack (the
        epilogue guards torch runs last), so the guard function checks all torch checks."""
        have = set(lines)
        return list(lines) + [p for p in self.parts if p not in have]

    def __call__(self, part, expr, note):
        from .guards import split_comment
        form = self.forms.get(part)
        if form is not None:
            return form, note
        text = split_comment(part)[0].strip()
        how = ("checked only in C++, across several values: evaluated through the whole guard manager "
               "of entry %s" if part in self.relational else
               "checked only in C++: evaluated through torch's guard manager of entry %s")
        return "___torch_guard(%r, L, G, %r)" % (self.compile_id, text), how % self.compile_id


# -- running ------------------------------------------------------------------

def live_entry(compile_id: str):
    """The cache entry with ``compile_id`` in this process (any compiled frame), or None."""
    from . import cache
    try:
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    except ImportError:  # pragma: no cover
        return None
    for code in cache.compiled_originals():
        for entry in _debug_get_cache_entry_list(code):
            if str(getattr(entry, "compile_id", "")) == compile_id:
                return entry
    return None


def _value_of(source, L, G):
    if source in (None, "L"):
        return L
    scope = dict(_shared_names())
    scope.update(L=L, G=G)
    return eval(source, scope)  # torch's own source text: L[...], G[...], attributes


def torch_guard(compile_id: str, L, G, text: str) -> bool:
    """torch's verdict on condition ``text`` of entry ``compile_id`` for locals ``L``/globals ``G``:
    the leaf guard itself runs on the value it reads (a relational guard, which compares
    several values, through the entry's whole guard manager)."""
    entry = live_entry(compile_id)
    if entry is None:
        raise GuardNotLive("unveil: this condition is checked only in C++, by the guard manager of "
                           "cache entry %s, which is not live in this process: %s" % (compile_id, text))
    for leaf in leaves(entry.guard_manager):
        if leaf.text != text:
            continue
        if leaf.relational:
            return bool(entry.guard_manager.check(L))
        try:
            value = _value_of(leaf.source, L, G)
        except (LookupError, AttributeError, TypeError):
            return False  # the value is not there: torch's accessor fails, so does the guard
        return bool(leaf.guard(value))
    raise GuardNotLive("unveil: cache entry %s has no condition %r (the dump is older than the "
                       "entry)" % (compile_id, text))
