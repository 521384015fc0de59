"""The original's line numbers for a recompiled code object.

A code object recompiled from decompiled text has the text's line numbers; one that
stands in for the original (``fn.__code__ = unveil.recompile(fn.__code__)``) should keep
the original's: ``co_firstlineno`` (PLY orders a lexer's token rules by it) and the line
of each statement, so a traceback points into the original file. The instructions
compiled from the text are paired with the original's (the same operations in the same
order, nested code objects in the order of their constants); each text line takes the
original line of its first paired instruction, a line with none (``else:``, a dead
declaration) the line before it, and every node of the text's tree is renumbered before
it is compiled again. Columns are dropped (-1): the text's are not the original file's.
"""
import ast
import dis
import difflib
import types

from .disassembly import get_instructions
from .measure import DROPPED, PLAIN_LOAD

#: past this many instructions a function whose instructions are not the original's one
#: by one is not aligned (the alignment's cost grows with the product of the lengths)
_ALIGN_AT_MOST = 4000

#: the nodes whose line gives a code object its ``co_firstlineno``
_DEFINES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp,
            ast.SetComp, ast.DictComp, ast.GeneratorExp)


def line_map(like, new):
    """({line of ``new``: line of ``like``} from their paired instructions,
    {``co_firstlineno`` in ``new``: that of its counterpart in ``like``})."""
    lines, first_lines = {}, {}
    todo = [(like, new)]
    while todo:  # (outer code first: its statements own a line a lambda on it shares)
        a, b = todo.pop(0)
        first_lines.setdefault(b.co_firstlineno, a.co_firstlineno)
        for x, y in _paired_lines(_instruction_lines(a), _instruction_lines(b)):
            lines.setdefault(y, x)
        nested_a = [c for c in a.co_consts if isinstance(c, types.CodeType)]
        nested_b = [c for c in b.co_consts if isinstance(c, types.CodeType)]
        if [c.co_name for c in nested_a] == [c.co_name for c in nested_b]:
            todo.extend(zip(nested_a, nested_b))
    return lines, first_lines


def _instruction_lines(code):
    """[(operation, line or None)] of ``code``'s instructions, no-ops left out."""
    starts = dict(dis.findlinestarts(code))
    line, out = None, []
    for ins in get_instructions(code):
        line = starts.get(ins.offset, line)
        if ins.opname not in DROPPED:
            out.append((PLAIN_LOAD.get(ins.opname, ins.opname), line))
    return out


def _paired_lines(a, b):
    """(line in ``a``, line in ``b``) of each pair of instructions aligned between the two
    lists: one by one where the operations are the same, else the longest runs they share."""
    ops_a, ops_b = [op for op, _ in a], [op for op, _ in b]
    if ops_a == ops_b:
        blocks = [(0, 0, len(a))]
    elif max(len(a), len(b)) <= _ALIGN_AT_MOST:
        blocks = difflib.SequenceMatcher(None, ops_a, ops_b, autojunk=False).get_matching_blocks()
    else:
        return
    for i, j, n in blocks:
        for k in range(n):
            x, y = a[i + k][1], b[j + k][1]
            if x is not None and y is not None:
                yield x, y


def renumber(tree, lines, first_lines, default):
    """Give every node of ``tree`` (parsed from the text) its original line: a node that
    makes a code object that code object's ``co_firstlineno`` (its first decorator too:
    the compiler reads the line there), any other the original line of its text line (of
    the last text line before it that has one; ``default`` before them all)."""
    known = sorted(lines)

    def original(text_line):
        k = _last_at_most(known, text_line)
        return default if k is None else lines[k]

    placed = {}  # id(node) -> (node, line), read before any node changes
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) is None or id(node) in placed:
            continue
        start, end = original(node.lineno), original(getattr(node, "end_lineno", None) or node.lineno)
        if isinstance(node, _DEFINES):
            first = node.decorator_list[0] if getattr(node, "decorator_list", None) else node
            start = first_lines.get(first.lineno, start)
            placed[id(first)] = (first, start, max(start, original(first.end_lineno or first.lineno)))
        placed[id(node)] = (node, start, max(start, end))
    for node, start, end in placed.values():
        node.lineno, node.end_lineno = start, end
        node.col_offset = node.end_col_offset = -1
    return tree


def _last_at_most(sorted_values, x):
    """The largest of ``sorted_values`` not above ``x``, or None."""
    import bisect
    k = bisect.bisect_right(sorted_values, x)
    return sorted_values[k - 1] if k else None
