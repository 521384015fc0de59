"""Set displays written in one order, whatever the process's string hashes.

The compiler folds a set display of constants into a ``frozenset`` constant where the
order of its items cannot matter: the right operand of a last ``in`` / ``not in``, the
iterable of a ``for`` (and of a comprehension), and (3.9+) any display of three or more
constants (``BUILD_SET 0`` + ``SET_UPDATE`` of the constant). The decompiler reads the
items back in the frozenset's iteration order, which follows the hashes of its strings,
so the text changed from one ``PYTHONHASHSEED`` to the next. In those places the items
are written sorted: the text compiles to an equal frozenset, so to the same bytecode.
Elsewhere a display of constants is built item by item, in the bytecode's order, which
is written as it is.

Which displays are folded is read from the running compiler (feature probes), not from
its version."""
import ast


def _folds(source):
    """Whether the compiler turns the set display in ``source`` into a frozenset constant."""
    todo = [compile(source, "<probe>", "exec", dont_inherit=True)]
    while todo:
        code = todo.pop()
        for c in code.co_consts:
            if isinstance(c, frozenset):
                return True
            if hasattr(c, "co_consts"):
                todo.append(c)
    return False


def _big_display():
    """A display of more constants than CPython's STACK_USE_GUIDELINE (30) puts on the stack:
    3.14+ builds it item by item (``BUILD_SET 0``, then ``SET_ADD`` each, in its order)."""
    return "{%s}" % ", ".join(str(i) for i in range(BIG_DISPLAY))


BIG_DISPLAY = 31
FOLDS_MEMBERSHIP = _folds("x in {1, 2}")
FOLDS_FOR_ITERABLE = _folds("for x in {1, 2}: pass")
FOLDS_COMPREHENSION_ITERABLE = _folds("[y for y in {1, 2}]")
#: (3.15: not a display of BIG_DISPLAY constants or more)
FOLDS_BIG_COMPREHENSION_ITERABLE = _folds("[y for y in %s]" % _big_display())
#: (3.9+) a display of this many constants or more is folded wherever it stands
FOLDED_DISPLAY_SIZE = 3 if _folds("{1, 2, 3}") else None
#: (3.14+: not a display of BIG_DISPLAY constants or more, but where the places above fold it)
FOLDS_BIG_DISPLAY = _folds("y = %s" % _big_display())


def in_one_order(node):
    """Sort the items of the set displays of constants that ``node`` (one node, not its
    subtree) holds where the compiler folds them, and write a frozenset constant standing
    there as such a display (``for x in {1, 2}``: the constant is the folded display)."""
    t = type(node)
    if t is ast.Set:
        if (FOLDED_DISPLAY_SIZE is not None and len(node.elts) >= FOLDED_DISPLAY_SIZE
                and (FOLDS_BIG_DISPLAY or len(node.elts) < BIG_DISPLAY)):
            _sort(node)
    elif t is ast.Compare:
        if FOLDS_MEMBERSHIP and type(node.ops[-1]) in (ast.In, ast.NotIn):
            node.comparators[-1] = _ordered(node.comparators[-1])
    elif t is ast.For:
        if FOLDS_FOR_ITERABLE:
            node.iter = _ordered(node.iter)
    elif t is ast.comprehension:
        if (FOLDS_COMPREHENSION_ITERABLE and not node.is_async
                and (FOLDS_BIG_COMPREHENSION_ITERABLE or not _is_big_display(node.iter))):
            node.iter = _ordered(node.iter)


def _is_big_display(expr):
    return type(expr) is ast.Set and len(expr.elts) >= BIG_DISPLAY


def _ordered(expr):
    """``expr`` (where a display of constants is folded) with its items in one order."""
    if type(expr) is ast.Constant and type(expr.value) is frozenset and expr.value:
        return ast.copy_location(ast.Set(elts=[ast.Constant(value=v) for v in _sorted(expr.value)]),
                                 expr)
    if type(expr) is ast.Set:
        _sort(expr)
    return expr


def _sort(display):
    if all(type(e) is ast.Constant for e in display.elts):
        display.elts.sort(key=lambda e: _key(e.value))


def _sorted(values):
    return sorted(values, key=_key)


def _key(value):
    # (items of different types do not compare: the type's name first; repr is the same
    # in every process for the constants a display can hold)
    return type(value).__name__, repr(value)
