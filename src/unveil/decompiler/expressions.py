"""Symbolic stack execution of straight-line instructions.

A :class:`Frame` holds the symbolic value stack and the statements produced so
far. :func:`execute` runs one instruction that does not transfer control;
control flow is the structurer's job.
"""
import ast
import dis
import re
from typing import List

from . import instructions as I
from . import values as V
from .errors import DecompilationError
from .instructions import is_walrus_store, pops_pushes
from .nodes import walk

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
        written = _written_names(stmt)
        # (a global is not the frame's own: code a value on the stack runs may read it)
        local_only = _binds_only(stmt) and not written.intersection(self.ctx.globals)
        if not local_only:
            written |= self.ctx.cells  # code the statement runs may rebind a cell variable
        for v in list(self.stack):
            if isinstance(v, V.Stored) and _walrus_moves_past(v, stmt, written, local_only):
                self.pin_stored(v)
        for k, v in enumerate(self.stack):
            if isinstance(v, ast.expr):
                if _needs_spill(v, written, local_only):
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
            if _needs_spill(inner, written, _binds_only(None)):
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
            return not _inert(v, self.ctx.cells)
        return has_effects(v) or _pending_walrus(v, self.ctx.cells)

    def save_in_order(self, positions):
        """Save the stack values at ``positions`` (ascending) as the bytecode computed them.
        A walrus among them already is a statement: it is pinned there first, with what was
        computed before it saved ahead of it (pin_stored); the values above it are saved after."""
        walrus = [k for k in positions if _pending_walrus(self.stack[k], self.ctx.cells)]
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


_CONTAINERS = (ast.Constant, ast.expr_context, ast.Starred, ast.List, ast.Tuple)  # run no code


def _written_names(stmt):
    out = set()
    for node in walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
    if isinstance(stmt, (ast.Global, ast.Nonlocal)):
        return set()
    return out


def is_droppable(e):
    """An expression statement that would do nothing: constants, names and
    displays of them (a name could be unbound; Dynamo's code never is)."""
    if isinstance(e, (ast.Constant, ast.Name)):
        return True
    if isinstance(e, (ast.List, ast.Tuple, ast.Set)):
        return all(is_droppable(x.value if isinstance(x, ast.Starred) else x) for x in e.elts)
    return False


def is_pure(e):
    """No effects and the same value whenever it is evaluated."""
    if isinstance(e, ast.Constant):
        return True
    if isinstance(e, (ast.List, ast.Tuple, ast.Set)):
        return all(is_pure(x.value if isinstance(x, ast.Starred) else x) for x in e.elts)
    if isinstance(e, ast.Dict):
        return all((k is None or is_pure(k)) and is_pure(v) for k, v in zip(e.keys, e.values))
    return False


def _binds_only(stmt):
    """Whether ``stmt`` only binds or unbinds local names, with nothing that
    could run other code (so it cannot change a value that does not read
    those names)."""
    if isinstance(stmt, ast.Delete):
        return all(isinstance(t, ast.Name) for t in stmt.targets)
    if isinstance(stmt, ast.Assign):
        return (all(isinstance(t, ast.Name) for t in stmt.targets)
                and isinstance(stmt.value, (ast.Name, ast.Constant)))
    return False


def _walrus_moves_past(stored, stmt, written, local_only):
    """Whether turning ``stored`` into a walrus after ``stmt`` could change
    what the code does: ``stmt`` uses its name, or its value must be
    computed before ``stmt`` runs."""
    a = stored.assign
    # (every target a name: what ``as_expr`` turns into a walrus per target, ``(y := (x := v))``
    # for Dynamo's ``COPY; STORE x; COPY; STORE y``)
    if getattr(a, "_pinned", False) or not all(isinstance(t, ast.Name) for t in a.targets):
        return False
    targets = {t.id for t in a.targets}
    if any(isinstance(n, ast.Name) and n.id in targets for n in ast.walk(stmt)):
        return True
    return _needs_spill(stored.value, written, local_only)


def _needs_spill(e, written, local_only=False):
    if isinstance(e, ast.Name):  # the walk below, for the commonest stack value
        return e.id in written
    if is_pure(e):
        # a list, set or dict display makes a new object where it is evaluated: written after a
        # statement that runs code, it would be made after that code instead of before (Dynamo
        # leaves ``{0: True}`` on the stack under the calls that restore its side effects)
        return not local_only and _makes_container(e)
    reads_written = False
    for n in ast.walk(e):
        if isinstance(n, ast.Name):
            reads_written = reads_written or n.id in written
        elif not local_only and not isinstance(n, _CONTAINERS):
            return True  # it could run other code
    return reads_written


def _makes_container(e):
    """Whether evaluating ``e`` builds a list, set or dict that holds something. (Not an empty
    one: a comprehension's result, on the stack under its loop, is one until the loop ends.)"""
    return any(isinstance(n, (ast.List, ast.Set)) and n.elts or isinstance(n, ast.Dict) and n.keys
               for n in ast.walk(e))


def _inert(e, cells):
    """Whether evaluating ``e`` later gives what it gives now, whatever code runs in between:
    it runs no code, binds no name (a walrus) and reads no cell (code may rebind a cell)."""
    if isinstance(e, ast.Constant):
        return True
    if isinstance(e, ast.Name):
        return e.id not in cells
    if isinstance(e, (ast.Tuple, ast.List)):
        return all(_inert(x, cells) for x in e.elts)
    if isinstance(e, ast.Dict):  # keys that are constants hash without running code
        return all(isinstance(k, ast.Constant) and _inert(v, cells) for k, v in zip(e.keys, e.values))
    return False


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


# ---------------------------------------------------------------- stores
def store(frame: Frame, target: ast.expr, ins):
    """Store the top of the stack into ``target``."""
    value = frame.pop(ins)
    assign_to(frame, target, value, ins)


def assign_to(frame: Frame, target, value, ins):
    ctx = frame.ctx
    if isinstance(value, V.UnpackSlot):
        value.group.fill(value.index, target)
        return
    if isinstance(value, V.Stored) and written_as_walrus(frame, value):
        stored, value = value, frame.expr(value, ins)  # ``b = (a := value)``
        value._seq = _evaluated_at(stored)
    if isinstance(value, V.Stored):
        if not any(v is value for v in frame.stack) and (frame.pending or frame.stack and isinstance(
                frame.stack[-1], ast.expr) and _store_follows(frame, ins)):
            # a value computed before it is stored next: ``a, b = x, (c := y)``
            # (the compiler stores the tuple's items one by one), not ``c = b = y``;
            # or the last item of such an assignment, stored after the others (``a,
            # a = x, (c := y)`` stores ``x`` first), not ``c = a = y`` before them
            expr = frame.expr(value, ins)
            expr._seq = _evaluated_at(value)  # (the tuple keeps the order of evaluation)
            simple_assign(frame, target, expr, ins)
            return
        # another target of a chained assignment (a = b = value)
        value.assign.targets.append(target)
        if any(v is value for v in frame.stack):
            return
        return
    if isinstance(value, V.InPlace) and _same_target(value.target, target):
        frame.emit(ast.AugAssign(target=target, op=value.op, value=value.value))
        return
    if isinstance(value, V.WithEnter):
        frame.emit(ast.Assign(targets=[target], value=ctx.as_expr(value)))
        return
    decorators, inner = [], value
    while isinstance(inner, V.Decorated):
        decorators.append(inner.decorator)
        inner = inner.target
    if isinstance(inner, V.Function):
        if isinstance(target, ast.Name) and ctx.make_def(frame, inner, target.id, decorators):
            return
    if isinstance(inner, V.ClassValue):
        if isinstance(target, ast.Name) and ctx.make_class(frame, inner, target.id, decorators):
            return
    if isinstance(value, (V.Import, V.ImportedName)):
        if ctx.make_import(frame, value, target):
            return
    if isinstance(value, V.SymList) and any(v is value for v in frame.stack):
        # ``a = b = []``: one list under several names is what a chained
        # assignment makes, no temporary needed
        expr = ast.List(elts=[frame.expr(x) for x in value.elts], ctx=ast.Load())
    else:
        expr = frame.expr(value, ins)
    if any(v is value for v in frame.stack):
        # a copy of the value is still on the stack: chained assignment or walrus
        node = ast.Assign(targets=[target], value=expr)
        node._no_spill = True  # becomes a walrus or part of a chained assignment
        node._seq = frame.ctx.next_seq()
        frame.emit(node)
        for k, v in enumerate(frame.stack):
            if v is value:
                frame.stack[k] = V.Stored(node, expr)
        return
    simple_assign(frame, target, expr, ins)


