"""The symbolic frame: the value stack and the statements made so far while one stretch of
code runs (:class:`Frame`), and the two leaves every builder makes (:func:`name`, :func:`const`).

The frame keeps the order of evaluation: before a statement that could change what a value
on the stack computes, that value is saved in a temporary (``spill_for``); what may change
what, it asks expr_effects.py. The builders (expr_*.py) push and pop through it;
expressions.execute picks the builder of each instruction.
"""
import ast
from typing import List

from . import values as V
from .errors import DecompilationError
from .expr_effects import (binds_only, has_effects, inert, needs_spill, pending_walrus, walrus_moves_past,
                           written_names)


def name(id_, ctx=None):
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def const(value):
    return ast.Constant(value=value)


class Frame:
    """The symbolic state while decompiling one stretch of code."""

    def __init__(self, ctx, stack=None):
        self.ctx = ctx  # the per-code-object Context (names, consts, callbacks)
        self.stack: list = list(stack or [])
        self.stmts: List[ast.stmt] = []
        self.pending = []  # (target, value) of a tuple assignment being collected
        self.current = None  # the instruction being executed
        self.loop = None  # header of the innermost loop being structured
        self.clause_names = frozenset()  # names bound by the enclosing ``except ... as`` clauses

    # -- stack helpers ---------------------------------------------------
    def push(self, v):
        if isinstance(v, ast.AST) and not hasattr(v, "_seq"):
            v._seq = self.ctx.next_seq()
        self.stack.append(v)

    def pop(self, ins=None):
        if not self.stack:
            raise DecompilationError("stack underflow", self.ctx.name,
                                     ins.offset if ins else None, ins and ins.op)
        return self.stack.pop()

    def popn(self, n, ins=None):
        if n == 0:
            return []
        if len(self.stack) < n:
            raise DecompilationError("stack underflow", self.ctx.name,
                                     ins.offset if ins else None, ins and ins.op)
        vals = self.stack[-n:]
        del self.stack[-n:]
        return vals

    def expr(self, v, ins=None):
        """``v`` as an expression; raises for values source cannot name."""
        if isinstance(v, V.SymList):
            if any(x is v for x in self.stack):
                # still referenced (and maybe changed) elsewhere: one object
                return self.spill_all(v)
            return ast.List(elts=[self.expr(x) for x in v.elts], ctx=ast.Load())
        if isinstance(v, V.UnpackSlot) and self.ctx.dynamo:
            return self.unpack_into_temporaries(v)
        node = self.ctx.as_expr(v, ins)
        if isinstance(v, V.Stored) and isinstance(node, ast.NamedExpr):
            # the walrus is written where the value is first used; a copy
            # still on the stack (a chained comparison's kept operand,
            # ``a < (x := b) < c``) is that same node from now on
            self.stack[:] = [node if x is v else x for x in self.stack]
        return node

    def unpack_into_temporaries(self, slot):
        """Dynamo unpacks a value and uses an item as it is (``UNPACK_SEQUENCE 1`` of a graph's
        result, returned): the unpacking is written ``__temp_1, __temp_2 = value`` now, every
        item not yet stored going into a temporary, and ``slot`` is its temporary."""
        root = slot.group
        while root.parent is not None:
            root = root.parent[0]

        def in_tree(group):
            while group is not None and group is not root:
                group = group.parent[0] if group.parent else None
            return group is root

        temps = {id(slot): (slot, self.ctx.new_temp())}
        for x in self.stack:
            if isinstance(x, V.UnpackSlot) and in_tree(x.group) and id(x) not in temps:
                temps[id(x)] = (x, self.ctx.new_temp())
        self.stack[:] = [name(temps[id(x)][1]) if id(x) in temps else x for x in self.stack]
        for x, tmp in temps.values():  # the last fill completes the assignment, which emits it
            x.group.fill(x.index, name(tmp, ast.Store()))
        return name(temps[id(slot)][1])

    def pop_expr(self, ins=None):
        return self.expr(self.pop(ins), ins)

    def emit(self, stmt):
        if not getattr(stmt, "_no_spill", False) and not self.clears_clause_name(stmt):
            self.spill_for(stmt)
        self.stmts.append(stmt)

    def clears_clause_name(self, stmt):
        """``e = None`` or ``del e`` for the name of an enclosing ``except ... as e``: the
        compiler's cleanup as a ``return`` leaves the clause. The text drops it
        (strip_name_cleanup), so the returned value, computed before it, is written
        where it was computed (``return str(e)``), not saved in a temporary."""
        if isinstance(stmt, ast.Assign):
            target = stmt.targets[0] if len(stmt.targets) == 1 else None
            return (isinstance(target, ast.Name) and target.id in self.clause_names
                    and isinstance(stmt.value, ast.Constant) and stmt.value.value is None)
        return (isinstance(stmt, ast.Delete) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in self.clause_names)

    # -- evaluation order ------------------------------------------------
    def spill_for(self, stmt):
        """Values on the stack were computed before ``stmt`` runs. Where
        writing them out after it could give another result (``stmt`` stores
        or deletes a name they read, or they have effects), they are first
        saved in temporaries, in stack order."""
        if not any(isinstance(v, (ast.expr, V.SymList, V.Stored)) for v in self.stack):
            # nothing computed before it waits (the names it writes do not matter; a for
            # loop's iterator is no value to save: nested loops would walk each other's bodies)
            return
        written = written_names(stmt)
        # (a global is not the frame's own: code a value on the stack runs may read it)
        local_only = binds_only(stmt) and not written.intersection(self.ctx.globals)
        if not local_only:
            written |= self.ctx.cells  # code the statement runs may rebind a cell variable
        for v in list(self.stack):
            if isinstance(v, V.Stored) and walrus_moves_past(v, stmt, written, local_only):
                self.pin_stored(v)
        for k, v in enumerate(self.stack):
            if isinstance(v, ast.expr):
                if needs_spill(v, written, local_only):
                    self.stack[k] = self.spill(v)
            elif isinstance(v, V.SymList):
                self._spill_elements(v, written, set())

    def pin_stored(self, stored):
        """Keep the assignment of ``stored`` where it was emitted and read its
        name instead of a later walrus: a statement emitted since reads or
        rebinds the name (Dynamo calls ``tmp_2`` before the outer call whose
        function it stored returns) or could change what its value computes.
        The values below it on the stack were computed before it: they are
        saved ahead of the assignment, where they would be in source order."""
        a = stored.assign
        pos = next((k for k, s in enumerate(self.stmts) if s is a), None)
        if pos is None or not any(v is stored for v in self.stack):
            raise DecompilationError("a walrus's value is used before the walrus",
                                     self.ctx.name, self.current and self.current.offset,
                                     self.current and self.current.op)
        first = next(k for k, v in enumerate(self.stack) if v is stored)
        # (the lists are cut and put back in place: a caller may hold them, ``_swap`` does)
        later, tail = self.stack[first:], self.stmts[pos:]
        del self.stack[first:], self.stmts[pos:]
        self.spill_for(a)
        self.stack.extend(later)
        self.stmts.extend(tail)
        a._pinned = True
        for k, v in enumerate(self.stack):
            if v is stored:
                self.stack[k] = name(a.targets[0].id)

    def _spill_elements(self, lst, written, seen):
        if id(lst) in seen:
            return
        seen.add(id(lst))
        for j, elt in enumerate(lst.elts):
            if isinstance(elt, V.SymList):
                self._spill_elements(elt, written, seen)
                continue
            inner = elt.value if isinstance(elt, ast.Starred) else elt
            if needs_spill(inner, written, binds_only(None)):
                tmp = self.spill(inner)
                lst.elts[j] = ast.Starred(value=tmp, ctx=ast.Load()) if isinstance(elt, ast.Starred) else tmp

    def save_below(self, value):
        """Before a part of ``value`` is saved in a temporary: the values with effects (or
        reading a cell) the stack holds below it were computed before it, so they are saved first, bottom up
        (else the temporary's statement would run ahead of them, reading a walrus's name
        before the walrus binds it)."""
        end = next((k for k, v in enumerate(self.stack) if v is value), len(self.stack))
        self.save_in_order([k for k in range(end) if self.computed_before(self.stack[k])])

    def computed_before(self, v) -> bool:
        """Whether stack value ``v`` could give another result if written later: it may run code,
        reads a cell, or is a walrus still to be written where it is used."""
        if isinstance(v, ast.expr):
            return not inert(v, self.ctx.cells)
        return has_effects(v) or pending_walrus(v, self.ctx.cells)

    def save_in_order(self, positions):
        """Save the stack values at ``positions`` (ascending) as the bytecode computed them.
        A walrus among them already is a statement: it is pinned there first, with what was
        computed before it saved ahead of it (pin_stored); the values above it are saved after."""
        walrus = [k for k in positions if pending_walrus(self.stack[k], self.ctx.cells)]
        if walrus:
            self.pin_stored(self.stack[walrus[-1]])
            positions = [k for k in positions if k > walrus[-1]]
        for k in positions:
            self.save(k)

    def save(self, k):
        """Save stack value ``k`` (a symbolic list: its elements with effects) in temporaries."""
        v = self.stack[k]
        if isinstance(v, V.SymList):
            self._spill_elements(v, set(), set())
        elif isinstance(v, V.Stored):
            self.pin_stored(v)  # its assignment stays a statement, where the value was computed
        else:
            self.stack[k] = self.spill(v)

    def spill(self, value):
        """Save ``value`` in a new temporary; its name, to use instead."""
        if isinstance(value, ast.Slice):
            # a slice is only written inside brackets: its parts are saved instead
            for field in ("lower", "upper", "step"):
                part = getattr(value, field)
                if part is not None and not isinstance(part, ast.Constant):
                    setattr(value, field, self.spill(part))
            return value
        tmp = self.ctx.new_temp()
        node = ast.Assign(targets=[name(tmp, ast.Store())], value=value)
        node._no_spill = True
        self.stmts.append(node)
        return name(tmp)

    def spill_all(self, value):
        """Replace every reference to ``value`` on the stack by one temporary."""
        tmp = None
        for k, v in enumerate(self.stack):
            if v is value:
                if tmp is None:
                    tmp = self.spill(self.ctx.as_expr(value, self.current) if not isinstance(value, V.SymList)
                                     else ast.List(elts=[self.expr(x) for x in value.elts], ctx=ast.Load()))
                self.stack[k] = tmp
        return tmp

    def copy(self):
        f = Frame(self.ctx, _clone_lists(self.stack))
        f.pending = list(self.pending)
        f.loop = self.loop
        f.clause_names = self.clause_names
        return f


def _clone_lists(stack):
    """The stack with every symbolic list copied (aliases kept as aliases):
    each branch of an ``if`` changes its own lists."""
    if not any(isinstance(v, V.SymList) for v in stack):
        return list(stack)  # (most stacks: no closure, which would be a reference cycle)
    memo = {}

    def clone(v):
        if isinstance(v, V.SymList):
            if id(v) not in memo:
                new = V.SymList([], v.loop)
                memo[id(v)] = new
                new.elts = [clone(x) for x in v.elts]
            return memo[id(v)]
        return v
    return [clone(v) for v in stack]
