"""One side run symbolically: :func:`observe` executes a side's pure instructions
(locals, constants, stack shuffles, tuples, known lists, folded arithmetic, jumps; <=3.10
the block stack, 3.8 the finally subroutines) up to what the other side must match, an
:class:`Obs`: an event, a branch, a return or raise, a join. :func:`after_event` and
:func:`raise_into` go on from an event that completed or raised, with the results
:func:`results_for` names.

:mod:`.proof_product` runs the two sides together with these.
"""
import ast
import operator
import types
import warnings
from typing import Dict

from .errors import NotEquivalent
from .opsem import BLOCK_STACK, EX_READS_KEYWORD_SLOT, ITERATOR_POPPED_BY_POP_ITER, PY, RECEIVER_SLOTS
from .proof_lists import _has_list, _items, _list_step
from .proof_program import _CELL_KINDS, FRAME_READERS, Program, Side, _reachable
from .proof_values import (FALSE, LASTI, NONE, NULL_VALUE, TRUE, UNBOUND, const, is_bool, truth_of_const,
                           tuple_value, unpart)


# ---------------------------------------------------------------- observations

class Obs:
    """What a side does next that the other side must match.

    kind: "event" (``key``, ``inputs``; ``side`` is at the instruction), "decide"
    (``key`` is the tested bool; ``succ`` the sides for true and false),
    "return"/"raise" (``key`` is the value), "diverge"."""

    __slots__ = ("kind", "key", "inputs", "side", "op", "succ")

    def __init__(self, kind, key=None, inputs=None, side=None, op=None, succ=None):
        self.kind, self.key, self.inputs, self.side, self.op, self.succ = kind, key, inputs, side, op, succ


def _decision(cond, if_true: Side, if_false: Side):
    """A branch on ``cond`` (a bool), ``not`` layers folded into the outcome; a
    branch on a constant is no branch (the side to go on with)."""
    while cond[0] == "not":
        cond = cond[1]
        if_true, if_false = if_false, if_true
    if cond in (TRUE, FALSE):
        return if_true if cond == TRUE else if_false
    return Obs("decide", cond, succ=(if_true, if_false))


def observe(side: Side, stop_at_joins=True, resumed=False, loop_heads_only=False):
    """Run ``side``'s pure instructions up to its next observation, or up to a join
    (``Obs("join")``; with ``resumed``, not the one it stands at; with
    ``loop_heads_only``, only a join a loop comes back to).

    Returns an :class:`Obs` (``side`` is consumed)."""
    seen = set()
    start = side.pc if resumed else -1
    joins = side.prog.joins if stop_at_joins else ()
    if loop_heads_only:
        joins = side.prog.loop_heads
    while True:
        if side.pc >= len(side.prog.ops):
            raise NotEquivalent("ran off the end of %s" % side.prog.name)
        if side.pc in joins and side.pc != start:
            return Obs("join", side=side)
        if side.pc in seen:
            # a loop of pure instructions only: runs forever
            return Obs("diverge")
        seen.add(side.pc)
        result = _step(side)
        if result is None:
            continue
        if isinstance(result, Side):
            side = result
            continue
        return result


