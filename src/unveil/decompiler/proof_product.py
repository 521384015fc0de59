"""The two sides explored together (the product program): :class:`Prover` matches their
observations event by event, joins their states where paths meet (:func:`generalize`,
:func:`instance_of`) until nothing changes, and raises :class:`~.errors.NotEquivalent`
where they differ.

Runs :mod:`.proof_interpreter` on each side; a nested code object met on the way is
proved by the function :mod:`.validate` passes in (``check_nested``), which makes a
:class:`Prover` of its own.
"""
import heapq
import types
from typing import Dict, List, Tuple

from .errors import NotEquivalent
from .opsem import FINALLY_SUBROUTINES
from .proof_interpreter import Obs, _fin_shape, after_event, observe, raise_into, results_for
from .proof_lists import _lists_written, _pair_lists, escape
from .proof_program import FRAME_READERS, Program, Side, initial
from .proof_values import ATOMS, GROUND, UNBOUND, _walk, is_bool, is_world_value, world_value


# ---------------------------------------------------------------- joins

def _side_values(side: Side, names) -> list:
    """Every value one side holds: its stack, its locals and cells (``names``: both
    in order), the exception being handled."""
    return (list(side.stack) + [side.env.get(n, UNBOUND) for n in names[0]]
            + [side.cells.get(n, UNBOUND) for n in names[1]] + [side.exc])


def _positions(a: Side, b: Side, names) -> tuple:
    """Every value both sides hold, in a fixed order of positions."""
    return tuple(_side_values(a, names[0]) + _side_values(b, names[1]))


def _set_positions(a: Side, b: Side, names, values):
    it = iter(values)
    for side, (local_names, cell_names) in ((a, names[0]), (b, names[1])):
        side.stack = [next(it) for _ in side.stack]
        for n in local_names:
            side.env[n] = next(it)
        for n in cell_names:
            side.cells[n] = next(it)
        side.exc = next(it)


def _may_be_unbound(v) -> bool:
    return v == UNBOUND or v[0] == "v?"


def instance_of(new: tuple, old: tuple) -> bool:
    """Whether ``new`` is ``old`` with its opaque values replaced consistently
    (then everything proved from ``old`` holds for ``new``)."""
    sub = {}
    work = list(zip(old, new))
    while work:
        x, y = work.pop()
        if x == y and x[0] not in ATOMS:
            continue
        if x[0] in ATOMS:
            if x in sub:
                if sub[x] != y:
                    return False
                continue
            if x[0] in ("t", "vb") and not is_bool(y):
                return False
            if x[0] != "v?" and _may_be_unbound(y):
                return False
            if is_world_value(x) and not (is_world_value(y) and y[1][2] == x[1][2]):
                return False
            sub[x] = y
            continue
        if x[0] in GROUND or x[0] != y[0] or len(x) != len(y):
            return False
        work.extend((p, q) for p, q in zip(x[1:], y[1:]) if isinstance(p, tuple))
        if any(not isinstance(p, tuple) and p != q for p, q in zip(x[1:], y[1:])):
            return False
    return True


def generalize(old: tuple, new: tuple, fresh) -> tuple:
    """The most specific state of which both ``old`` and ``new`` are instances
    (anti-unification): equal parts stay, different parts become variables, the
    same pair of parts the same variable."""
    memo = {}
    return tuple(_lgg(x, y, memo, fresh) for x, y in zip(old, new))


def _lgg(x, y, memo, fresh):
    """``generalize`` of one pair of values (``memo``: the variable of each pair of parts)."""
    if x == y:
        return x
    if (x[0] == y[0] and len(x) == len(y) and x[0] not in ATOMS and x[0] not in GROUND
            and all(p == q or isinstance(p, tuple) and isinstance(q, tuple)
                    for p, q in zip(x[1:], y[1:]))):
        return (x[0],) + tuple(_lgg(p, q, memo, fresh) if isinstance(p, tuple) else p
                               for p, q in zip(x[1:], y[1:]))
    got = memo.get((x, y))
    if got is None and is_world_value(x) and is_world_value(y) and x[1][2] == y[1][2]:
        # what the last event left in the cell on either path: still that
        got = memo[(x, y)] = world_value(("j", fresh()), x[1][2])
    if got is None:
        if _may_be_unbound(x) or _may_be_unbound(y):
            kind = "v?"
        elif is_bool(x) and is_bool(y):
            kind = "vb"
        else:
            kind = "v"
        got = memo[(x, y)] = (kind, fresh())
    return got


# ---------------------------------------------------------------- the product