def _evaluated_at(stored):
    """Where in the order of evaluation the value of ``stored`` was computed (a value
    folded to a new node, 3.8's ``-1``, has the place of its store)."""
    return getattr(stored.value, "_seq", getattr(stored.assign, "_seq", 0))


def written_as_walrus(frame, stored):
    """Whether the value of ``stored``, stored to its names and now to one
    more target, was a walrus's (``b = (a := value)``) rather than a chained
    assignment's (``a = b = value``), the same bytecode but for what 3.8/3.9
    optimize: everything under a walrus stays as written, so a value whose
    text the optimizer would change (``[x for x in [1, 2]]``, ``1 + 2``) was
    a walrus's; had it been a chained assignment's, the code would hold the
    optimized form. (Saying yes where the optimizer would change nothing
    costs only a walrus in the text.)"""
    return (not I.OPTIMIZES_WALRUS_VALUE and not getattr(stored.assign, "_pinned", False)
            and all(isinstance(t, ast.Name) for t in stored.assign.targets)
            and not any(v is stored for v in frame.stack) and optimizer_changes(stored.value))


def optimizer_changes(expr):
    """Whether 3.8/3.9's AST optimizer may change ``expr`` (or code nested in
    it): an operation on constants, a tuple of constants, a list or set display
    iterated or tested with ``in``, ``not`` of an ``is``/``in`` test, ``__debug__``."""
    for n in walk(expr):
        if isinstance(n, (ast.BinOp, ast.Subscript)) and all(
                isinstance(x, (ast.Constant, ast.Tuple, ast.Index)) for x in (
                    (n.left, n.right) if isinstance(n, ast.BinOp) else (n.value, n.slice))):
            return True
        if isinstance(n, ast.UnaryOp) and (isinstance(n.operand, (ast.Constant, ast.Tuple)) or isinstance(
                n.op, ast.Not) and isinstance(n.operand, ast.Compare) and len(n.operand.ops) == 1):
            return True
        if isinstance(n, ast.Tuple) and all(isinstance(x, ast.Constant) for x in n.elts):
            return True
        if isinstance(n, (ast.comprehension, ast.For, ast.AsyncFor)) and isinstance(n.iter, (ast.List, ast.Set)):
            return True
        if isinstance(n, ast.Compare) and any(
                isinstance(op, (ast.In, ast.NotIn)) and isinstance(x, (ast.List, ast.Set))
                for op, x in zip(n.ops, n.comparators)):
            return True
        if isinstance(n, ast.Name) and n.id == "__debug__":
            return True
    return False


#: How deep below the values a store pushes for its target the stored value lies.
_STORE_VALUE_DEPTH = {"STORE_FAST": 0, "STORE_NAME": 0, "STORE_GLOBAL": 0, "STORE_DEREF": 0,
                      "UNPACK_SEQUENCE": 0, "UNPACK_EX": 0, "STORE_ATTR": 1, "STORE_SUBSCR": 2}
_STORE_SCAN_LIMIT = 40


def _store_follows(frame, ins):
    """Whether the next store after ``ins`` stores another value computed
    before it: ``a, b = x, y`` stores one after the other, and the expressions
    of a target (``xs[j + 1]``) are computed between the stores."""
    instrs = frame.ctx.instrs
    if ins is None or instrs is None:
        return False
    depth = 0  # values pushed since ``ins``
    stop = min(ins.index + _STORE_SCAN_LIMIT, len(instrs))
    k = ins.index
    while k + 1 < stop:
        k += 1
        step = instrs[k]
        if depth and k + 1 < stop and is_walrus_store(instrs, k + 1):
            k += 1  # ``(c := value)`` in a target: the value stays where it is
            continue
        if step.op in _STORE_VALUE_DEPTH:
            return depth == _STORE_VALUE_DEPTH[step.op]
        if depth == 0 and _drops_overwritten_store(instrs, k):
            return True
        if step.op in ("SWAP", "ROT"):
            if step.arg > depth > 0:
                return False  # mixes new values with earlier ones
            continue
        pp = pops_pushes(step)
        if pp is None or pp[0] > depth:
            return False
        depth += pp[1] - pp[0]
    return False


def _drops_overwritten_store(instrs, k):
    """Whether ``instrs[k]``, a ``POP_TOP``, is the store that 3.13 dropped from a tuple
    assignment because the same local is stored again (``x, x = a, b``): it follows a
    store to a local, or another such dropped store."""
    if not I.DROPS_OVERWRITTEN_STORE or instrs[k].op != "POP_TOP":
        return False
    while k > 0 and instrs[k - 1].op == "POP_TOP":
        k -= 1  # ``x, x, x = a, b, c``: each dropped store names the same local
    return k > 0 and instrs[k - 1].op == "STORE_FAST"


def _fill_overwritten_store(f, v, ins):
    """The value ``v`` that ``ins`` (a ``POP_TOP``) drops, as one more item of the tuple
    assignment being collected, stored to the local the assignment stores to just before
    (see :data:`instructions.DROPS_OVERWRITTEN_STORE`). True when that is the case."""
    instrs = f.ctx.instrs
    if (not f.pending or instrs is None or not isinstance(v, ast.expr)
            or not _drops_overwritten_store(instrs, ins.index)):
        return False
    k = ins.index
    while instrs[k].op == "POP_TOP":
        k -= 1
    target = f.pending[-1][0]
    if not (isinstance(target, ast.Name) and target.id == instrs[k].arg):
        return False
    f.pending.append((name(target.id, ast.Store()), f.expr(v, ins)))
    if not (f.stack and isinstance(f.stack[-1], ast.expr) and _store_follows(f, ins)):
        flush_pending(f)
    return True


def simple_assign(frame, target, expr, ins):
    """``target = expr``, or one part of a tuple assignment whose values were
    all computed before the first store (``a, b = b, a``)."""
    ins = ins or frame.current
    # (a walrus's value below counts: ``a, b = x, (c := y)`` stores ``x`` first when
    # the targets are swapped, ``b, a = ...``)
    top_is_value = bool(frame.stack) and isinstance(frame.stack[-1], (ast.expr, V.Stored))
    if frame.pending or (top_is_value and _store_follows(frame, ins)):
        frame.pending.append((target, expr))
        if not (_store_follows(frame, ins) and top_is_value):
            flush_pending(frame)
        return
    if (frame.ctx.dynamo and isinstance(target, ast.Name) and isinstance(expr, ast.Name)
            and target.id == expr.id):
        return  # ``x = x``: Dynamo's way of keeping a value; says nothing
    frame.emit(ast.Assign(targets=[target], value=expr))


def flush_pending(frame):
    pending, frame.pending = frame.pending, []
    if not pending:
        return
    if len(pending) == 1:
        frame.emit(ast.Assign(targets=[pending[0][0]], value=pending[0][1]))
        return
    pending.sort(key=lambda tv: getattr(tv[1], "_seq", 0))
    frame.emit(ast.Assign(targets=[ast.Tuple(elts=[t for t, _ in pending], ctx=ast.Store())],
                          value=ast.Tuple(elts=[v for _, v in pending], ctx=ast.Load())))


def _same_target(a, b):
    return ast.dump(a) == ast.dump(b)


# ------------------------------------------------------------- execution
def execute(frame: Frame, ins) -> None:
    """Run one non-control-flow instruction on ``frame``."""
    handler = _HANDLERS.get(ins.op)
    if handler is None:
        raise DecompilationError("unsupported instruction", frame.ctx.name, ins.offset, ins.op)
    frame.current = ins
    handler(frame, ins)


def _load_const(f, ins):
    f.push(f.ctx.constant(ins.arg))