def _step(s: Side):
    """Execute one instruction of ``s`` in place if it is pure (returns None or
    the side to go on with); otherwise return the :class:`Obs` it makes."""
    off, op = s.prog.ops[s.pc]
    kind = op.kind
    if kind == "nop":
        s.pc += 1
    elif kind == "load_fast":
        return _load_fast(s, op.arg)
    elif kind == "load_fast_bound":
        s.stack.append(_bound(s, op.arg))
        s.pc += 1
    elif kind == "load_fast_load_fast":
        s.stack.extend((_bound(s, op.arg[0]), _bound(s, op.arg[1])))
        s.pc += 1
    elif kind == "load_fast_and_clear":
        s.stack.append(s.env.get(op.arg, UNBOUND))
        s.env[op.arg] = UNBOUND
        s.pc += 1
    elif kind == "store_fast":
        s.env[op.arg] = s.pop()[0]
        s.pc += 1
    elif kind == "store_fast_store_fast":
        s.env[op.arg[0]] = s.pop()[0]
        s.env[op.arg[1]] = s.pop()[0]
        s.pc += 1
    elif kind == "store_fast_load_fast":
        s.env[op.arg[0]] = s.pop()[0]
        s.stack.append(_bound(s, op.arg[1]))
        s.pc += 1
    elif kind == "delete_fast":
        return _delete(s, op, s.env, "DELETE_FAST")
    elif kind == "const":
        s.stack.append(s.prog.value_of_const(op.arg))
        s.pc += 1
    elif kind == "load_deref":
        return _load_deref(s, op.arg)
    elif kind == "store_deref":
        s.cells[op.arg] = s.pop()[0]
        s.pc += 1
    elif kind == "delete_deref":
        # (an own cell's unbound name raises as a local's does)
        return _delete(s, op, s.cells, "DELETE_DEREF" if op.arg in s.prog.freevars else "DELETE_FAST")
    elif kind == "make_cell":  # (in the prologue: the cells start as initial() makes them)
        s.env[op.arg] = UNBOUND  # the local's slot holds the cell from here on
        s.pc += 1
    elif kind == "closure":
        s.stack.append(_closure_load(s, op))
        s.pc += 1
    elif kind == "pop":
        s.pop(op.arg)
        s.pc += 1
    elif kind == "end_send":
        v = s.pop(1 + RECEIVER_SLOTS)[-1]  # (the receiver, 3.15's NULL beside it, the value)
        s.stack.append(v)
        s.pc += 1
    elif kind == "copy":
        if op.arg > len(s.stack):
            raise NotEquivalent("stack underflow")
        s.stack.append(s.stack[-op.arg])
        s.pc += 1
    elif kind == "dup_top_two":
        s.stack.extend(s.stack[-2:])
        s.pc += 1
    elif kind == "swap":
        n = op.arg
        if n > len(s.stack):
            raise NotEquivalent("stack underflow")
        s.stack[-1], s.stack[-n] = s.stack[-n], s.stack[-1]
        s.pc += 1
    elif kind == "rot":
        n = op.arg
        if n > len(s.stack):
            raise NotEquivalent("stack underflow")
        top = s.stack.pop()
        s.stack.insert(len(s.stack) - n + 1, top)
        s.pc += 1
    elif kind == "build_tuple":
        s.stack.append(tuple_value(s.pop(op.arg)))
        s.pc += 1
    elif kind == "build_string":
        s.stack.append(("str",) + tuple(s.pop(op.arg)))
        s.pc += 1
    elif kind == "build_slice":
        s.stack.append(("slice",) + tuple(s.pop(op.arg)))
        s.pc += 1
    elif kind == "is":
        if _has_list(s.stack[-2:]):  # identity of a list: an event that lets it escape
            return Obs("event", ("IS_OP",), tuple(s.stack[-2:]), s, op)  # ``is not``: negated
        a, b = s.pop(2)
        v = ("is", a, b)
        s.stack.append(("not", v) if op.arg else v)
        s.pc += 1
    elif kind in ("not", "to_bool"):
        v = s.stack[-1]
        if kind == "not" and v in (TRUE, FALSE):
            # (``not 4`` whose constant a removed conditional expression left
            # unfolded, ``not (x if 0 else 4)``: the compiler folds the text's)
            s.stack[-1] = FALSE if v == TRUE else TRUE
            s.pc += 1
            return None
        if is_bool(v):
            s.stack[-1] = ("not", v) if kind == "not" else v
            s.pc += 1
            return None
        t = truth_of_const(v)
        if t is not None:
            s.stack[-1] = TRUE if t != (kind == "not") else FALSE
            s.pc += 1
            return None
        return Obs("event", ("bool",), (v,), s, op)
    elif kind == "jump":
        s.pc = op.target
    elif kind == "cond":
        return _cond(s, op)
    elif kind in ("for_iter", "send", "exc_match_jump"):
        n = {"for_iter": 1, "send": 2, "exc_match_jump": 2}[kind]
        if len(s.stack) < n:
            raise NotEquivalent("stack underflow")
        return Obs("event", op.key, tuple(s.stack[-n:]), s, op)
    elif kind == "return":
        return Obs("return", s.pop()[0], side=s)
    elif kind == "return_const":
        return Obs("return", s.prog.value_of_const(op.arg), side=s)
    elif kind == "push_exc_info":
        v = s.pop()[0]
        s.stack.extend((s.exc, v))
        s.exc = v
        s.pc += 1
    elif kind == "pop_except":
        if BLOCK_STACK:
            # pops the handler's block and the (tb, value, type) saved under the
            # exception it handled (a return value may sit below them)
            if not s.blocks or s.blocks[-1][0] != "except":
                raise NotEquivalent("POP_EXCEPT outside a handler")
            s.exc = unpart(s.pop(3)[1])
            s.blocks = s.blocks[:-1]
        else:
            s.exc = s.pop()[0]
        s.pc += 1
    elif kind == "reraise":
        if BLOCK_STACK:
            exc = unpart(s.pop(3)[1])
        else:
            exc = s.pop()[0]
        return raise_into(s, exc)
    elif kind == "setup_finally":
        s.blocks = s.blocks + (("finally", op.target, len(s.stack)),)
        s.pc += 1
    elif kind == "setup_async_with":
        s.blocks = s.blocks + (("finally", op.target, len(s.stack) - 1),)
        s.pc += 1
    elif kind == "setup_with":
        return Obs("event", ("SETUP_WITH",), (s.stack[-1],) if s.stack else (), s, op)
    elif kind == "pop_block":
        if not s.blocks or s.blocks[-1][0] != "finally":
            raise NotEquivalent("POP_BLOCK without a block")
        s.blocks = s.blocks[:-1]
        s.pc += 1
    elif kind in ("event", "contains"):
        return _event_obs(s, op)
    elif kind == "begin_finally":
        s.stack.append(FIN_NONE)
        s.pc += 1
    elif kind == "call_finally":
        s.stack.append(("fin", "return", s.pc + 1))
        s.pc = op.target
    elif kind == "end_finally":
        return _end_finally(s)
    elif kind == "pop_finally":
        _pop_finally(s, op.arg)
    elif kind == "with_cleanup_start":
        exc = s.stack[-1] if s.stack else None
        if exc == FIN_NONE and len(s.stack) >= 2:
            return Obs("event", op.key, (s.stack[-2], NONE), s, op)
        if exc is not None and exc[:2] == ("part", "type") and len(s.stack) >= 7:
            return Obs("event", op.key, (s.stack[-7], exc[2]), s, op)
        raise NotEquivalent("WITH_CLEANUP_START on an unknown value in %s" % s.prog.name)
    elif kind == "with_cleanup_finish":
        return _with_cleanup_finish(s, op)
    else:
        raise NotEquivalent("instruction %s is not modelled" % (op.arg,))
    return None


