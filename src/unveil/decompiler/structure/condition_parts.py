"""One condition, before it is built into a statement: the blocks that form it
(:class:`BlockIds`), its test and its two targets (:class:`Cond`), negating and comparing tests,
and where the code has conditions and for loops to split blocks at (the graph is built with
them, see state.Walk). Nothing here walks.
"""
import ast

from ..stack_effects import expression_start
from ..stream import CONDITIONAL_JUMPS
from .regions import negate


class BlockIds:
    """The ids of the blocks a condition spans, as the union of the parts
    merged into it: a union links its parts instead of copying them (the
    links of a chain of n conditions, each merged with those below it, would
    copy n^2 ids). The extent of the blocks and the handlers covering them
    are kept up to date; membership looks at the extent first, then at the
    ids, flattened once."""
    __slots__ = ("parts", "start", "end", "handlers", "_flat")

    def __init__(self, block=None):
        self._flat = None
        if block is not None:
            self.parts = (block.id,)
            self.start, self.end = block.start, block.end
            self.handlers = frozenset((block.handler,))

    def __or__(self, other):
        if not isinstance(other, BlockIds):
            raise TypeError("a union of block ids takes block ids")
        new = BlockIds()
        new.parts = (self, other)
        new.start, new.end = min(self.start, other.start), max(self.end, other.end)
        new.handlers = self.handlers | other.handlers
        return new

    def flat(self):
        if self._flat is None:
            out, work, seen = set(), [self], set()
            while work:
                x = work.pop()
                for p in x.parts:
                    if isinstance(p, BlockIds):
                        if id(p) not in seen:
                            seen.add(id(p))
                            work.append(p)
                    else:
                        out.add(p)
            self._flat = out
        return self._flat

    def __iter__(self):
        return iter(self.flat())

    def __contains__(self, block_id):
        return block_id in self.flat()  # (without it ``in`` iterates over the set)

    def holds(self, block) -> bool:
        if not self.start <= block.start < self.end:
            return False
        if self._flat is not None:
            return block.id in self._flat
        # the newest parts first, without flattening: a condition merged link
        # by link from its start grows by one part each time and asks about
        # the link just merged (flattening each union would cost n^2)
        work, seen = [self], set()
        while work:
            x = work.pop()
            for p in x.parts:
                if isinstance(p, BlockIds):
                    if id(p) not in seen and p.start <= block.start < p.end:
                        if p._flat is not None:
                            if block.id in p._flat:
                                return True
                        else:
                            seen.add(id(p))
                            work.append(p)
                elif p == block.id:
                    return True
        self.flat()  # (asked again, it answers from the set)
        return False


class Cond:
    """A (possibly compound) condition: true -> ``true``, false -> ``false``."""

    def __init__(self, expr, true, false, frame, blocks):
        self.expr = expr
        self.true = true
        self.false = false
        self.frame = frame  # state after the condition (expr popped)
        self.blocks = blocks  # ids of the blocks it spans
        # the cleanup blocks of its whole chained comparisons (each drops the
        # kept operand on the way out; they lie after its code)
        self.cleanups = None
        self.cleanup_at = None  # that of a chained comparison not yet whole


def negate_test(e):
    """The negation of ``e`` where only its truth is used (a loop's test):
    ``and``/``or`` turned round by De Morgan, which tests the same operands
    in the same order and compiles to the same jumps."""
    if not isinstance(e, ast.BoolOp):
        return negate(e)
    # (iterative: a chain keeps its right operands whole, nested as deep as it is long)
    out = _turned_round(e)
    todo = [(e, out)]
    while todo:
        old, new = todo.pop()
        for v in old.values:
            if isinstance(v, ast.BoolOp):
                todo.append((v, _turned_round(v)))
                new.values.append(todo[-1][1])
            else:
                new.values.append(negate(v))
    return out


def _turned_round(e):
    """An empty ``or`` for the ``and`` ``e``, an ``and`` for an ``or``."""
    return ast.BoolOp(op=ast.Or() if isinstance(e.op, ast.And) else ast.And(), values=[])


def same_test(a, b):
    """Whether tests ``a`` and ``b`` are the same up to where their negations
    sit (De Morgan): they test the same operands in the same order."""
    return _test_key(a, False) == _test_key(b, False)