def _load_name(f, ins):
    if ins.arg == "__annotations__" and ins.op == "LOAD_NAME":
        f.push(V.AnnotationsDict())  # a class or module level annotation follows
        return
    if ins.arg == ".0":
        # a comprehension's argument: the iterator of its outermost loop
        f.push(V.Iterator(name(".0")))
        return
    f.push(name(ins.arg))


def _load_global(f, ins):
    f.push(name(ins.arg))


def _load_deref(f, ins):
    f.push(name(f.ctx.deref_name(ins.arg)))


def _store_name(f, ins):
    store(f, name(ins.arg, ast.Store()), ins)


def _store_global(f, ins):
    f.ctx.declare_global(ins.arg)
    store(f, name(ins.arg, ast.Store()), ins)


def _store_deref(f, ins):
    n = f.ctx.deref_name(ins.arg)
    f.ctx.declare_nonlocal(n)
    store(f, name(n, ast.Store()), ins)


def _delete(ctx_fn):
    def run(f, ins):
        f.emit(ast.Delete(targets=[ctx_fn(f, ins)]))
    return run


def _delete_global(f, ins):
    f.ctx.declare_global(ins.arg)
    f.emit(ast.Delete(targets=[name(ins.arg, ast.Del())]))


def _delete_deref(f, ins):
    n = f.ctx.deref_name(ins.arg)
    f.ctx.declare_nonlocal(n)
    f.emit(ast.Delete(targets=[name(n, ast.Del())]))


def _load_attr(f, ins):
    obj = f.pop(ins)
    if isinstance(obj, (V.Import, V.ImportedName)):
        f.push(V.ImportedName(obj, ins.arg))  # ``import a.b as c`` walks to the leaf
        return
    obj = f.expr(obj, ins)
    f.push(ast.Attribute(value=obj, attr=ins.arg, ctx=ast.Load()))


def _load_method(f, ins):
    obj = f.pop_expr(ins)
    f.push(ast.Attribute(value=obj, attr=ins.arg, ctx=ast.Load()))
    f.push(V.NULL)


def _load_super_attr(f, ins):
    attr, is_method, two_args = ins.arg
    self_, cls, sup = f.pop(ins), f.pop(ins), f.pop(ins)
    args = [f.expr(cls), f.expr(self_)] if two_args else []
    call = ast.Call(func=f.expr(sup), args=args, keywords=[])
    f.push(ast.Attribute(value=call, attr=attr, ctx=ast.Load()))
    if is_method:
        f.push(V.NULL)


def _store_attr(f, ins):
    obj = f.pop_expr(ins)
    store(f, ast.Attribute(value=obj, attr=ins.arg, ctx=ast.Store()), ins)