# ---- 3.8's finally subroutines (FINALLY_SUBROUTINES)

FIN_NONE = ("fin", "none")  # the NULL of BEGIN_FINALLY: the finally body was entered normally


def _end_finally(s: Side):
    """END_FINALLY: go on (entered normally), return to the caller (CALL_FINALLY's
    address) or raise the exception again (the body was entered by it)."""
    top = s.stack[-1] if s.stack else None
    if top == FIN_NONE:
        s.pop()
        s.pc += 1
        return None
    if top is not None and top[:2] == ("fin", "return"):
        s.pop()
        s.pc = top[2]
        return None
    if top is not None and top[:2] == ("part", "type"):
        s.pop(3)
        return raise_into(s, top[2])
    raise NotEquivalent("END_FINALLY on an unknown value in %s at offset %d" % (s.prog.name, s.offset))


def _pop_finally(s: Side, preserve_tos):
    """POP_FINALLY: leave a finally body early (``return``/``break`` in it): drop what it
    was entered with; for an exception also its handler's block, restoring the exception
    handled before."""
    res = s.pop()[0] if preserve_tos else None
    top = s.pop()[0]
    if top[0] != "fin":
        if top[:2] != ("part", "type"):
            raise NotEquivalent("POP_FINALLY on an unknown value in %s" % s.prog.name)
        s.pop(2)
        if not s.blocks or s.blocks[-1][0] != "except":
            raise NotEquivalent("POP_FINALLY outside a handler")
        level = s.blocks[-1][2]
        if len(s.stack) != level + 3:
            raise NotEquivalent("POP_FINALLY: stack and handler disagree")
        s.exc = unpart(s.stack[level + 1])
        del s.stack[level:]
        s.blocks = s.blocks[:-1]
    if preserve_tos:
        s.stack.append(res)
    s.pc += 1