class Prover:
    """Explores the product of two programs; raises :class:`NotEquivalent`."""

    def __init__(self, a: Program, b: Program, budget: int, check_nested):
        self.a, self.b = a, b
        # proves pairs of nested code objects the same: validate's, which makes a Prover
        # for each (passed in: this module is below it)
        self.check_nested = check_nested
        a.analyse()
        b.analyse()
        self.names = ((tuple(sorted(a.code.co_varnames)), a.cellnames),
                      (tuple(sorted(b.code.co_varnames)), b.cellnames))
        self.states: Dict[tuple, tuple] = {}
        self.work: List[tuple] = []  # heap of (pc, pc, seq, item)
        self.seq = 0
        self.queued: Dict[tuple, Tuple[Side, Side]] = {}
        self.counter = 0
        self.budget = budget
        self.code_equal: Dict[tuple, bool] = {}  # (code value, code value) -> proved the same
        # without nested code objects no value holds a code value: equal values are the same
        self.no_code_values = not (_holds_code(a.code.co_consts) or _holds_code(b.code.co_consts))
        self.nested_reason = None
        self.origin: Dict[tuple, tuple] = {}  # event result -> the key of its event

    def run(self):
        self.push(initial(self.a), initial(self.b))
        while self.work:
            _, _, _, item = heapq.heappop(self.work)
            self.budget -= 1
            if self.budget < 0:
                raise NotEquivalent("the proof needs more steps than allowed")
            if item[0] == "join":
                key = item[1]
                a, b = self.queued.pop(key)
                a, b = a.copy(), b.copy()
                _set_positions(a, b, self.names, self.states[key])
                x, y = observe(a, resumed=True), observe(b, resumed=True)
                if _holds_state(x) and _holds_state(y) and (x.side.pc, y.side.pc) == key[:2]:
                    self.match(x, y)  # what is seen at the join itself: explore it
                else:
                    self.arrive(x, y)
            else:
                self.arrive(observe(item[1]), observe(item[2]))

    def push(self, a, b):
        """Queue a pair of sides to run to their next observations. The queue runs in
        program order, so the paths into a join have usually all arrived before the
        join is explored (once)."""
        self.seq += 1
        heapq.heappush(self.work, (a.pc, b.pc, self.seq, ("run", a, b)))

    def arrive(self, x: Obs, y: Obs):
        """Two observations reached from a queued pair: where either side stands at a
        join, the state is joined with what is known there (and explored from there
        later, once); elsewhere they are matched at once."""
        if x.kind == "join" and not _holds_state(y):
            x = observe(x.side, stop_at_joins=False)  # the other side cannot wait there
        if y.kind == "join" and not _holds_state(x):
            y = observe(y.side, stop_at_joins=False)
        x, y = self.past_forward_join(x, y)
        if not (_holds_state(x) and _holds_state(y)) or (
                x.side.pc not in x.side.prog.joins and y.side.pc not in y.side.prog.joins):
            self.match(x, y)
            return
        a, b = x.side, y.side
        key = (a.pc, b.pc, a.blocks, b.blocks, len(a.stack), len(b.stack), a.escaped, b.escaped)
        if FINALLY_SUBROUTINES:
            key += (_fin_shape(a), _fin_shape(b))
        _forget_dead(a)
        _forget_dead(b)
        if a.lists or b.lists:
            self.flush_lists(a, b)
        values = _positions(a, b, self.names)
        old = self.states.get(key)
        if old is not None:
            if instance_of(values, old):
                return
            values = generalize(old, values, self.fresh)
        self.states[key] = values
        if key not in self.queued:
            self.queued[key] = (a, b)
            self.seq += 1
            heapq.heappush(self.work, (a.pc, b.pc, self.seq, ("join", key)))

    def past_forward_join(self, x: Obs, y: Obs):
        """(x, y), where one side stands at a join no loop comes back to while the other
        stands at none, and the two hold different lists, with the first going on past
        the join. Joined there, a list the other side made ahead of it would become an
        object of one side only, that its own list, made after the join, could never
        match. (The exploration still ends: every cycle passes a loop's head, where
        states are joined as before.)"""
        if (x.kind == "join") == (y.kind == "join") or not (_holds_state(x) and _holds_state(y)):
            return x, y
        at, other = (x, y) if x.kind == "join" else (y, x)
        if (other.side.pc in other.side.prog.joins or at.side.pc in at.side.prog.loop_heads
                or not (x.side.lists or y.side.lists)):
            return x, y
        va, vb = _side_values(x.side, self.names[0]), _side_values(y.side, self.names[1])
        if _lists_written(x.side, va) == _lists_written(y.side, vb):
            return x, y
        went = observe(at.side, loop_heads_only=True)
        return (went, y) if at is x else (x, went)

    def fresh(self):
        self.counter += 1
        return self.counter

    def flush_lists(self, a: Side, b: Side):
        """At a join the lists the two sides still hold become opaque objects: the
        k-th list reachable on one side must have the items of the k-th on the other."""
        tag = ("esc", "join", self.fresh())
        va, vb = _side_values(a, self.names[0]), _side_values(b, self.names[1])
        if _lists_written(a, va) != _lists_written(b, vb):
            _pair_lists(a, b, va, vb, tag)  # not the same lists in the same order
            return
        escape(a, va, tag)
        escape(b, vb, tag)
        a.lists, b.lists = {}, {}

    def follow(self, x, y):
        """Continue with two successors (sides or pending branches)."""
        if isinstance(x, Side) and isinstance(y, Side):
            self.push(x, y)
            return
        ox = x if isinstance(x, Obs) else observe(x)
        oy = y if isinstance(y, Obs) else observe(y)
        self.arrive(ox, oy)

    def match(self, x: Obs, y: Obs):
        if x.kind != y.kind:
            raise NotEquivalent(self.where(x, y, "one side %s, the other %s" % (
                self.describe(x), self.describe(y))))
        if x.kind == "diverge":
            return
        if x.kind in ("return", "raise"):
            # (with what the cells other code holds are left holding)
            self.same(escape(x.side, (x.key, _shared_cells(x.side)), ("esc", 0)),
                      escape(y.side, (y.key, _shared_cells(y.side)), ("esc", 0)), x, y)
            return
        if x.kind == "decide":
            self.same(x.key, y.key, x, y)
            self.follow(x.succ[0], y.succ[0])
            self.follow(x.succ[1], y.succ[1])
            return
        # events
        if x.key != y.key:
            raise NotEquivalent(self.where(x, y, "different operations: %s and %s" % (
                self.describe(x), self.describe(y))))
        self.counter += 1
        tag = ("esc", self.counter)
        ins_x = escape(x.side, self.frame_inputs(x) + (x.side.exc,), tag)
        ins_y = escape(y.side, self.frame_inputs(y) + (y.side.exc,), tag)
        _mark_escaped(x.side, ins_x)
        _mark_escaped(y.side, ins_y)
        runs = runs_code(x.key)
        if runs:  # the world it may read includes the cells other code holds
            ins_x += escape(x.side, (_shared_cells(x.side),), tag + ("cells",))
            ins_y += escape(y.side, (_shared_cells(y.side),), tag + ("cells",))
        self.same(ins_x, ins_y, x, y)
        results = results_for(x, self.counter)
        for r in results:
            self.origin[r] = x.key
        if x.key[0] == "MAKE_FUNCTION" and results:
            x.side.prog.functions[results[0]] = x.inputs[-1]
            y.side.prog.functions[results[0]] = y.inputs[-1]
        raise_x, raise_y = x.side.copy(), y.side.copy()
        if runs:
            for side in (x.side, y.side, raise_x, raise_y):
                _refresh_cells(side, self.counter)
        nx, ny = after_event(x, results), after_event(y, results)
        if (nx is None) != (ny is None):
            raise NotEquivalent(self.where(x, y, "an event raises on one side only"))
        if nx is not None:
            self.follow(nx, ny)
        exc = ("exc", self.counter)
        self.follow(raise_into(raise_x, exc), raise_into(raise_y, exc))

    def frame_inputs(self, obs: Obs) -> tuple:
        """A call's inputs; a call of a frame-reading builtin also reads every local."""
        inputs = obs.inputs
        op = obs.op
        if op is None or not obs.key[0].startswith("CALL") or not inputs:
            return inputs
        callee_keys = [self.origin.get(v) for v in inputs[:2]]
        if any(k and k[0] in ("LOAD_GLOBAL", "LOAD_NAME") and _name(k) in FRAME_READERS
               for k in callee_keys):
            # (tagged: a bare (name, value) pair for a local named ``code`` would read as a code value)
            bound = tuple(("local", n, v) for n, v in sorted(obs.side.env.items()) if v != UNBOUND)
            cells = tuple(("cellval", n, v) for n, v in sorted(obs.side.cells.items()) if v != UNBOUND)
            return inputs + (("frame",) + bound + cells,)
        return inputs

    def same(self, u, v, x, y):
        """``u`` (the original's) and ``v`` are the same value; the functions they
        make from nested code objects are the same when those are proved the same.
        (Equal is not enough: ``("code", name, k)`` names the k-th nested ``name`` of
        each side, whose bodies may differ.)"""
        if not self.same_but_code(u, v):
            nested = "; %s" % self.nested_reason if self.nested_reason else ""
            raise NotEquivalent(self.where(x, y, "different values: %s and %s%s" % (
                _short(u), _short(v), nested)))

    def same_but_code(self, u, v) -> bool:
        if self.no_code_values:  # (the walk below, at C speed: a third of a proof's time)
            return u == v
        if isinstance(u, tuple) and isinstance(v, tuple) and u and v and u[0] == v[0] == "code":
            key = (u, v)
            if key not in self.code_equal:
                self.code_equal[key] = self.nested_same(u, v)
            return self.code_equal[key]
        if (not isinstance(u, tuple) or not isinstance(v, tuple) or len(u) != len(v)
                or (u and u[0] in ATOMS)):
            return u == v
        return all(self.same_but_code(p, q) for p, q in zip(u, v))

    def nested_same(self, u, v) -> bool:
        """Whether the nested code objects behind ``u`` and ``v`` are proved the same."""
        if u[1] != v[1]:
            return False
        try:
            self.check_nested(self.a, self.b, [(u, v)], self.a.fixed_global)
            return True
        except NotEquivalent as e:
            self.nested_reason = str(e)
            return False

    def describe(self, o: Obs):
        if o.kind == "event":
            return "%s%s" % (o.key[0], "" if len(o.key) < 2 else " %r" % (o.key[1],))
        return o.kind

    def where(self, x, y, what):
        ox = x.side.offset if x.side is not None else "-"
        oy = y.side.offset if y.side is not None else "-"
        return "%s (original offset %s, recompiled offset %s)" % (what, ox, oy)


