"""Limits on nesting, so deep input is refused with its real reason.

The structuring walks recurse once per nested statement, ``elif`` branch,
conditional expression, ``and``/``or`` operand used as a value and nested
function; ``ast.unparse`` (and unparse38) recurse once per level of the tree
they write. Python's recursion limit (1000 frames by default) bounds both, and
a ``RecursionError`` deep inside says nothing about the input. So the depth is
counted and the input refused first, with a :class:`DecompilationError` that
names the limit. The limits come from the recursion limit and the frames in
use when decompiling starts (about 100 levels of nesting from a shallow stack
with the default limit; CPython's own compiler stops at 20 nested blocks, 100
levels of indentation and 200 nested parentheses, but an ``elif`` chain or
nested lambdas can go deeper).
"""
import ast
import contextvars
import sys

from .errors import DecompilationError

#: Python frames one level of nesting may cost (an ``elif`` branch: walk,
#: _walk, block, branch, if_, walk_branch; 3.13's and/or values pass through
#: match_op and block again), and frames kept for the work done at the
#: innermost level
FRAMES_PER_LEVEL = 8
FRAMES_IN_RESERVE = 120

_NESTING = contextvars.ContextVar("unveil_nesting", default=(0, 0))  # (level, most allowed)


class Nested:
    """``with Nested(where):`` one more level of nesting for the code inside;
    ``where()`` gives (function, offset, instruction) for the error. The most
    levels allowed are set when the outermost level is entered, from the
    frames Python's recursion limit leaves from there."""

    __slots__ = ("where", "token")

    def __init__(self, where):
        self.where = where
        self.token = None

    def __enter__(self):
        level, most = _NESTING.get()
        if level == 0:
            most = max(10, (sys.getrecursionlimit() - _frames_in_use() - FRAMES_IN_RESERVE)
                       // FRAMES_PER_LEVEL)
        if level + 1 > most:
            raise DecompilationError("nesting deeper than %d levels (nested statements, elif "
                                     "branches, conditional expressions, and/or operands or "
                                     "functions; the most Python's recursion limit of %d allows)"
                                     % (most, sys.getrecursionlimit()), *self.where())
        self.token = _NESTING.set((level + 1, most))
        return self

    def __exit__(self, *exc):
        _NESTING.reset(self.token)
        return False


def _frames_in_use():
    n, f = 0, sys._getframe()
    while f is not None:
        n, f = n + 1, f.f_back
    return n


_LEVEL_OF_FOUR = (ast.stmt, ast.excepthandler)


def _unparse_frames(node):
    """Python frames the unparsers spend on one level of ``node``."""
    if isinstance(node, ast.expr_context):
        return 0
    return 4 if isinstance(node, _LEVEL_OF_FOUR) else 3


def unparse_budget():
    """The Python frames the unparsers may spend, from where the caller stands (this
    function's own frame not counted)."""
    return sys.getrecursionlimit() - (_frames_in_use() - 1) - 60


def too_deep_to_unparse(depth, name=None):
    """The error for a node ``depth`` levels down (the root: 1) past the budget."""
    return DecompilationError("source nested deeper than %d levels (statements and "
                              "expressions inside each other): more than ast.unparse "
                              "writes within Python's recursion limit (%d)"
                              % (depth - 1, sys.getrecursionlimit()), name)