def _with_cleanup_finish(s: Side, op):
    """WITH_CLEANUP_FINISH: after ``__exit__`` returned ``res`` for an exception, a true
    ``res`` swallows it."""
    if len(s.stack) < 2:
        raise NotEquivalent("stack underflow at WITH_CLEANUP_FINISH")
    res, exc = s.stack[-1], s.stack[-2]
    if exc == NONE:  # left normally: __exit__'s result is dropped
        s.pop(2)
        s.pc += 1
        return None
    if not is_bool(res):
        t = truth_of_const(res)
        if t is None:
            return Obs("event", ("bool",), (res,), s, op)
        res = TRUE if t else FALSE
    return _swallow_or_not(s, res)


def _swallow_or_not(s: Side, res):
    before = s.copy()
    s.pop(2)
    swallowed = s.copy()
    if not swallowed.blocks or swallowed.blocks[-1][0] != "except":
        raise NotEquivalent("WITH_CLEANUP_FINISH outside a handler")
    level = swallowed.blocks[-1][2]
    if len(swallowed.stack) < level + 3:
        raise NotEquivalent("stack underflow at WITH_CLEANUP_FINISH")
    swallowed.exc = unpart(swallowed.stack[level + 1])
    del swallowed.stack[level:]
    swallowed.blocks = swallowed.blocks[:-1]
    swallowed.stack.append(FIN_NONE)
    swallowed.pc += 1
    s.pc += 1
    got = _decision(res, swallowed, s)
    if isinstance(got, Obs):
        got.side = before
    return got


def _fin_shape(side: Side) -> tuple:
    """Where 3.8's finally markers sit on the stack: states are joined only when these
    agree (a finally body called from two places is explored once per caller)."""
    return tuple((k, v) for k, v in enumerate(side.stack) if v[0] == "fin")


def _bound(s: Side, name):
    """3.12+ ``LOAD_FAST``: the compiler proved the local bound."""
    v = s.env.get(name, UNBOUND)
    if v == UNBOUND:
        raise NotEquivalent("LOAD_FAST of the unbound local %r in %s" % (name, s.prog.name))
    return v


def _load_fast(s: Side, name):
    v = s.env.get(name, UNBOUND)
    if v == UNBOUND:
        return Obs("event", ("UNBOUND_LOCAL", name), (), s, None)
    if v[0] == "v?":
        return Obs("event", ("LOAD_MAYBE_UNBOUND", name), (v,), s, None)
    s.stack.append(v)
    s.pc += 1
    return None


def _closure_load(s: Side, op):
    """The cell ``op`` loads for a closure. 3.13 loads it with LOAD_FAST from the local's
    slot, where an inlined comprehension keeps its own variable of the same name
    meanwhile (set by STORE_FAST, the cell put back after it): that value, when set."""
    if op.key != "fast":
        return ("cell", op.arg)
    v = s.env.get(op.arg, UNBOUND)
    if v == UNBOUND:
        return ("cell", op.arg)
    if v[0] == "v?":
        raise NotEquivalent("LOAD_FAST of %r: the cell or a value, unknown which" % op.arg)
    return v


def _delete(s: Side, op, table, event_name):
    """``del name`` of a local (``table`` s.env) or a cell (s.cells): a name known to be
    bound is unbound with no event; one that is unbound or may be is the event
    ``event_name`` (it may raise)."""
    v = table.get(op.arg, UNBOUND)
    if v != UNBOUND and v[0] != "v?":
        table[op.arg] = UNBOUND
        s.pc += 1
        return None
    return Obs("event", (event_name, op.arg, v == UNBOUND), (v,), s, op)


def _load_deref(s: Side, name):
    """A cell's value: read like a local (an unbound own cell raises as an unbound local
    does; a free one raises NameError)."""
    v = s.cells.get(name, UNBOUND)
    free = name in s.prog.freevars
    if v == UNBOUND:
        return Obs("event", ("UNBOUND_FREE" if free else "UNBOUND_LOCAL", name), (), s, None)
    if v[0] == "v?":
        return Obs("event", ("LOAD_MAYBE_UNBOUND", name) + (("free",) if free else ()), (v,), s, None)
    s.stack.append(v)
    s.pc += 1
    return None