def _test_key(e, neg):
    """(is_and, the keys of its operands) for an and/or test (``not`` pushed down to
    the operands by De Morgan, same-operator operands flattened), ("not" or "", the
    dump) for any other test. Iterative: a chain's right operands nest as deep as it is long."""
    e, neg = _without_not(e, neg)
    if not isinstance(e, ast.BoolOp):
        return _operand_key(e, neg)
    top_is_and, parts = isinstance(e.op, ast.And) != neg, []
    # (operands left to read, their negation, is_and, where their keys go, and the keys
    # to add (is_and, theirs) to once read: None when they went there directly)
    todo = [(iter(e.values), neg, top_is_and, parts, None)]
    while todo:
        values, neg, is_and, keys, outer = todo[-1]
        v = next(values, None)
        if v is None:
            todo.pop()
            if outer is not None:
                outer.append((is_and, tuple(keys)))
            continue
        v, v_neg = _without_not(v, neg)
        if not isinstance(v, ast.BoolOp):
            keys.append(_operand_key(v, v_neg))
        elif (isinstance(v.op, ast.And) != v_neg) == is_and:
            todo.append((iter(v.values), v_neg, is_and, keys, None))  # a and (b and c) is a and b and c
        else:
            todo.append((iter(v.values), v_neg, not is_and, [], keys))
    return (top_is_and, tuple(parts))


def _without_not(e, neg):
    """``e`` without the ``not`` around it, and whether an odd number of them negated it."""
    while isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        e, neg = e.operand, not neg
    return e, neg


def _operand_key(e, neg):
    if neg and flips(e):
        return ("", ast.dump(negate(e)))
    return ("not" if neg else "", ast.dump(e))


def guard_before_test(entry, test):
    """When the entry condition ``entry`` is ``g and <test>`` (``g`` one or
    more operands): ``g``, else None. ``if g: while test: ...`` is entered
    through that one condition on 3.10+ (``g``'s jump and the entry test's
    both go past the loop)."""
    if not isinstance(entry, ast.BoolOp) or not isinstance(entry.op, ast.And):
        return None
    values = entry.values
    for k in range(1, len(values)):
        tail = values[k] if k == len(values) - 1 else ast.BoolOp(op=ast.And(), values=values[k:])
        if same_test(tail, test):
            return values[0] if k == 1 else ast.BoolOp(op=ast.And(), values=values[:k])
    return None


def keeps_operand(test, frame):
    """Whether ``test`` is a link of a chained comparison whose last operand
    stays on the stack (for the next link; the other path drops it)."""
    return (isinstance(test, ast.Compare) and bool(frame.stack)
            and test.comparators[-1] is frame.stack[-1])


def union(a, b):
    """``a | b`` of two :class:`BlockIds` that may be None."""
    return b if a is None else a if b is None else a | b


def flips(e):
    """Whether :func:`negate` turns ``e`` into another comparison (``is``
    into ``is not``, ``in`` into ``not in``), which compiles differently."""
    return (isinstance(e, ast.Compare) and len(e.ops) == 1
            and isinstance(e.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)))


def condition_starts(program):
    """Where the value tested by each conditional jump starts being
    computed: a block of its own, so a test is never fused with the
    statement before it (the bottom test of a 3.10+ ``while``, each link of
    an ``and``/``or`` chain)."""
    out = set()
    for ins in program.instrs:
        if ins.op in CONDITIONAL_JUMPS and ins.target is not None:
            k = expression_start(program.instrs, ins.index, 0)
            if k is None:
                k = chain_link_start(program.instrs, ins.index)
            if k is not None:
                out.add(k)
    return out


#: how a chained comparison's link keeps its right operand for the next one
#: (``b`` of ``a < b < c`` stays below the comparison)
KEEP_OPERAND = ([("SWAP", 2), ("COPY", 2)], [("COPY", 1), ("ROT", 3)])


def chain_link_start(instrs, jump_index):
    """Where the first link of a chained comparison tested by the jump at
    ``jump_index`` starts (its left operand), or None: the link leaves its
    right operand on the stack, which :func:`expression_start` does not follow."""
    c = jump_index - 1
    if c < 3 or instrs[c].op not in ("COMPARE_OP", "IS_OP", "CONTAINS_OP"):
        return None
    if [(x.op, x.arg) for x in instrs[c - 2:c]] not in KEEP_OPERAND:
        return None
    right = expression_start(instrs, c - 2, 0)
    return expression_start(instrs, right, 0) if right is not None else None


def for_iter_starts(program):
    """Each FOR_ITER heads a block, also when no back edge makes it a
    jump target; so does an async for's header (``[SETUP_FINALLY;]
    GET_ANEXT``, asyncs.py)."""
    instrs = program.instrs
    out = set()
    for ins in instrs:
        if ins.op == "FOR_ITER":
            out.add(ins.index)
        elif ins.op == "GET_ANEXT":
            before = instrs[ins.index - 1] if ins.index else None
            out.add(before.index if before is not None and before.op == "SETUP_FINALLY" else ins.index)
    return out
