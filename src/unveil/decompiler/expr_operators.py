"""Operators: binary, in-place, unary, comparisons, ``is``, ``in``, ``not not``; and the
compiler's constant folding they must not be mistaken for (``'%s' % (a,)`` made an
f-string, an and/or the compiler drops after folding).
"""
import ast
import dis
import re

from . import values as V
from .expr_frame import const
from .versions import DROPS_DECIDED_BOOL_OPS, FOLDS_PERCENT_FORMAT


BINOPS = {
    "+": ast.Add, "-": ast.Sub, "*": ast.Mult, "@": ast.MatMult, "/": ast.Div,
    "//": ast.FloorDiv, "%": ast.Mod, "**": ast.Pow, "<<": ast.LShift,
    ">>": ast.RShift, "&": ast.BitAnd, "|": ast.BitOr, "^": ast.BitXor,
}


CMPOPS = {
    "<": ast.Lt, "<=": ast.LtE, "==": ast.Eq, "!=": ast.NotEq, ">": ast.Gt,
    ">=": ast.GtE,
}


UNARY = {
    "UNARY_NEGATIVE": ast.USub, "UNARY_POSITIVE": ast.UAdd,
    "UNARY_INVERT": ast.Invert, "UNARY_NOT": ast.Not,
}


def _binary_op(f, ins):
    right = f.pop_expr(ins)
    left_v = f.pop(ins)
    op = ins.arg
    if op.endswith("=") and op[:-1] in BINOPS:
        left = f.expr(left_v, ins)
        f.push(V.InPlace(_as_store(left), BINOPS[op[:-1]](), right))
        return
    left = f.expr(left_v, ins)
    if op == "%" and _folded_by_compiler(left, right):
        left = ast.JoinedStr(values=[left])   # f'...' is the same constant, not folded
    node = ast.BinOp(left=left, op=BINOPS[op](), right=right)
    if _would_fold(node):
        node.right = _decided_bool_op(right)
    f.push(node)


def _would_fold(node) -> bool:
    """Whether the compiler folds ``node``, an operation on constants, into one constant
    (where the bytecode shows it was not: the source's operand was an and/or that the
    constant first operand decides, which 3.10+ drops after the folding, ``(1 or x) * 1``)."""
    operands = [node.operand] if isinstance(node, ast.UnaryOp) else [node.left, node.right]
    if not DROPS_DECIDED_BOOL_OPS or not all(isinstance(x, ast.Constant) for x in operands):
        return False
    try:
        code = compile(ast.fix_missing_locations(ast.Expression(body=node)), "<fold>", "eval")
    except (SyntaxError, ValueError, TypeError):
        return False
    return not any(ins.opname.startswith(("BINARY_", "UNARY_")) for ins in dis.get_instructions(code))


def _decided_bool_op(c):
    """``(c or c)`` (``c and c`` for a false ``c``): the constant ``c``, which the compiler
    does not fold into an operation on it (see :func:`_would_fold`)."""
    op = ast.Or() if c.value else ast.And()
    return ast.BoolOp(op=op, values=[c, ast.Constant(value=c.value)])


_PERCENT_SPEC = re.compile(r"%(.)", re.S)


def _folded_by_compiler(left, right) -> bool:
    """Would the compiler turn ``left % right`` into an f-string (FOLDS_PERCENT_FORMAT)?
    Says yes for every string of only %s/%r/%a/%% specs: a wrongly kept ``f''`` prefix
    costs nothing, a missing one changes the order of evaluation."""
    if not (FOLDS_PERCENT_FORMAT and isinstance(left, ast.Constant) and isinstance(left.value, str)
            and isinstance(right, ast.Tuple)
            and not any(isinstance(e, ast.Starred) for e in right.elts)):
        return False
    return all(c in "sra%" for c in _PERCENT_SPEC.findall(left.value))


def _as_store(e):
    import copy
    e = copy.copy(e)
    if isinstance(e, (ast.Name, ast.Attribute, ast.Subscript)):
        e.ctx = ast.Store()
    return e


def _unary(f, ins):
    v = f.pop_expr(ins)
    node = ast.UnaryOp(op=UNARY[ins.op](), operand=v)
    if _would_fold(node):
        node.operand = _decided_bool_op(v)
    f.push(node)


def _compare(f, ins):
    right = f.pop_expr(ins)
    left = f.pop_expr(ins)
    f.push(ast.Compare(left=left, ops=[CMPOPS[ins.arg]()], comparators=[right]))


def _is_op(f, ins):
    right = f.pop_expr(ins)
    left = f.pop_expr(ins)
    f.push(ast.Compare(left=left, ops=[ast.IsNot() if ins.arg else ast.Is()], comparators=[right]))


def _contains_op(f, ins):
    right = f.pop_expr(ins)
    if isinstance(right, ast.Constant) and isinstance(right.value, frozenset) and right.value:
        # the compiler turns ``x in {1, 2}`` into a frozenset constant
        right = ast.Set(elts=[const(x) for x in right.value])
    left = f.pop_expr(ins)
    f.push(ast.Compare(left=left, ops=[ast.NotIn() if ins.arg else ast.In()], comparators=[right]))


def _to_bool(f, ins):
    # only kept where the result is used as a value: ``not not x``
    f.push(ast.UnaryOp(op=ast.Not(), operand=ast.UnaryOp(op=ast.Not(), operand=f.pop_expr(ins))))


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "BINARY_OP": _binary_op,
    "UNARY_NEGATIVE": _unary,
    "UNARY_POSITIVE": _unary,
    "UNARY_INVERT": _unary,
    "UNARY_NOT": _unary,
    "COMPARE_OP": _compare,
    "IS_OP": _is_op,
    "CONTAINS_OP": _contains_op,
    "TO_BOOL": _to_bool,
}