def _cond(s: Side, op):
    v = s.stack[-1]
    how = op.arg
    if how not in ("none", "not_none") and not is_bool(v):
        t = truth_of_const(v)
        if t is None:
            return Obs("event", ("bool",), (v,), s, op)
        v = TRUE if t else FALSE
    before = s.copy()  # the state at the branch, where paths are joined
    if how in ("none", "not_none"):
        s.pop()
        cond = FALSE if v[0] == "L" else ("is", v, NONE)
        got = _branch(s, cond, how == "none", op.target, keep=False)
    else:
        got = _cond_on_bool(s, v, op)
    if isinstance(got, Obs):
        got.side = before
    return got


def _cond_on_bool(s: Side, b, op):
    """``s`` at conditional jump ``op`` whose tested value (on top) is the bool ``b``."""
    how = op.arg
    jump_if = how in ("true", "true_or_pop")
    keep = how in ("true_or_pop", "false_or_pop")
    if not keep:
        s.pop()
    return _branch(s, b, jump_if, op.target, keep)


def _branch(s: Side, cond, jump_if, target, keep):
    jumped = s.copy()
    jumped.pc = target
    fell = s
    fell.pc += 1
    if keep:
        fell.pop()  # *_OR_POP: the value stays only on the jump
    if_true, if_false = (jumped, fell) if jump_if else (fell, jumped)
    got = _decision(cond, if_true, if_false)
    return got


def _event_obs(s: Side, op):
    if _list_step(s, op):
        return None
    if op.arith is not None and _fold(s, op):
        return None
    if op.key[0] == "LOAD_GLOBAL" and s.prog.fixed_global(op.key[1]):
        if op.null == "below":
            s.stack.append(NULL_VALUE)
        s.stack.append(("global", op.key[1]))
        if op.null == "above":
            s.stack.append(NULL_VALUE)
        s.pc += 1
        return None
    need = max(op.pops, op.deep or 0)
    if need > len(s.stack):
        raise NotEquivalent("stack underflow in %s at offset %d" % (s.prog.name, s.offset))
    inputs = tuple(s.stack[len(s.stack) - op.pops:]) if op.pops else ()
    if op.key == ("STORE_NAME", "__firstlineno__", 1, 0):
        inputs = (("lineno",),)  # 3.13 class bodies record their line: layout, not meaning
    elif op.key == ("STORE_NAME", "__qualname__", 1, 0):
        inputs = (s.prog.qualname(inputs[0]),)
    elif op.key[0] == "MAKE_FUNCTION" and PY < (3, 11):
        inputs = inputs[:-1] + (s.prog.qualname(inputs[-1]),)
    key = op.key
    if key[0] == "MAKE_FUNCTION" and PY < (3, 13) and key[1] & 8:
        code_at = len(inputs) - (2 if PY < (3, 11) else 1)
        closure = _closure(s.prog, inputs[code_at], inputs[code_at - 1])
        if closure == ("closure",):  # no cell the code reads: no closure
            key = (key[0], key[1] & ~8, key[2] - 1, key[3])
            inputs = inputs[:code_at - 1] + inputs[code_at:]
        elif closure is not None:
            inputs = inputs[:code_at - 1] + (closure,) + inputs[code_at:]
    elif key[:2] == ("SET_FUNCTION_ATTRIBUTE", 8):
        closure = _closure(s.prog, s.prog.functions.get(inputs[1], NONE), inputs[0])
        if closure == ("closure",):
            fn = s.pop(2)[1]
            s.stack.append(fn)
            s.pc += 1
            return None
        if closure is not None:
            inputs = (closure, inputs[1])
    if op.callee_slots == 2:
        inputs = tuple(v for v in inputs[:2] if v != NULL_VALUE) + inputs[2:]
    if key[0] == "CALL" and key[1] == ("ex", False) and inputs:
        # f(*args) with args a list or tuple of known items is the call f(item, ...)
        # (only a star call: ``f([a, 1])`` passes one list, not two items)
        star = inputs[:-1] if EX_READS_KEYWORD_SLOT and inputs[-1] == NULL_VALUE else inputs
        args = None
        if star is not inputs or not EX_READS_KEYWORD_SLOT:
            args = s.lists.get(star[-1]) if star[-1][0] == "L" else _items(star[-1])
        if args is not None:
            key = ("CALL", None, False, len(args), None)
            inputs = star[:-1] + tuple(args)
    elif key[0] == "BUILD_CONST_KEY_MAP" and inputs and inputs[-1][:2] == ("c", "tuple"):
        # the same dict as BUILD_MAP with the keys beside their values
        pairs = zip(inputs[-1][2], inputs[:-1])
        key = ("BUILD_MAP", key[1], 2 * key[1], 1)
        inputs = tuple(x for pair in pairs for x in pair)
    elif key[0] == "FORMAT_VALUE" and key[1] & 4 and inputs and inputs[-1] == ("c", "str", "''"):
        key = ("FORMAT_VALUE", key[1] & ~4, 1, 1)  # an empty format spec is no spec
        inputs = inputs[:-1]
    if op.deep:
        inputs = (s.stack[-op.deep],) + inputs
        if op.key[0] == "WITH_EXCEPT_START" and BLOCK_STACK:
            inputs += tuple(s.stack[-3:])
        elif op.key[0] == "WITH_EXCEPT_START":
            inputs += (s.stack[-1],)
    return Obs("event", key, inputs, s, op)