#: events that run no code but the interpreter's own (the cells other code holds can
#: neither be read nor change while they run)
NO_USER_CODE = frozenset({"LOAD_GLOBAL", "LOAD_ASSERTION_ERROR", "LOAD_BUILD_CLASS", "MAKE_FUNCTION",
                          "SET_FUNCTION_ATTRIBUTE", "IS_OP", "UNBOUND_LOCAL", "UNBOUND_FREE",
                          "LOAD_MAYBE_UNBOUND", "DELETE_FAST", "DELETE_DEREF", "LIST_APPEND",
                          "LIST_TO_TUPLE"})


def runs_code(key) -> bool:
    """Whether an event may run code other than the interpreter's (a method of the user's,
    a generator's caller while it is suspended, ...)."""
    return key[0] not in NO_USER_CODE


def _mark_escaped(side: Side, values):
    """The cells handed over in ``values`` (a closure) are held by other code from now on."""
    names = [v[1] for v in _walk(values) if v[0] == "cell" and v[1] in side.cells]
    if names:
        side.escaped = side.escaped | frozenset(names)


def _shared_cells(side: Side) -> tuple:
    """What the cells other code holds hold, where this frame put it (the rest hold what
    the last event that ran code left there, the same on both sides)."""
    return ("cells",) + tuple(("cellval", n, side.cells[n]) for n in sorted(side.escaped)
                              if n in side.cells and not is_world_value(side.cells[n]))


