"""Values that live on the symbolic stack but are not (yet) Python expressions.

Ordinary values are ``ast.expr`` nodes. The classes here stand for things the
bytecode keeps on the stack that source code never names: the NULL beside a
callable, a for-loop's iterator, a ``with`` block's exit function, a function
object under construction, the slots of an unpacking, an import in progress.
"""
import ast


class Marker:
    """Base of the non-expression stack values."""

    def __repr__(self):
        return "<%s>" % type(self).__name__


class Null(Marker):
    """The NULL pushed beside a callable (3.11+), or the empty self slot."""


NULL = Null()


class Iterator(Marker):
    """The iterator of a ``for`` loop or comprehension: ``iter(expr)``."""

    def __init__(self, expr, is_async=False):
        self.expr = expr
        self.is_async = is_async


class WithExit(Marker):
    """The bound ``__exit__`` left on the stack by BEFORE_WITH / SETUP_WITH."""

    def __init__(self, context, is_async=False):
        self.context = context
        self.is_async = is_async


class Cell(Marker):
    """LOAD_CLOSURE: the cell of a variable, not its value (Dynamo passes
    closure tuples to functions it calls)."""

    def __init__(self, name):
        self.name = name


class CellTuple(Marker):
    """A tuple of cells: a closure."""

    def __init__(self, cells):
        self.cells = cells


class CodeConst(Marker):
    """A code object constant: the body of a def, lambda or class when
    MAKE_FUNCTION takes it, otherwise an object with no literal form."""

    def __init__(self, code):
        self.code = code


class WithEnter(Marker):
    """The value ``__enter__`` returned: stored by ``as target`` or dropped."""


class Decorated(Marker):
    """``decorator(fn)`` where ``fn`` is a def or class being built: a
    decorator if the result is stored under the def's name, else a call."""

    def __init__(self, decorator, target):
        self.decorator = decorator
        self.target = target


class Exception_(Marker):
    """An exception object pushed on entry to a handler (or the previous one)."""


class UnpackSlot(Marker):
    """One of the values pushed by UNPACK_SEQUENCE/UNPACK_EX or FOR_ITER.

    Storing into every slot of a group completes an assignment target; the
    group then calls ``on_complete`` with the target node.
    """

    def __init__(self, group, index):
        self.group = group
        self.index = index


class TargetGroup:
    def __init__(self, size, on_complete, starred_index=None, parent=None):
        self.targets = [None] * size
        self.on_complete = on_complete
        self.starred_index = starred_index
        self.parent = parent  # (group, index) when nested
        self.filled = 0

    def fill(self, index, target):
        if self.starred_index is not None and index == self.starred_index:
            target = ast.Starred(value=target, ctx=ast.Store())
        self.targets[index] = target
        self.filled += 1
        if self.filled == len(self.targets):
            node = ast.Tuple(elts=list(self.targets), ctx=ast.Store())
            if self.parent is not None:
                group, idx = self.parent
                group.fill(idx, node)
            else:
                self.on_complete(node)


class Function(Marker):
    """A function object made by MAKE_FUNCTION, waiting to become a ``def``,
    a ``lambda``, a comprehension or a class body."""

    def __init__(self, code, defaults=None, kwdefaults=None, annotations=None,
                 closure=None):
        self.code = code
        self.defaults = defaults or []
        self.kwdefaults = kwdefaults or {}
        self.annotations = annotations
        self.closure = closure
        self.annotate = None  # 3.14+: the Function computing the annotations (PEP 649)


class BuildClass(Marker):
    """``__build_class__`` loaded for a class statement."""


class ClassValue(Marker):
    """A class object built by ``__build_class__(body, name, *bases, **kw)``."""

    def __init__(self, body, name, bases, keywords):
        self.body = body
        self.name = name
        self.bases = bases
        self.keywords = keywords


class Import(Marker):
    """The module pushed by IMPORT_NAME."""

    def __init__(self, name, fromlist, level, lazy=False):
        self.name = name
        self.fromlist = fromlist
        self.level = level
        self.lazy = lazy  # 3.15: ``lazy import`` (PEP 810)
        self.node = None  # the Import/ImportFrom statement being built


class ImportedName(Marker):
    """A name pushed by IMPORT_FROM."""

    def __init__(self, module, name):
        self.module = module
        self.name = name


class InPlace(Marker):
    """The result of an in-place operator, waiting to be stored back."""

    def __init__(self, target, op, value):
        self.target = target
        self.op = op
        self.value = value


class Stored(Marker):
    """A value that was stored while a copy of it stayed on the stack: the
    copy becomes a walrus or another target of the same assignment."""

    def __init__(self, assign, value):
        self.assign = assign
        self.value = value


class Converted(Marker):
    """3.13: a value after CONVERT_VALUE (``!r``/``!s``/``!a``), before its format."""

    def __init__(self, value, conversion):
        self.value = value
        self.conversion = conversion


class SymList(Marker):
    """A list built on the stack whose contents are still known element by
    element. The bytecode Dynamo writes copies such lists and mutates them
    (``LIST_EXTEND``, ``STORE_SUBSCR`` on constant indices); as long as every
    change is known, they stay a plain display in the output instead of a
    temporary variable and a statement per change. ``loop`` is the loop it was
    built in: a change inside another loop is not straight-line any more."""

    def __init__(self, elts, loop):
        self.elts = elts
        self.loop = loop


class AnnotationsDict(Marker):
    """``__annotations__`` loaded for an annotated assignment."""