def _closure(prog, code_value, cells):
    """The closure a function made from ``code_value`` gets from the tuple ``cells``,
    written as the cells its code reads, each under the name the code reads it by
    (a cell it never reads makes no difference: the compiler passes one for a
    reference it then optimized away), or None when unknown."""
    code = prog.code_of(code_value)
    items = _items(cells)
    if code is None or items is None or len(items) != len(code.co_freevars):
        return None
    used = _used_freevars(code)
    return ("closure",) + tuple(("free", name, cell) for name, cell in zip(code.co_freevars, items)
                                if name in used)


_USED_FREEVARS: Dict[types.CodeType, frozenset] = {}


def _used_freevars(code) -> frozenset:
    got = _USED_FREEVARS.get(code)
    if got is None:
        free = frozenset(code.co_freevars)
        if FRAME_READERS & set(code.co_names):
            got = free
        else:
            got = free & _cells_reached(Program(code, None), _passed_and_read(code))
        if len(_USED_FREEVARS) > 4096:
            _USED_FREEVARS.clear()
        _USED_FREEVARS[code] = got
    return got


_NUMBERS = ("int", "float", "complex", "bool")
_OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
              "//": operator.floordiv, "%": operator.mod, "**": operator.pow,
              "<<": operator.lshift, ">>": operator.rshift, "&": operator.and_, "|": operator.or_,
              "^": operator.xor, "neg": operator.neg, "pos": operator.pos, "inv": operator.invert,
              "<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
              ">": operator.gt, ">=": operator.ge}
_STORES = ("store_fast", "store_deref", "store_fast_load_fast", "store_fast_store_fast")
_FOLD_BITS = 4096  # no int past this size is made (the compiler's own folding stops far below)


def _fold(s: Side, op) -> bool:
    """Do the arithmetic or comparison ``op`` in place when its operands are constant
    numbers (builtin types: no code of the user's runs; the compiler folds the same
    arithmetic when the source spells it on constants, and a text may spell a comparison
    of constants by its outcome). Returns whether it did."""
    n = op.pops
    if len(s.stack) < n or n not in (1, 2):
        return False
    operands = s.stack[-n:]
    if any(v[0] != "c" or v[1] not in _NUMBERS for v in operands):
        return False
    if s.prog.in_loop(s.pc) and s.prog.ops[s.pc + 1][1].kind in _STORES:
        # (a loop's counter, stored back, is no constant the compiler folds: folding it
        # on one side past the loop's join, where the other side waits with it
        # generalized, would put the two out of step)
        return False
    try:
        values = [ast.literal_eval(v[2]) for v in operands]
    except (ValueError, SyntaxError):  # nan, inf: their reprs are no literals
        return False
    if not _small_enough(op.arith, values):
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (~True warns on 3.12+): leave it to run
            result = _OPERATORS[op.arith](*values)
    except Exception:  # noqa: BLE001 - 1 / 0 and kin: the operation raises when run
        return False
    if type(result).__name__ not in _NUMBERS:
        return False
    s.pop(n)
    s.stack.append(const(result, []))
    s.pc += 1
    return True