def _refresh_cells(side: Side, event):
    """After an event that ran code: the cells other code holds hold what it left there."""
    for n in side.escaped:
        if n in side.cells:
            side.cells[n] = world_value(event, n)


def _holds_state(o: Obs) -> bool:
    """Whether ``o`` keeps its side as it was at the observation (so the pair can be
    joined there and explored later)."""
    return o.kind in ("event", "decide", "join") and o.side is not None


def _name(key):
    arg = key[1]
    return arg[0] if isinstance(arg, tuple) else arg


def _short(v, limit=120):
    text = repr(v)
    return text if len(text) <= limit else text[:limit] + "..."


DEAD = ("c", "dead", "")


def _forget_dead(side: Side):
    """Locals no path reads again hold nothing that matters."""
    live = side.prog.live
    if live is None or side.pc >= len(live):
        return
    keep = live[side.pc]
    for name in side.env:
        if name not in keep:
            side.env[name] = DEAD
    held = _cells_on_stack(side) if side.cells else ()
    for name in side.cells:  # (a cell other code holds, or is about to hold, is never dead)
        if ("cell", name) not in keep and name not in side.escaped and name not in held:
            side.cells[name] = DEAD


def _cells_on_stack(side: Side) -> set:
    """The cells a closure being built on the stack holds: they escape with the function
    made next (forgotten on one side only, where it stands at that event while the other
    stands at a join before its LOAD_CLOSURE, they would differ)."""
    return {v[1] for v in _walk(side.stack) if v[0] == "cell"}


def _holds_code(consts) -> bool:
    """Whether a code object is among ``consts`` or inside a tuple or frozenset of them."""
    todo = list(consts)
    while todo:
        c = todo.pop()
        if isinstance(c, types.CodeType):
            return True
        if isinstance(c, (tuple, frozenset)):
            todo.extend(c)
    return False