def _delete_attr(f, ins):
    obj = f.pop_expr(ins)
    f.emit(ast.Delete(targets=[ast.Attribute(value=obj, attr=ins.arg, ctx=ast.Del())]))


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
    if not I.DROPS_DECIDED_BOOL_OPS or not all(isinstance(x, ast.Constant) for x in operands):
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
    if not (I.FOLDS_PERCENT_FORMAT and isinstance(left, ast.Constant) and isinstance(left.value, str)
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


def _const_index(index, lst):
    """A constant int or slice usable on ``lst``'s known elements, or None."""
    if any(isinstance(x, ast.Starred) for x in lst.elts):
        return None
    if isinstance(index, ast.Constant) and type(index.value) is int:
        if -len(lst.elts) <= index.value < len(lst.elts):
            return index.value
        return None
    if isinstance(index, ast.Slice):
        parts = [index.lower, index.upper, index.step]
        if all(p is None or isinstance(p, ast.Constant) and (p.value is None or type(p.value) is int)
               for p in parts):
            return slice(*[None if p is None else p.value for p in parts])
    return None


def _binary_subscr(f, ins):
    index = f.pop_expr(ins)
    obj = f.pop(ins)
    if isinstance(obj, V.SymList):
        k = _const_index(index, obj)
        if k is not None:
            if isinstance(k, slice):
                picked = obj.elts[k]
                f.push(V.SymList(_shared(f, obj, picked), f.loop))
            else:
                f.push(_shared(f, obj, [obj.elts[k]])[0])
            return
    obj = f.expr(obj, ins)
    f.push(ast.Subscript(value=obj, slice=index, ctx=ast.Load()))


def _shared(f, lst, elts):
    """Elements about to be referenced twice: ones with effects are saved
    in temporaries first, so they are still evaluated once."""
    out = []
    for x in elts:
        if isinstance(x, ast.expr) and not is_pure(x) and not isinstance(x, ast.Name):
            f.save_below(lst)
            tmp = f.spill(x)
            lst.elts[:] = [tmp if y is x else y for y in lst.elts]
            x = tmp
        out.append(x)
    return out


def _binary_slice(f, ins):
    stop = f.pop_expr(ins)
    start = f.pop_expr(ins)
    obj = f.pop_expr(ins)
    f.push(ast.Subscript(value=obj, slice=_unfolded_slice(start, stop), ctx=ast.Load()))


def _store_slice(f, ins):
    stop = f.pop_expr(ins)
    start = f.pop_expr(ins)
    obj = f.pop_expr(ins)
    store(f, ast.Subscript(value=obj, slice=_unfolded_slice(start, stop), ctx=ast.Store()), ins)


def _unfolded_slice(start, stop):
    """``start:stop`` as BINARY_SLICE reads it. 3.14 would fold bounds written as constants into a
    slice constant; they were folded later from an expression (``0 + 2``, ``not 2``): one bound is
    written as an operator the compiler folds just as late to the same value (``+2``, ``not True``).
    Other constants (strings) stay as they are."""
    part = _slice(start, stop, None)
    if I.FOLDS_CONSTANT_SLICES and all(b is None or _reads_as_constant(b) for b in (part.lower, part.upper)):
        for field in ("lower", "upper"):
            b = getattr(part, field)
            if b is not None and type(b.value) is bool:
                setattr(part, field, ast.UnaryOp(op=ast.Not(), operand=ast.Constant(value=not b.value)))
                break
            if b is not None and type(b.value) in (int, float):
                setattr(part, field, ast.UnaryOp(op=ast.UAdd(), operand=b))
                break
    return part


def _reads_as_constant(e) -> bool:
    """Whether ``e`` is a constant whose text parses back to a constant (``-1`` is an operator)."""
    return isinstance(e, ast.Constant) and isinstance(ast.parse(ast.unparse(e), mode="eval").body, ast.Constant)


def _none_or(e):
    return None if isinstance(e, ast.Constant) and e.value is None else e


def _slice(lower, upper, step):
    return ast.Slice(lower=_none_or(lower), upper=_none_or(upper),
                     step=_none_or(step) if step is not None else None)


def _build_slice(f, ins):
    step = f.pop_expr(ins) if ins.arg == 3 else None
    upper = f.pop_expr(ins)
    lower = f.pop_expr(ins)
    f.push(_slice(lower, upper, step))


def _store_subscr(f, ins):
    index = f.pop_expr(ins)
    obj = f.pop(ins)
    if isinstance(obj, V.SymList) and obj.loop == f.loop:
        k = _const_index(index, obj)
        if k is not None:
            value = f.pop(ins)
            if isinstance(k, slice):
                new = _elements(value)
                if new is not None and (k.step is None or k.step == 1):
                    obj.elts[k] = new
                    return
                f.push(value)
            else:
                obj.elts[k] = f.expr(value, ins)
                return
    if isinstance(obj, V.SymList):
        f.push(obj)
        obj = f.spill_all(obj)
        f.pop()
    if isinstance(obj, V.AnnotationsDict):
        # module/class level ``x: T`` is ``__annotations__['x'] = T``
        annotation = as_written(f.pop_expr(ins), f.ctx.code)
        node = annotated(f.stmts[-1] if f.stmts else None, index.value, annotation)
        if node.value is not None:
            f.stmts[-1] = node
        else:
            f.emit(node)
        return
    store(f, ast.Subscript(value=f.expr(obj), slice=index, ctx=ast.Store()), ins)


#: ``from __future__ import annotations`` (every code object compiled under it has the flag)
CO_FUTURE_ANNOTATIONS = __import__("__future__").annotations.compiler_flag


def as_written(annotation, code):
    """An annotation of ``code`` as the source wrote it: under ``from __future__ import
    annotations`` the compiler keeps the text of the expression (a str constant), parsed back
    here (the proof compares the text the compiler makes of it again)."""
    if not (code.co_flags & CO_FUTURE_ANNOTATIONS and isinstance(annotation, ast.Constant)
            and type(annotation.value) is str):
        return annotation
    try:
        return ast.parse(annotation.value, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return annotation  # (not the compiler's text: refused by the proof)


def annotated(previous, target, annotation):
    """The statement annotating the name ``target`` (module or class level) that follows the
    statement ``previous`` (or None): ``target: annotation = v`` that stands for ``previous``
    where that is ``target = v`` (the compiler stores the value, then records the
    annotation), else ``target: annotation``."""
    value = None
    if (isinstance(previous, ast.Assign) and len(previous.targets) == 1
            and isinstance(previous.targets[0], ast.Name) and previous.targets[0].id == target):
        value = previous.value
    return ast.AnnAssign(target=name(target, ast.Store()), annotation=annotation, value=value, simple=1)


class Annotated(ast.stmt):
    """3.14+: the compiler's record that the annotated statement numbered ``number`` ran
    (see instructions.MARKS_CONDITIONAL_ANNOTATIONS); function.with_annotations writes
    the annotation there."""
    _fields = ("number",)


def _annotated(f, ins):
    f.emit(Annotated(number=ins.arg.number))


def _delete_subscr(f, ins):
    index = f.pop_expr(ins)
    obj = f.pop(ins)
    if isinstance(obj, V.SymList) and obj.loop == f.loop:
        k = _const_index(index, obj)
        if k is not None:
            del obj.elts[k]
            return
    if isinstance(obj, V.SymList):
        f.push(obj)
        obj = f.spill_all(obj)
        f.pop()
    obj = f.expr(obj, ins)
    f.emit(ast.Delete(targets=[ast.Subscript(value=obj, slice=index, ctx=ast.Del())]))


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


def _build(kind):
    def run(f, ins):
        raw = f.popn(ins.arg, ins)
        if kind is ast.List:
            # lists inside lists stay symbolic: Dynamo builds and edits nests
            f.push(V.SymList([v if isinstance(v, V.SymList) else f.expr(v, ins) for v in raw], f.loop))
            return
        if kind is ast.Tuple and raw and all(isinstance(v, V.Cell) for v in raw):
            f.push(V.CellTuple(raw))  # a closure: for MAKE_FUNCTION, or a value
            return
        items = [f.expr(v, ins) for v in raw]
        if kind is ast.Tuple:
            f.push(ast.Tuple(elts=items, ctx=ast.Load()))
        else:
            s = ast.Set(elts=items)
            s._loop = f.loop
            f.push(s)
    return run


def _build_map(f, ins):
    items = [f.expr(v, ins) for v in f.popn(2 * ins.arg, ins)]
    d = ast.Dict(keys=items[0::2], values=items[1::2])
    d._loop = f.loop
    f.push(d)


def _build_const_key_map(f, ins):
    keys = f.pop(ins)
    vals = [f.expr(v, ins) for v in f.popn(ins.arg, ins)]
    keys = f.expr(keys)
    if isinstance(keys, ast.Constant):
        knodes = [const(k) for k in keys.value]
    else:
        knodes = list(keys.elts)
    f.push(ast.Dict(keys=knodes, values=vals))


def _build_string(f, ins):
    parts = [f.expr(v, ins) for v in f.popn(ins.arg, ins)]
    vals = []
    for p in parts:
        if isinstance(p, ast.JoinedStr):
            vals.extend(p.values)
        elif isinstance(p, ast.Constant) and isinstance(p.value, str):
            vals.append(p)
        else:
            # a piece formatted earlier (Dynamo resumes half-way through an
            # f-string): a str, which formats as itself
            vals.append(ast.FormattedValue(value=p, conversion=-1, format_spec=None))
    f.push(ast.JoinedStr(values=vals))


def _format_value(f, ins):
    conv, has_spec = ins.arg
    spec = f.pop_expr(ins) if has_spec else None
    v = f.pop(ins)
    if isinstance(v, V.Converted):
        conv, v = v.conversion, v.value
    v = f.expr(v, ins)
    if spec is not None and not isinstance(spec, ast.JoinedStr):
        spec = ast.JoinedStr(values=[spec])
    f.push(ast.JoinedStr(values=[ast.FormattedValue(value=v, conversion=conv, format_spec=spec)]))


_CONVERSIONS = {0: -1, 1: ord("s"), 2: ord("r"), 3: ord("a")}


def _build_interpolation(f, ins):
    """3.14's part of a template string (PEP 750): the value, its source text and (argument
    bit 0) a format spec; the conversion in the bits above."""
    spec = f.pop_expr(ins) if ins.arg & 1 else None
    text = f.pop_expr(ins)
    value = f.pop_expr(ins)
    # the text is written between the braces as it is: only the text of this very value
    if not (isinstance(text, ast.Constant) and isinstance(text.value, str)
            and _parses_to(text.value, value) and ins.arg >> 2 in _CONVERSIONS):
        raise DecompilationError("a template interpolation whose text is not its expression",
                                 f.ctx.name, ins.offset, ins.op)
    if spec is not None and not isinstance(spec, ast.JoinedStr):
        spec = ast.JoinedStr(values=[spec])
    f.push(ast.Interpolation(value=value, str=text.value, conversion=_CONVERSIONS[ins.arg >> 2],
                             format_spec=spec))


def _parses_to(text, node) -> bool:
    """Whether ``text`` is the source of ``node``: the same tree, or the constant the compiler
    folded it to (``-1``)."""
    try:
        parsed = ast.parse("(%s\n)" % text, mode="eval").body
    except SyntaxError:
        return False
    if ast.dump(parsed) == ast.dump(node):
        return True
    if not isinstance(node, ast.Constant):
        return False
    try:
        value = ast.literal_eval(parsed)
    except ValueError:
        return False
    return type(value) is type(node.value) and repr(value) == repr(node.value)


def _build_template(f, ins):
    """3.14's template string: the constant strings between the interpolations, and them."""
    parts = f.pop_expr(ins)
    strings = f.pop_expr(ins)
    parts = list(parts.elts) if isinstance(parts, ast.Tuple) else (
        [] if isinstance(parts, ast.Constant) and parts.value == () else None)
    if (parts is None or not all(isinstance(p, ast.Interpolation) for p in parts)
            or not (isinstance(strings, ast.Constant) and isinstance(strings.value, tuple)
                    and len(strings.value) == len(parts) + 1 and all(isinstance(s, str) for s in strings.value))):
        raise DecompilationError("a template string of an unknown form", f.ctx.name, ins.offset, ins.op)
    values = []
    for s, p in zip(strings.value, parts + [None]):
        if s:
            values.append(ast.Constant(value=s))
        if p is not None:
            values.append(p)
    f.push(ast.TemplateStr(values=values))


def _to_bool(f, ins):
    # only kept where the result is used as a value: ``not not x``
    f.push(ast.UnaryOp(op=ast.Not(), operand=ast.UnaryOp(op=ast.Not(), operand=f.pop_expr(ins))))


def _convert_value(f, ins):
    f.push(V.Converted(f.pop_expr(ins), ins.arg))


def _collection_add(kind):
    # LIST_APPEND / SET_ADD / MAP_ADD inside a comprehension body: the
    # collection is below; the structurer turns these statements into the
    # comprehension's element. In straight-line code (``[a, *b, c]``) the
    # element simply joins the list.
    def run(f, ins):
        if kind == "list" and len(f.stack) > ins.arg:
            lst = _target_list(f, ins.arg + 1, ins)  # the item is still on top
            if lst is not None:
                lst.elts.append(f.pop_expr(ins))
                return
        width = 2 if kind == "map" else 1
        if len(f.stack) > ins.arg + width - 1:
            target = f.stack[-(ins.arg + width)]
            if (isinstance(target, (ast.Dict if kind == "map" else ast.Set))
                    and getattr(target, "_loop", None) == f.loop):
                # a big display built in steps (BUILD_MAP then MAP_ADD)
                if kind == "map":
                    v = f.pop_expr(ins)
                    k = f.pop_expr(ins)
                    new = ast.Dict(keys=list(target.keys) + [k], values=list(target.values) + [v])
                    new._added = True  # (see _dict_merge)
                else:
                    new = ast.Set(elts=list(target.elts) + [f.pop_expr(ins)])
                new._loop = f.loop
                f.stack[-ins.arg] = new
                return
        if kind == "map":
            v = f.pop_expr(ins)
            k = f.pop_expr(ins)
            f.emit(f.ctx.comprehension_element(kind, (k, v)))
        else:
            v = f.pop_expr(ins)
            f.emit(f.ctx.comprehension_element(kind, v))
    return run


def _elements(v):
    """The elements of ``v`` if it is a known sequence, else None."""
    if isinstance(v, V.SymList):
        return list(v.elts)
    if isinstance(v, (ast.List, ast.Tuple)):
        return list(v.elts)
    if isinstance(v, ast.Constant) and isinstance(v.value, tuple):
        return [const(x) for x in v.value]
    return None


def _target_list(f, depth, ins):
    """The list ``depth`` below the top, if it can still change symbolically
    (it was built in the loop being executed)."""
    lst = f.stack[-depth]
    if isinstance(lst, V.SymList) and lst.loop == f.loop:
        return lst
    return None


def _unpacked_display(f, v, ins) -> bool:
    """Whether extending with ``v`` is the source unpacking a list display (``f(x, *[a, b])``,
    ``(x, *[a, b])``), written ``*[a, b]``: its items written in place would be built another
    way. Only where the list becomes a tuple next: Dynamo's code extends lists that it then
    changes by position (``STORE_SUBSCR`` at constant indices), which a starred item would
    shift; a list turned into a tuple is never changed again."""
    instrs = f.ctx.instrs
    if not isinstance(v, V.SymList) or not v.elts or ins is None or instrs is None:
        return False
    return _becomes_tuple_untouched(instrs, ins.index + 1)


def _becomes_tuple_untouched(instrs, start, limit=200) -> bool:
    """Whether the list on top of the stack before ``instrs[start]`` becomes a tuple next
    (``LIST_TO_TUPLE``) on every path, the code in between touching only the values above
    it: a call's later arguments (a conditional expression's branches, a chained
    comparison's ``SWAP``/``COPY`` of its own operands, a walrus's store of its copy)."""
    work, seen = [(start, 0)], set()
    while work:
        k, height = work.pop()   # ``height``: values above the list
        if (k, height) in seen:
            continue
        seen.add((k, height))
        if len(seen) > limit or k >= len(instrs):
            return False
        ins = instrs[k]
        if ins.op == "CALL_INTRINSIC_1" and ins.arg == "INTRINSIC_LIST_TO_TUPLE" and height == 0:
            continue  # (3.9-3.11's LIST_TO_TUPLE, named as 3.12+ does: instructions.py)
        if ins.op == "JUMP":
            work.append((ins.target, height))
            continue
        if ins.op == "FOR_ITER":  # (an inlined comprehension's loop, 3.12+)
            if height < 1:
                return False
            work.append((ins.target, height - 1))
            work.append((k + 1, height + 1))
            continue
        if ins.op in I.CONDITIONAL_JUMPS:
            if height < 1:
                return False
            keeps = ins.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP")
            work.append((ins.target, height if keeps else height - 1))
            work.append((k + 1, height - 1))
            continue
        reach, pops, pushes = _stack_step(ins)
        if reach is None or reach > height or pops > height:
            return False  # (Dynamo's code shuffles and changes the lists it builds by position)
        work.append((k + 1, height + pushes - pops))
    return True


def _stack_step(ins):
    """(deepest value reached, values popped, values pushed) of a straight-line step that
    may run between a list display and its ``LIST_TO_TUPLE``; (None, 0, 0) for others."""
    if ins.op in _SHUFFLES:
        return (ins.arg if isinstance(ins.arg, int) else None), 0, _SHUFFLES[ins.op]
    pp = _COLLECTION_STEPS.get(ins.op) or pops_pushes(ins)
    if pp is None:
        return None, 0, 0
    return pp[0], pp[0], pp[1]


#: stack shuffles as instructions.read names them (their argument: the deepest value they
#: reach) and the values they push
_SHUFFLES = {"SWAP": 0, "COPY": 1, "ROT": 0}
#: steps adding the top value to a collection below it, and stores (a walrus's copy)
_COLLECTION_STEPS = {"LIST_APPEND": (1, 0), "LIST_EXTEND": (1, 0), "SET_ADD": (1, 0),
                     "SET_UPDATE": (1, 0), "DICT_UPDATE": (1, 0), "DICT_MERGE": (1, 0),
                     "MAP_ADD": (2, 0), "STORE_FAST": (1, 0), "STORE_NAME": (1, 0),
                     "STORE_GLOBAL": (1, 0), "STORE_DEREF": (1, 0), "POP_TOP": (1, 0),
                     "CALL_INTRINSIC_1": (1, 1), "GET_ITER": (1, 1), "LOAD_FAST_AND_CLEAR": (0, 1)}


def _list_extend(f, ins):
    v = f.pop(ins)
    lst = _target_list(f, ins.arg, ins)
    # a list or tuple display extended into another is one the source unpacked
    # (``f(x, *[a, b])``): its items written in place would be built another way
    extra = None if isinstance(v, ast.Tuple) or _unpacked_display(f, v, ins) else _elements(v)
    if extra is None:
        extra = [ast.Starred(value=f.expr(v, ins), ctx=ast.Load())]
    if lst is not None:
        lst.elts.extend(extra)
        return
    target = f.stack[-ins.arg]
    if isinstance(target, V.SymList):
        target = f.spill_all(target)
    f.emit(ast.Expr(value=ast.Call(func=ast.Attribute(value=f.expr(target, ins), attr="extend", ctx=ast.Load()),
                                   args=[ast.List(elts=extra, ctx=ast.Load())], keywords=[])))


def _set_update(f, ins):
    v = f.pop_expr(ins)
    s = f.expr(f.stack[-ins.arg])
    if isinstance(v, ast.Constant) and isinstance(v.value, frozenset):
        extra = [const(x) for x in v.value]
    else:
        extra = [ast.Starred(value=v, ctx=ast.Load())]
    new = ast.Set(elts=list(s.elts) + extra)
    # still the display built here: a SET_ADD after it (``{*xs, c}`` in a loop)
    # joins it, it is no set comprehension's element
    new._loop = getattr(s, "_loop", None)
    f.stack[-ins.arg] = new


def _dict_update(f, ins):
    v = f.pop_expr(ins)
    d = f.expr(f.stack[-ins.arg])
    f.stack[-ins.arg] = ast.Dict(keys=list(d.keys) + [None], values=list(d.values) + [v])


def _is_key_group(part, after_group, in_call):
    """Whether ``part``, merged by <=3.8's BUILD_MAP_UNPACK(_WITH_CALL), is a
    group of ``key: value`` items (keywords in a call) written in place: the
    compiler makes one map of each run of them, never an empty one, so an empty
    map or one right after another is a ``**{...}`` of the source."""
    if not isinstance(part, ast.Dict) or not part.keys or after_group:
        return False
    if None in part.keys:
        return False
    return not in_call or all(_keyword_name(k) for k in part.keys)


def _keyword_name(key):
    """Whether ``key`` (a dict display's key) can be written as ``key=value`` in a call."""
    import keyword
    return (isinstance(key, ast.Constant) and isinstance(key.value, str)
            and key.value.isidentifier() and not keyword.iskeyword(key.value))


def _build_unpack(kind):
    def run(f, ins):
        parts = [f.expr(v, ins) for v in f.popn(ins.arg, ins)]
        if kind == "map":
            keys, vals = [], []
            after_group = False
            for p in parts:
                if _is_key_group(p, after_group, ins.op == "BUILD_MAP_UNPACK_WITH_CALL"):
                    keys.extend(p.keys)
                    vals.extend(p.values)
                    after_group = True
                else:
                    # ``**{...}``: a dict display unpacked (run as it was built)
                    keys.append(None)
                    vals.append(p)
                    after_group = isinstance(p, ast.Dict)
            f.push(ast.Dict(keys=keys, values=vals))
            return
        elts = []
        after_run = False
        for p in parts:
            # the compiler builds each run of plain items as a tuple (a set for a set
            # display), never two runs in a row; a list, or a tuple right after a
            # run, is a display the source unpacked: ``*[a, b]``, ``*(a, b)``
            if isinstance(p, ast.Tuple if kind != "set" else ast.Set) and not after_run:
                elts.extend(p.elts)
                after_run = True
            else:
                elts.append(ast.Starred(value=p, ctx=ast.Load()))
                after_run = False
        if kind == "tuple":
            f.push(ast.Tuple(elts=elts, ctx=ast.Load()))
        elif kind == "list":
            f.push(ast.List(elts=elts, ctx=ast.Load()))
        else:
            f.push(ast.Set(elts=elts))
    return run


def _intrinsic(f, ins):
    what = ins.arg
    if what == "INTRINSIC_LIST_TO_TUPLE":
        v = f.pop_expr(ins)
        f.push(ast.Tuple(elts=list(v.elts), ctx=ast.Load()) if isinstance(v, ast.List) else
               ast.Call(func=name("tuple"), args=[v], keywords=[]))
    elif what == "INTRINSIC_UNARY_POSITIVE":
        f.push(ast.UnaryOp(op=ast.UAdd(), operand=f.pop_expr(ins)))
    elif what == "INTRINSIC_IMPORT_STAR":
        mod = f.pop(ins)
        f.emit(ast.ImportFrom(module=mod.name, names=[ast.alias(name="*", asname=None)],
                              level=mod.level))
        f.push(V.NULL)  # the POP_TOP that follows discards it
    elif what == "INTRINSIC_STOPITERATION_ERROR":
        pass  # generator epilogue; handled as an exception region
    elif what == "INTRINSIC_ASYNC_GEN_WRAP":
        pass  # the value stays the same for source purposes
    else:
        raise DecompilationError("unsupported intrinsic %s" % what, f.ctx.name, ins.offset, ins.op)


def _call(f, ins):
    _call_with(f, ins, *ins.arg)


def _call_kw(f, ins):
    """3.13+'s CALL_KW whose keyword names are on the stack, not loaded just before it."""
    count, slots = ins.arg
    names = f.pop_expr(ins)
    if not (isinstance(names, ast.Constant) and type(names.value) is tuple
            and all(type(n) is str for n in names.value) and len(names.value) <= count):
        raise DecompilationError("CALL_KW without a tuple of keyword names", f.ctx.name, ins.offset, ins.op)
    _call_with(f, ins, count - len(names.value), names.value, slots)


def _call_with(f, ins, argc, kwnames, slots):
    nkw = len(kwnames) if kwnames else 0
    raw = f.popn(argc + nkw, ins)
    head = f.popn(slots, ins)
    callee = [h for h in head if h is not V.NULL]
    if not callee:
        raise DecompilationError("call of NULL", f.ctx.name, ins.offset, ins.op)
    func = callee[0]
    if len(callee) == 2:
        # 3.11+: [callable, self] with no NULL - self is the first argument
        # (a comprehension's iterator is passed this way)
        raw = [callee[1]] + raw
        argc += 1
    if isinstance(func, V.WithExit):
        f.push(V.NULL)  # the exit's result, discarded by the following POP_TOP
        return
    if isinstance(func, V.BuildClass):
        f.push(f.ctx.build_class(raw, kwnames, ins))
        return
    args = raw[:argc]
    kwvals = raw[argc:]
    if (isinstance(func, V.Function) or isinstance(func, V.Iterator)) or any(isinstance(a, V.Iterator) for a in args):
        comp = f.ctx.comprehension_call(f, func, args, ins)
        if comp is not None:
            f.push(comp)
            return
    if len(args) == 1 and isinstance(args[0], (V.Function, V.ClassValue, V.Decorated)) and not kwvals:
        # maybe a decorator applied to a def or class: decided when stored
        f.push(V.Decorated(f.expr(func, ins), args[0]))
        return
    fexpr = f.expr(func, ins)
    arg_nodes = [f.expr(a, ins) for a in args]
    keywords = [ast.keyword(arg=k, value=f.expr(v, ins)) for k, v in zip(kwnames or (), kwvals)]
    f.push(ast.Call(func=fexpr, args=arg_nodes, keywords=keywords))


def _call_function_ex(f, ins):
    has_kw, slots = ins.arg
    kw = None
    if has_kw:
        kw = f.pop(ins)  # (3.14's keyword slot holds a NULL when there are no keyword arguments)
        kw = None if kw is V.NULL else f.expr(kw, ins)
    args = f.pop_expr(ins)
    head = f.popn(slots, ins)
    func = [h for h in head if h is not V.NULL][0]
    fexpr = f.expr(func, ins)
    if isinstance(args, (ast.Tuple, ast.List)):
        arg_nodes = list(args.elts)
    elif isinstance(args, ast.Constant) and isinstance(args.value, tuple):
        arg_nodes = [const(x) for x in args.value]
    else:
        arg_nodes = [ast.Starred(value=args, ctx=ast.Load())]
    keywords = []
    if isinstance(kw, ast.Dict) and not kw.keys:
        # an empty dict as the keyword arguments (Dynamo passes ``**kwargs`` it knows is empty
        # so): ``**{}``, which the compiler merges into an empty dict of its own
        keywords.append(ast.keyword(arg=None, value=kw))
    elif kw is not None:
        if isinstance(kw, ast.Dict) and all(k is None or _keyword_name(k) for k in kw.keys):
            for k, v in zip(kw.keys, kw.values):
                if k is None:
                    keywords.append(ast.keyword(arg=None, value=v))
                else:
                    keywords.append(ast.keyword(arg=k.value, value=v))
        else:
            keywords.append(ast.keyword(arg=None, value=kw))
    if not any(isinstance(a, ast.Starred) for a in arg_nodes) and all(k.arg for k in keywords) \
            and not _star_call_when_written_out(arg_nodes, keywords):
        # written out, the call would be a plain one (not CALL_FUNCTION_EX): the source
        # unpacked a display, ``f(*(a, b))`` or ``f(**{'k': b})``; keep one unpacked
        if arg_nodes or kw is None:
            arg_nodes = [ast.Starred(value=args, ctx=ast.Load())]
        else:
            keywords = [ast.keyword(arg=None, value=kw)]
    f.push(ast.Call(func=fexpr, args=arg_nodes, keywords=keywords))


def _star_call_when_written_out(args, keywords) -> bool:
    """Whether the compiler makes a star call of ``f(*args, **keywords)`` written out as plain
    arguments: too many for the stack (16 or more keywords, 31 or more values, 3.10+)."""
    limit = I.CALL_STACK_GUIDELINE
    return limit is not None and len(args) + 2 * len(keywords) > limit


def _dict_merge(f, ins):
    v = f.pop_expr(ins)
    d = f.stack[-ins.arg]
    if isinstance(d, ast.Dict):
        if _keyword_group(v):
            # 16 or more keyword arguments after a ``**``: the compiler builds them
            # in steps (BUILD_MAP 0, MAP_ADD each) and merges them; a dict display
            # there would be built another way
            f.stack[-ins.arg] = ast.Dict(keys=list(d.keys) + v.keys, values=list(d.values) + v.values)
            return
        f.stack[-ins.arg] = ast.Dict(keys=list(d.keys) + [None], values=list(d.values) + [v])
    else:
        raise DecompilationError("DICT_MERGE on a non-dict", f.ctx.name, ins.offset, ins.op)


def _keyword_group(v):
    """Whether ``v``, merged into a call's keyword arguments, is a group of keyword
    arguments built in steps (each key once, each a name)."""
    return (isinstance(v, ast.Dict) and getattr(v, "_added", False) and all(map(_keyword_name, v.keys))
            and len({k.value for k in v.keys}) == len(v.keys))


def _make_function(f, ins):
    flags, has_qualname = ins.arg
    if has_qualname:
        f.pop(ins)
    code = f.pop(ins)
    code = code.code if isinstance(code, V.CodeConst) else code.value if isinstance(code, ast.Constant) else code
    closure = f.pop(ins) if flags & 0x08 else None  # cells; the nested code names them
    annotate = f.pop(ins) if flags & 0x10 else None  # 3.14+: the function that builds the annotations
    annotations = f.pop(ins) if flags & 0x04 else None
    kwdefaults = f.pop(ins) if flags & 0x02 else None
    defaults = f.pop(ins) if flags & 0x01 else None
    fn = V.Function(code)
    if defaults is not None:
        d = f.expr(defaults)
        fn.defaults = ([const(x) for x in d.value] if isinstance(d, ast.Constant) else list(d.elts))
    if kwdefaults is not None:
        d = f.expr(kwdefaults)
        fn.kwdefaults = {k.value: v for k, v in zip(d.keys, d.values)}
    if annotations is not None:
        fn.annotations = f.expr(annotations)
    fn.closure = closure
    fn.annotate = annotate
    f.push(fn)


def _load_closure(f, ins):
    f.push(V.Cell(f.ctx.deref_name(ins.arg)))


def _pop_top(f, ins):
    v = f.pop(ins)
    if v is V.NULL or isinstance(v, (V.Iterator, V.WithExit, V.Exception_, V.WithEnter, V.ImportedName)):
        return
    if isinstance(v, V.Stored):
        # ``(x := value)`` as a statement: the assignment already emitted is it
        return
    if isinstance(v, V.Import):
        return  # end of ``from m import a, b``
    if isinstance(v, V.InPlace):
        raise DecompilationError("in-place result discarded", f.ctx.name, ins.offset, ins.op)
    if isinstance(v, V.UnpackSlot) and _fill_dead_store(f, v, ins):
        return
    if _fill_overwritten_store(f, v, ins):
        return
    discard(f, v, ins)


def _fill_dead_store(f, slot, ins):
    """3.13 drops a store that the next store overwrites (``_, _, x = t``
    stores ``_`` twice: ``POP_TOP; STORE_FAST _``): the dropped slot's
    target is the name stored next. True when that is the case."""
    instrs = f.ctx.instrs
    k = ins.index + 1
    while instrs is not None and k < len(instrs) and instrs[k].op == "POP_TOP":
        k += 1  # ``_, _, _, x``: every dropped store names the same target
    if instrs is None or k >= len(instrs) or instrs[k].op != "STORE_FAST":
        return False
    slot.group.fill(slot.index, name(instrs[k].arg, ast.Store()))
    return True


def discard(f, v, ins, seen=None):
    """Drop ``v``: a value with no effect leaves no statement (nothing to
    say); parts of it that have effects (a call inside a list Dynamo built)
    still run, in order."""
    if isinstance(v, V.SymList):
        seen = seen or set()
        if id(v) in seen or any(x is v for x in f.stack):
            return  # still referenced elsewhere
        seen.add(id(v))
        for x in v.elts:
            discard(f, x.value if isinstance(x, ast.Starred) else x, ins, seen)
        return
    if isinstance(v, ast.expr) and (is_pure(v) or is_droppable(v) and f.ctx.dynamo):
        return
    f.emit(ast.Expr(value=f.expr(v, ins)))


def _copy(f, ins):
    if len(f.stack) < ins.arg:
        raise DecompilationError("stack underflow", f.ctx.name, ins.offset, ins.op)
    value = f.stack[-ins.arg]
    if f.ctx.dynamo and isinstance(value, ast.expr) and not _inert(value, f.ctx.cells) \
            and not _walrus_next(f, ins):
        # Dynamo's code computes a value once and uses it twice (``Random(3)`` for its
        # ``setstate`` and its ``gauss``): the text computes it once, into a temporary.
        # (Ordinary code copies only in shapes the structurer reads whole.)
        f.save_below(value)
        value = f.spill_all(value)
    f.push(value)


def _walrus_next(f, ins) -> bool:
    """Whether ``ins`` (a COPY) and the next instruction are a walrus: ``(name := value)``."""
    instrs = f.ctx.instrs
    return ins is not None and instrs is not None and ins.index + 1 < len(instrs) \
        and is_walrus_store(instrs, ins.index + 1)


def _keep_order(f, n):
    """Dynamo's code moves values across each other with SWAP/ROT (a resume function made after
    the call whose result it takes). Source evaluates the values in their new order, so when two
    of the moved values have effects they are first saved, in the order the bytecode computed
    them. (Ordinary code moves values this way only in shapes the structurer reads whole.)"""
    if not f.ctx.dynamo or len(f.stack) < n:
        return
    moved = range(len(f.stack) - n, len(f.stack))
    effects = [k for k in moved if has_effects(f.stack[k]) or _pending_walrus(f.stack[k], f.ctx.cells)]
    if len(effects) >= 2:
        f.save_in_order(effects)


def _pending_walrus(v, cells) -> bool:
    """Whether ``v`` is a value stored in a name whose assignment may still become a walrus
    where the value is used (so it is computed there): one whose computing may run code."""
    return isinstance(v, V.Stored) and not getattr(v.assign, "_pinned", False) and not _inert(v.value, cells)


def has_effects(v, seen=None):
    """Whether evaluating stack value ``v`` may run code (a symbolic list: one of its elements)."""
    if isinstance(v, ast.expr):
        return _needs_spill(v, set())
    if isinstance(v, V.SymList):
        seen = seen if seen is not None else set()
        if id(v) in seen:
            return False
        seen.add(id(v))
        return any(has_effects(e.value if isinstance(e, ast.Starred) else e, seen) for e in v.elts)
    return False


def _swap(f, ins):
    n = ins.arg
    s = f.stack
    if len(s) < n:
        raise DecompilationError("stack underflow", f.ctx.name, ins.offset, ins.op)
    _keep_order(f, n)
    s[-1], s[-n] = s[-n], s[-1]


def _rot(f, ins):
    n = ins.arg
    _keep_order(f, n)
    top = f.stack.pop()
    f.stack.insert(len(f.stack) - (n - 1), top)


def _unpack_sequence(f, ins):
    _unpack(f, ins, ins.arg, None)


def _unpack_ex(f, ins):
    before = ins.arg & 0xFF
    after = ins.arg >> 8
    _unpack(f, ins, before + after + 1, before)


def _unpack(f, ins, n, starred):
    v = f.pop(ins)
    if isinstance(v, V.Stored) and written_as_walrus(f, v):
        v = f.expr(v, ins)  # ``a, b = (c := value)``
    if isinstance(v, V.UnpackSlot):
        group = V.TargetGroup(n, None, starred, parent=(v.group, v.index))
    elif isinstance(v, V.Stored):
        # ``a, b = c, d = value``: the value already stored to the first targets,
        # unpacked again: one more target of that assignment
        group = V.TargetGroup(n, lambda target, stored=v: stored.assign.targets.append(target), starred)
    else:
        shared = any(x is v for x in f.stack)
        value = f.expr(v, ins)
        frame_ref = f

        def done(target, value=value, frame_ref=frame_ref, original=v):
            if shared:
                # ``a, b = x = value``: one evaluation, several targets
                node = ast.Assign(targets=[target], value=value)
                node._no_spill = True
                frame_ref.emit(node)
                for k, x in enumerate(frame_ref.stack):
                    if x is original:
                        frame_ref.stack[k] = V.Stored(node, value)
                return
            frame_ref.ctx.emit_unpack(frame_ref, target, value)
        group = V.TargetGroup(n, done, starred)
    # pushed so that the first target is on top
    for i in reversed(range(n)):
        f.push(V.UnpackSlot(group, i))


def _return_value(f, ins):
    v = f.pop(ins)
    f.emit(ast.Return(value=f.expr(v, ins)))


def _raise(f, ins):
    n = ins.arg
    cause = exc = None
    if n == 2:
        cause = f.pop_expr(ins)
    if n >= 1:
        exc = f.pop_expr(ins)
    f.emit(ast.Raise(exc=exc, cause=cause))


def _load_assertion_error(f, ins):
    node = name("AssertionError")
    node._assertion = True  # an ``assert`` statement raises this
    node._line_mark = ins.arg  # "own line" / "under if" (see instructions._mark_asserts_on_own_line)
    f.push(node)


def _import_name(f, ins):
    fromlist = f.pop_expr(ins)
    level = f.pop_expr(ins)
    f.push(V.Import(ins.arg, fromlist.value, level.value, lazy=ins.op == "LAZY_IMPORT_NAME"))


def import_statement(kind, lazy, **fields):
    """An ``ast.Import`` / ``ast.ImportFrom`` (``kind``), ``lazy`` (3.15) or not."""
    if lazy:
        fields["is_lazy"] = 1
    return kind(**fields)


def _import_from(f, ins):
    mod = f.stack[-1]
    f.push(V.ImportedName(mod, ins.arg))


def _import_star(f, ins):
    mod = f.pop(ins)
    f.emit(ast.ImportFrom(module=mod.name, names=[ast.alias(name="*", asname=None)], level=mod.level))


def _setup_annotations(f, ins):
    pass  # implied by the first annotated assignment


def _load_build_class(f, ins):
    f.push(V.BuildClass())


def _push_null(f, ins):
    f.push(V.NULL)


def _get_iter(f, ins):
    v = f.pop(ins)
    if isinstance(v, V.Iterator):
        f.push(v)
        return
    f.push(V.Iterator(f.expr(v, ins)))


def _get_aiter(f, ins):
    f.push(V.Iterator(f.pop_expr(ins), is_async=True))


def _print_expr(f, ins):
    f.emit(ast.Expr(value=f.pop_expr(ins)))


def _load_locals(f, ins):
    f.push(ast.Call(func=name("locals"), args=[], keywords=[]))


def _load_from_dict_or_deref(f, ins):
    f.pop(ins)
    f.push(name(f.ctx.deref_name(ins.arg)))


def _load_from_dict_or_globals(f, ins):
    f.pop(ins)
    f.push(name(ins.arg))


def _await(f, ins):
    # GET_AWAITABLE; LOAD_CONST None; YIELD_FROM/SEND... -> the structurer
    # sees GET_AWAITABLE and folds the loop that follows.
    node = ast.Await(value=f.pop_expr(ins))
    # (<=3.10, run here in an operand of ``and``/``or``: calling an async comprehension's
    # function makes a coroutine awaited right away, an await the source does not write)
    node._implicit = _async_comprehension(node.value)
    f.push(node)


def _yield_value(f, ins):
    v = f.pop(ins)
    # (an await's own YIELD_VALUE never gets here: asyncs.py folds the
    # whole SEND loop; ``yield await x`` is a real yield of the result)
    f.push(ast.Yield(value=_none_or(f.expr(v, ins))))


def _yield_from(f, ins):
    f.pop(ins)  # the None sent in
    v = f.pop_expr(ins)
    if isinstance(v, ast.Await):
        f.push(v.value if getattr(v, "_implicit", False) else v)
    else:
        f.push(ast.YieldFrom(value=v))


def _get_yield_from_iter(f, ins):
    pass


_HANDLERS = {
    "LOAD_CONST": _load_const,
    "LOAD_FAST": _load_name, "LOAD_NAME": _load_name, "LOAD_GLOBAL": _load_global,
    "LOAD_DEREF": _load_deref, "LOAD_CLASSDEREF": _load_deref,
    "LOAD_CLOSURE": _load_closure,
    "STORE_FAST": _store_name, "STORE_NAME": _store_name,
    "STORE_GLOBAL": _store_global, "STORE_DEREF": _store_deref,
    "DELETE_FAST": _delete(lambda f, i: name(i.arg, ast.Del())),
    "DELETE_NAME": _delete(lambda f, i: name(i.arg, ast.Del())),
    "DELETE_GLOBAL": _delete_global, "DELETE_DEREF": _delete_deref,
    "LOAD_ATTR": _load_attr, "LOAD_METHOD": _load_method,
    "LOAD_SUPER_ATTR": _load_super_attr,
    "STORE_ATTR": _store_attr, "DELETE_ATTR": _delete_attr,
    "BINARY_OP": _binary_op, "BINARY_SUBSCR": _binary_subscr,
    "BINARY_SLICE": _binary_slice, "STORE_SLICE": _store_slice,
    "BUILD_SLICE": _build_slice,
    "STORE_SUBSCR": _store_subscr, "DELETE_SUBSCR": _delete_subscr,
    "UNARY_NEGATIVE": _unary, "UNARY_POSITIVE": _unary, "UNARY_INVERT": _unary,
    "UNARY_NOT": _unary,
    "COMPARE_OP": _compare, "IS_OP": _is_op, "CONTAINS_OP": _contains_op,
    "BUILD_TUPLE": _build(ast.Tuple), "BUILD_LIST": _build(ast.List),
    "BUILD_SET": _build(ast.Set), "BUILD_MAP": _build_map,
    "BUILD_CONST_KEY_MAP": _build_const_key_map, "BUILD_STRING": _build_string,
    "FORMAT_VALUE": _format_value, "CONVERT_VALUE": _convert_value, "TO_BOOL": _to_bool,
    "LIST_APPEND": _collection_add("list"), "SET_ADD": _collection_add("set"),
    "MAP_ADD": _collection_add("map"),
    "LIST_EXTEND": _list_extend, "SET_UPDATE": _set_update,
    "DICT_UPDATE": _dict_update, "DICT_MERGE": _dict_merge,
    "BUILD_LIST_UNPACK": _build_unpack("list"), "BUILD_TUPLE_UNPACK": _build_unpack("tuple"),
    "BUILD_TUPLE_UNPACK_WITH_CALL": _build_unpack("tuple"),
    "BUILD_SET_UNPACK": _build_unpack("set"), "BUILD_MAP_UNPACK": _build_unpack("map"),
    "BUILD_MAP_UNPACK_WITH_CALL": _build_unpack("map"),
    "CALL_INTRINSIC_1": _intrinsic,
    "CALL": _call, "CALL_KW": _call_kw, "CALL_FUNCTION_EX": _call_function_ex,
    "MAKE_FUNCTION": _make_function,
    "POP_TOP": _pop_top, "COPY": _copy, "SWAP": _swap, "ROT": _rot,
    "UNPACK_SEQUENCE": _unpack_sequence, "UNPACK_EX": _unpack_ex,
    "RETURN_VALUE": _return_value, "RAISE_VARARGS": _raise,
    "LOAD_ASSERTION_ERROR": _load_assertion_error,
    "IMPORT_NAME": _import_name, "LAZY_IMPORT_NAME": _import_name, "IMPORT_FROM": _import_from,
    "IMPORT_STAR": _import_star,
    "SETUP_ANNOTATIONS": _setup_annotations, "ANNOTATED": _annotated, "LOAD_BUILD_CLASS": _load_build_class,
    "PUSH_NULL": _push_null, "GET_ITER": _get_iter, "GET_AITER": _get_aiter,
    "PRINT_EXPR": _print_expr, "LOAD_LOCALS": _load_locals,
    "BUILD_INTERPOLATION": _build_interpolation, "BUILD_TEMPLATE": _build_template,
    "LOAD_FROM_DICT_OR_DEREF": _load_from_dict_or_deref,
    "LOAD_FROM_DICT_OR_GLOBALS": _load_from_dict_or_globals,
    "GET_AWAITABLE": _await, "YIELD_VALUE": _yield_value, "YIELD_FROM": _yield_from,
    "GET_YIELD_FROM_ITER": _get_yield_from_iter,
}


def _async_comprehension(node):
    """Whether ``node`` is a list/set/dict comprehension that is itself
    asynchronous (an ``async for`` or an ``await`` anywhere in it but in
    the outermost iterable, which runs outside its scope)."""
    if not isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp)):
        return False
    parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    for k, g in enumerate(node.generators):
        if g.is_async:
            return True
        parts.append(g.target)
        parts.extend(g.ifs)
        if k:
            parts.append(g.iter)
    return any(isinstance(x, ast.Await) or isinstance(x, ast.comprehension) and x.is_async
               for p in parts for x in ast.walk(p))