def _small_enough(symbol, values) -> bool:
    ints = [abs(v) for v in values if isinstance(v, int)]
    if any(v.bit_length() > _FOLD_BITS for v in ints):
        return False
    if symbol == "**" and len(ints) == 2:
        base, exp = values
        return exp <= _FOLD_BITS and (abs(base) <= 1 or exp * abs(base).bit_length() <= _FOLD_BITS)
    if symbol == "<<" and len(ints) == 2:
        return values[1] <= _FOLD_BITS
    return True


def _passed_and_read(code) -> frozenset:
    """The cells that the code objects nested in ``code`` read (or pass on to code that
    does): only those can be read through a closure ``code`` makes."""
    nested = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return frozenset().union(*(_used_freevars(c) for c in nested))


def _cells_reached(prog, passed_read) -> set:
    """The cells the instructions reachable from the start of ``prog`` read, write or
    pass on to code that reads them (``passed_read``: a cell passed on only to code
    that never reads it, a reference the compiler optimized away in a lambda's
    generator expression, is not read through this closure either; 3.8 leaves
    unreachable code in place)."""
    names = set()
    for pc in _reachable(prog):
        op = prog.ops[pc][1]
        if op.kind in _CELL_KINDS or op.kind == "closure" and op.arg in passed_read:
            names.add(op.arg)
        elif op.kind == "event" and op.key[0] in _CELL_EVENTS:
            names.add(op.key[1])
    return names


_CELL_EVENTS = ("LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF", "LOAD_CLASSDEREF", "LOAD_FROM_DICT_OR_DEREF")


def after_event(obs: Obs, results):
    """The side after its event ``obs`` completed normally with ``results``
    (a tuple of fresh values): a :class:`Side`, or an :class:`Obs` for a branch."""
    s, op = obs.side, obs.op
    key = obs.key
    if key[0] == "UNBOUND_LOCAL":
        return None  # always raises
    if key[0] == "LOAD_MAYBE_UNBOUND":
        # loaded: bound, and holding that value until something runs that may change it
        # (a load again is no event then; other code's writes to a held cell come after
        # an event that runs code, which refreshes the cell)
        value, name = obs.inputs[0], key[1]
        if s.cells.get(name) == value:
            s.cells[name] = results[0]
        elif s.env.get(name) == value:
            s.env[name] = results[0]
        s.stack.append(results[0])
        s.pc += 1
        return s
    if op is not None and op.kind == "delete_deref":
        if key[2]:
            return None
        s.cells[key[1]] = UNBOUND
        s.pc += 1
        return s
    if key[0] == "DELETE_FAST":
        if key[2]:
            return None
        s.env[key[1]] = UNBOUND
        s.pc += 1
        return s
    if key[0] in ("UNBOUND_FREE",):
        return None  # always raises
    if key == ("bool",):
        t = results[0]
        if op.kind == "cond":
            return _cond_on_bool(s, t, op)
        if op.kind == "with_cleanup_finish":
            return _swallow_or_not(s, t)
        s.stack[-1] = ("not", t) if op.kind == "not" else t
        s.pc += 1
        return s
    if op.kind == "for_iter":
        done = results[1]
        exhausted = s.copy()
        if not ITERATOR_POPPED_BY_POP_ITER:
            exhausted.pop()
        exhausted.pc = op.target
        s.stack.append(results[0])
        s.pc += 1
        return Obs("decide", done, succ=(exhausted, s))
    if op.kind == "send":
        done = results[1]
        finished = s.copy()
        if PY < (3, 12):
            finished.pop(2)
        else:
            finished.pop()
        finished.stack.append(results[0])
        finished.pc = op.target
        s.pop()
        s.stack.append(results[0])
        s.pc += 1
        return Obs("decide", done, succ=(finished, s))
    if op.kind == "exc_match_jump":
        s.pop(2)
        matched = s.copy()
        matched.pc += 1
        s.pc = op.target
        return Obs("decide", results[0], succ=(matched, s))
    if op.kind == "with_cleanup_start":
        # entered normally: [exit, NULL] -> [NULL, None, res]; by an exception:
        # [exit, 3 saved, tb, value, type] -> [3 saved, NULL, tb, value, type, type, res],
        # the handler's block one lower
        if s.stack[-1] == FIN_NONE:
            del s.stack[-2]
            s.stack.extend((NONE, results[0]))
        else:
            del s.stack[-7]
            s.stack.insert(len(s.stack) - 3, FIN_NONE)
            s.stack.extend((s.stack[-1], results[0]))
            kind, handler, level = s.blocks[-1]
            s.blocks = s.blocks[:-1] + ((kind, handler, level - 1),)
        s.pc += 1
        return s
    if op.kind == "setup_with":
        s.pop()
        s.stack.append(results[0])
        s.blocks = s.blocks + (("finally", op.target, len(s.stack)),)
        s.stack.append(results[1])
        s.pc += 1
        return s
    if key[0] == "RAISE_VARARGS":
        return None
    if key[0] == "IS_OP":  # the identity of a list (which escaped): a bool
        s.pop(2)
        s.stack.append(("not", results[0]) if op.arg else results[0])
        s.pc += 1
        return s
    if key[0] == "END_ASYNC_FOR" and BLOCK_STACK:
        # StopAsyncIteration caught: the handler's block goes as at POP_EXCEPT, then the
        # async iterator below it
        if not s.blocks or s.blocks[-1][0] != "except":
            raise NotEquivalent("END_ASYNC_FOR outside a handler")
        level = s.blocks[-1][2]
        if len(s.stack) < level + 3 or level < 1:
            raise NotEquivalent("stack underflow at END_ASYNC_FOR")
        s.exc = unpart(s.stack[level + 1])
        del s.stack[level - 1:]
        s.blocks = s.blocks[:-1]
        s.pc += 1
        return s
    if op.kind == "contains":
        s.pop(2)
        s.stack.append(("not", results[0]) if op.arg else results[0])
        s.pc += 1
        return s
    popped = s.pop(op.pops)
    s.stack.extend(popped[:op.keep])
    if op.null == "below":
        s.stack.append(NULL_VALUE)
    s.stack.extend(results)
    if op.null == "above":
        s.stack.append(NULL_VALUE)
    s.pc += 1
    return s


def results_for(obs: Obs, ident) -> tuple:
    """Fresh values for the results of event number ``ident``."""
    op, key = obs.op, obs.key
    if key == ("bool",) or key[0] == "IS_OP":
        return (("t", ident, 0),)
    if key[0] == "LOAD_MAYBE_UNBOUND":
        return (("r", ident, 0),)
    if op is not None and op.kind in ("for_iter", "send"):
        return (("r", ident, 0), ("t", ident, 1))
    if op is not None and op.kind == "exc_match_jump":
        return (("t", ident, 0),)
    if op is not None and op.kind == "setup_with":
        return (("r", ident, 0), ("r", ident, 1))
    if op is None:
        return ()
    if key[0] == "CALL" and any(v[0] == "global" and v[1].startswith("__compiled_fn_")
                                for v in obs.inputs[:2]):
        return (("gout", ident, 0),)  # the tuple a compiled graph returns
    n = op.pushes - op.keep
    out = []
    for k in range(max(n, 0)):
        last = k == n - 1
        out.append(("t" if (op.bool_result and last) else "r", ident, k))
    return tuple(out)


def raise_into(s: Side, exc):
    """``s`` raising ``exc`` at its current instruction: the side in the handler
    that catches it, or an ``Obs("raise")`` when it leaves the function."""
    if not BLOCK_STACK:
        h = s.prog.handler(s.pc)
        if h is None:
            return Obs("raise", exc, side=s)
        target, depth, lasti = h
        if depth > len(s.stack):
            raise NotEquivalent("handler depth above the stack")
        del s.stack[depth:]
        if lasti:
            s.stack.append(LASTI)
        s.stack.append(exc)
        s.pc = target
        return s
    blocks = list(s.blocks)
    while blocks:
        kind, handler, level = blocks.pop()
        if kind == "except":
            if len(s.stack) < level + 3:
                raise NotEquivalent("stack underflow while unwinding")
            s.exc = unpart(s.stack[level + 1])
            del s.stack[level:]
            continue
        del s.stack[level:]
        blocks.append(("except", None, level))
        prev = s.exc
        s.stack.extend((("part", "tb", prev), ("part", "value", prev), ("part", "type", prev)))
        s.exc = exc
        s.stack.extend((("part", "tb", exc), ("part", "value", exc), ("part", "type", exc)))
        s.blocks = tuple(blocks)
        s.pc = handler
        return s
    return Obs("raise", exc, side=s)
