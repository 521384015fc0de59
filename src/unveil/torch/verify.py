"""Is the recompiled code the same program as Dynamo's? (acyclic code, path by path)

Source can rarely reproduce Dynamo's exact bytecode (it shuffles the stack with
COPY/SWAP, builds lists nobody names, spills values into locals), so unveil
compares *traces*. A small abstract interpreter runs a code object
symbolically along every path through it and records, in order, each event
that can run code or be seen from outside the frame:

* every operation that may call user code -- attribute load, subscript,
  binary/unary/compare operator, call, iteration -- with its operands as
  expression trees; its result is a reference to the event (``("result", k)``);
* every store or delete outside the frame's own locals (attributes,
  subscripts, globals, cells);
* every branch: the condition's expression and the way the path goes;
* the returned value.

Local variables are transparent (a load yields the value last stored), and so
are global loads (Dynamo's code only reads globals it installed itself --
``__compiled_fn_*``, ``__import_*``, ``__resume_at_*`` -- which nothing in
between rebinds). Constants and container displays are values; so are
constant-index reads of lists and tuples the code built itself, and of the two
containers Dynamo's code reads that are known to run no user code
(``__builtins_dict___<n>`` and the tuple a compiled graph returns).

Two code objects with the same *set of paths* compute the same thing: run both
on the same inputs; by induction over a path's events, both perform the same
operations on the same values, so both evaluate the same condition at each
branch, get the same outcome and continue along the same path.

Functions the code makes are values (their code, defaults and closure); each
nested code object that takes part in an event is then proved the same on its
own (:func:`same_nested`).

Exception handling (3.11+ exception table): an operation that records an event
inside a protected range may raise instead; that path records the event, then
``("raises",)``, and goes on in the handler with the stack cut to the handler's
depth and the exception (named by its event) on top. Only operations that
record events raise -- the same trust as above for locals and Dynamo's globals.
A path ends at a return or a (re-)raise.

Loops (backward jumps) and unknown opcodes raise :class:`Unverifiable`, and the
caller keeps Dynamo's own code: a missed opportunity, never a wrong program.
"""
import ast
import copy
import dis
import types

from ..decompiler.versions import SUPERINSTRUCTIONS, common_constant
from ..decompiler.opsem import NULL_ABOVE as _NULL_ABOVE  # (3.13+: a load's NULL goes above the value)


class Unverifiable(Exception):
    pass


class _Seq:
    """A list/tuple/set/dict the code built itself. Until it escapes (is handed to an
    operation), indexing, slicing and changing it with constant indices is modelled exactly;
    changing or reading a mutable one after it escaped is refused (the callee might have kept
    and changed it).

    An event shows a container it is the first to be handed by its items; from then on the
    container is that object, named by where it was first seen (``seen``): its items may have
    changed, and two equal containers are not one object."""

    def __init__(self, kind, items):
        self.kind = kind
        self.items = list(items)
        self.escaped = False
        self.seen = None

    def contents_known(self) -> bool:
        """Whether its items are still the ones the model holds (a tuple's always are)."""
        return self.kind == "tuple" or not self.escaped

    def mutable(self, op):
        if self.escaped or self.kind != "list":
            raise Unverifiable("%s on a %s that escaped or is not a list" % (op, self.kind))
        return self.items


def _escape(v):
    if isinstance(v, _Seq):
        v.escaped = True
        for x in v.items:
            _escape(x)
    elif isinstance(v, tuple):
        for x in v:
            _escape(x)


def _index(key):
    """The int or slice a constant key stands for, else None."""
    def const(v):
        if v[:2] == ("const", "int"):
            return int(v[2])
        if v == _NONE:
            return None
        raise ValueError
    try:
        if isinstance(key, tuple) and key[:1] == ("slice",):
            return slice(*(const(v) for v in key[1:]))
        k = const(key) if isinstance(key, tuple) else None
        return k if isinstance(k, int) else None
    except (ValueError, TypeError):
        return None


_NULL = ("null",)
_NONE = ("const", "NoneType", "None")
MAX_PATHS = 256
_SKIP = {"RESUME", "NOP", "CACHE", "EXTENDED_ARG", "PRECALL", "MAKE_CELL", "COPY_FREE_VARS", "NOT_TAKEN"}

#: operations that may run user code: (operand count, event name)
_OPERATIONS = {"BINARY_SUBSCR": (2, "subscr"), "BINARY_OP": (2, "binop"), "COMPARE_OP": (2, "compare"),
               "CONTAINS_OP": (2, "in"), "UNARY_NOT": (1, "not"), "UNARY_NEGATIVE": (1, "neg"),
               "UNARY_INVERT": (1, "invert"), "UNARY_POSITIVE": (1, "pos"), "GET_ITER": (1, "iter")}
#: conditional jumps: opname -> (jump when the condition ..., test)
_BRANCHES = {}
for _prefix in ("POP_JUMP_IF_", "POP_JUMP_FORWARD_IF_"):
    _BRANCHES.update({_prefix + "TRUE": (True, "truth"), _prefix + "FALSE": (False, "truth"),
                      _prefix + "NONE": (True, "none"), _prefix + "NOT_NONE": (False, "none")})
_JUMPS = {"JUMP_FORWARD", "JUMP_ABSOLUTE", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT",
          "POP_JUMP_BACKWARD_IF_TRUE", "POP_JUMP_BACKWARD_IF_FALSE",
          "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE"}


def _constant(value):
    """A constant; a constant tuple is the tuple of its items (the compiler folds a tuple
    display of constants into one, Dynamo may build it with BUILD_TUPLE)."""
    if type(value) is tuple:
        return _Seq("tuple", [_constant(x) for x in value])
    if isinstance(value, types.CodeType):  # proved separately, see same_nested
        return ("code", value.co_name)
    if type(value) is slice:  # 3.14 folds a slice of constants: the slice BUILD_SLICE makes
        parts = (value.start, value.stop) if value.step is None else (value.start, value.stop, value.step)
        return ("slice",) + tuple(freeze(_constant(x)) for x in parts)
    return ("const", type(value).__name__, repr(value))


def freeze(v, first_seen=None):
    """``v`` as a plain value: a container by its items, or by its name once an event has
    seen it. ``first_seen`` (event index, containers named so far) names the containers an
    event is the first to see."""
    if isinstance(v, _Seq):
        if v.seen is not None:
            return v.seen
        if first_seen is not None:
            k, named = first_seen
            v.seen = ("seen", k, len(named))
            named.append(v)
            v.escaped = True
        return (v.kind,) + tuple(freeze(x, first_seen) for x in v.items)
    if isinstance(v, tuple):
        return tuple(freeze(x, first_seen) for x in v)
    return v


class _Path:
    """One partial path: where it is, the symbolic stack and locals, and its events so far."""

    def __init__(self, pc, stack, env, events):
        self.pc, self.stack, self.env, self.events = pc, stack, env, events
        self.kw = ()
        self.done = False

    def fork(self, pc):
        stack, env = copy.deepcopy((self.stack, self.env))  # one call: aliasing survives
        other = _Path(pc, stack, env, list(self.events))
        other.kw = self.kw
        return other

    def pop(self, n=1):
        if len(self.stack) < n:
            raise Unverifiable("stack underflow")
        items = self.stack[len(self.stack) - n:]
        del self.stack[len(self.stack) - n:]
        return items

    def event(self, *ev):
        """Record an event; its result is a reference to it."""
        _escape(ev)
        first_seen = (len(self.events), [])
        self.events.append(tuple(freeze(x, first_seen) for x in ev))
        return ("result", len(self.events) - 1)

    def branch(self, cond, outcome):
        cond = freeze(cond)
        if cond[:1] == ("isnot",):  # `a is not b` taken == `a is b` not taken
            cond, outcome = ("is",) + cond[1:], not outcome
        self.events.append(("branch", cond, outcome))


def _handlers(code):
    """The exception table (3.11+) as (start, end, target, depth, lasti) tuples."""
    if not getattr(code, "co_exceptiontable", b""):
        return []
    return [(e.start, e.end, e.target, e.depth, e.lasti) for e in dis.Bytecode(code).exception_entries]


def _raise_into(exc, handler, raising):
    """Turn ``exc`` -- the path as it was before the operation that recorded event ``raising``
    ran, with that event recorded -- into the path on which the operation raises: the stack cut
    to the handler's depth, then the offset (``lasti``) and the exception. Returns the handler's
    offset, or None when the event cannot raise into the handler (a return)."""
    _, _, target, depth, lasti = handler
    last = exc.events[-1]
    if last[0] == "return":
        return None
    if last[0] == "raise":  # raising is all it does: the handler gets what it raised
        exc.events.pop()
        value = last[1]
    else:
        if last[0] == "branch":  # the truth test raised: the path took no way
            exc.events[-1] = ("truth_raises", last[1])
        exc.events.append(("raises",))
        value = ("exc", raising)
    if len(exc.stack) < depth:
        raise Unverifiable("stack underflow at a handler")
    del exc.stack[depth:]
    for v in list(exc.stack) + list(exc.env.values()):
        _escape(v)  # the operation may have kept what it was given before it raised
    if lasti:
        exc.stack.append(("lasti",))
    exc.stack.append(value)
    return target




def _push_beside_null(p, value, with_null):
    if with_null and not _NULL_ABOVE:
        p.stack.append(_NULL)
    p.stack.append(value)
    if with_null and _NULL_ABOVE:
        p.stack.append(_NULL)


def _as_read(i):
    """``i`` as the instructions this module reads: 3.13's and 3.14's superinstructions split,
    3.14's new spellings of loads and subscripts as the older ones they are."""
    op = i.opname
    if op in SUPERINSTRUCTIONS:
        first, second = SUPERINSTRUCTIONS[op]
        return [i._replace(opname=first, argval=i.argval[0]), i._replace(opname=second, argval=i.argval[1])]
    if op == "LOAD_FAST_BORROW":
        return [i._replace(opname="LOAD_FAST")]
    if op == "LOAD_SMALL_INT":
        return [i._replace(opname="LOAD_CONST")]
    if op == "BINARY_OP" and i.argrepr == "[]":
        return [i._replace(opname="BINARY_SUBSCR", argrepr="")]
    if op == "POP_ITER":
        return [i._replace(opname="POP_TOP")]
    if op in ("BINARY_SLICE", "STORE_SLICE"):
        # 3.12+: what BUILD_SLICE 2 and a subscript do (CPython builds the slice, then indexes);
        # Dynamo's copy of the user's code may have either
        return [i._replace(opname="BUILD_SLICE", arg=2, argval=2, argrepr=""),
                i._replace(opname="BINARY_SUBSCR" if op == "BINARY_SLICE" else "STORE_SUBSCR", argrepr="")]
    if op == "LOAD_COMMON_CONSTANT":
        value, builtin = common_constant(i.arg)
        if builtin is None:
            return [i._replace(opname="LOAD_CONST", argval=value)]
        return [i._replace(opname="LOAD_GLOBAL", argval=builtin, argrepr=builtin)]
    return [i]


def paths(code) -> list:
    """Every path through ``code`` as a tuple of events (see the module docstring)."""
    handlers = _handlers(code)
    ins, at = [], {}  # at: offset -> index of the first instruction kept from there on
    every = list(dis.get_instructions(code))
    raw = [i for i in every if i.opname not in _SKIP]
    cells = frozenset(code.co_cellvars + code.co_freevars)
    for k, i in enumerate(raw):
        at[i.offset] = len(ins)
        if i.opname == "KW_NAMES":
            i = i._replace(argval=code.co_consts[i.arg])  # (3.11's dis leaves its names unknown)
        if i.opname == "TO_BOOL" and k + 1 < len(raw) and raw[k + 1].opname in _BRANCHES:
            continue  # 3.13+: the conditional jump's own truth test, as it is on 3.11
        if _NULL_ABOVE and i.opname in ("LOAD_FAST", "LOAD_FAST_BORROW") and i.argval in cells:
            i = i._replace(opname="LOAD_CLOSURE")  # 3.13+ loads a cell itself (for a closure) so
        ins.extend(_as_read(i))
    following = len(ins)
    for i in reversed(every):  # a jump may land on a NOP: then on what follows it
        following = at.setdefault(i.offset, following)
    nargs = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4) + bool(code.co_flags & 8)
    env = {n: ("arg", n) for n in code.co_varnames[:nargs]}
    work, done = [_Path(0, [], env, [])], []

    def add(path):
        work.append(path)
        if len(work) + len(done) >= MAX_PATHS:
            raise Unverifiable("more than %d paths" % MAX_PATHS)

    while work:
        p = work.pop()
        ends_here = True  # False: the path went on in a handler (a raise inside a try)
        while not p.done:
            if p.pc >= len(ins):
                raise Unverifiable("falls off the end of the code")
            i = ins[p.pc]
            p.pc += 1
            before = len(p.events)
            handler = next((h for h in handlers if h[0] <= i.offset < h[1]), None)
            snapshot = p.fork(None) if handler is not None else None
            jump = _step(p, i)
            if handler is not None and len(p.events) > before:
                # the operation may raise instead: that path goes on in the handler
                if len(p.events) > before + 1:
                    raise Unverifiable("an operation with two events inside a try")
                snapshot.events = p.events[:before + 1]
                target = _raise_into(snapshot, handler, before)
                if target is not None:
                    if target not in at or target <= i.offset:
                        raise Unverifiable("a handler before the code it protects")
                    snapshot.pc = at[target]
                    add(snapshot)
                    if p.events[-1][0] == "raise":
                        ends_here = False
                        break
            if jump is None:
                continue
            target, other = jump
            if target not in at or target <= i.offset:
                raise Unverifiable("loops are not modelled (jump at offset %d)" % i.offset)
            if other is None:  # unconditional
                p.pc = at[target]
            else:
                other.pc = at[target]
                add(other)
        if ends_here:
            done.append(tuple(p.events))
    return done


def _known(obj, key):
    """Whether ``obj[key]`` indexes a list or tuple the code built with a constant int or slice."""
    return bool(obj) and isinstance(obj[0], _Seq) and obj[0].kind in ("list", "tuple") \
        and obj[0].contents_known() and bool(key) and _index(key[0]) is not None \
        and not any(isinstance(x, tuple) and x[:1] == ("*",) for x in obj[0].items)


def _pure_item(p, obj=None, key=None):
    """Whether ``obj[key]`` is a plain read of a container Dynamo knows: builtins' dict
    (``__builtins_dict___<n>``) or the tuple a compiled graph (``__compiled_fn_<n>``) returned,
    with a constant key. Such reads run no user code, so they may move past other events."""
    if not (isinstance(key, tuple) and key[:2] in (("const", "int"), ("const", "str"))):
        return False
    if isinstance(obj, tuple) and obj[:1] == ("global",):
        return obj[1].startswith("__builtins_dict")
    if isinstance(obj, tuple) and obj[:1] == ("result",):
        ev = p.events[obj[1]]
        return ev[0] == "call" and ev[1][:1] == ("global",) and ev[1][1].startswith("__compiled_fn_")
    return False


def _stores_back(p, v, name) -> bool:
    """Whether storing ``v`` into cell ``name`` puts back what the last event read from it
    (Dynamo writes such ``x = x`` stores; source has no statement for them). If so the read
    is dropped too -- unless its value is still used."""
    k = len(p.events) - 1
    if v != ("result", k) or p.events[k] != ("load_cell", name):
        return False
    if _mentions((p.stack, list(p.env.values())), v):
        return False
    p.events.pop()
    return True


def _mentions(obj, ref) -> bool:
    todo = [obj]
    while todo:
        x = todo.pop()
        if x == ref:
            return True
        if isinstance(x, _Seq):
            todo.extend(x.items)
        elif isinstance(x, (tuple, list)):
            todo.extend(x)
    return False


def _string_keyed(v) -> bool:
    """Whether ``v`` is a dict the code built, still as built, whose keys are all strings
    (a string's hash and equality run no code)."""
    return isinstance(v, _Seq) and v.kind == "map" and not v.escaped \
        and all(k[:2] == ("const", "str") for k in v.items[::2])


def _shared_keys(a, b) -> bool:
    return bool(set(a.items[::2]) & set(b.items[::2]))


def _empty_map(top) -> bool:
    """Whether ``top`` (the stack's top as a list) is an empty dict the code built that nothing
    else has seen (so nothing can have added to it)."""
    return bool(top) and _string_keyed(top[0]) and not top[0].items


def _made_with_closure(top):
    """Whether ``top`` (the stack's top as a list) holds a function MAKE_FUNCTION made with a closure
    (3.13+: SET_FUNCTION_ATTRIBUTE 8 gave it one); its last field is then the closure."""
    return bool(top) and isinstance(top[0], tuple) and (
        top[0][:1] == ("function",) and bool((top[0][2] or 0) & 8) or top[0][:3] == ("with_attribute",) + top[0][1:2] + (8,))


def _step(p, ins):
    """Execute one instruction on path ``p``. A jump returns (target offset, path): for a
    conditional jump ``p`` falls through and the returned path is the one that jumps; for an
    unconditional jump the path is None and ``p`` itself moves."""
    op, arg, val = ins.opname, ins.arg, ins.argval
    if op == "PUSH_NULL":
        p.stack.append(_NULL)
    elif op == "LOAD_GLOBAL":
        _push_beside_null(p, ("global", val), "NULL" in ins.argrepr)
    elif op in ("LOAD_FAST", "LOAD_FAST_CHECK"):
        if val not in p.env:
            raise Unverifiable("load of unbound local %s" % val)
        p.stack.append(p.env[val])
    elif op == "LOAD_CLOSURE":
        p.stack.append(("cell", val))
    elif op == "LOAD_DEREF":
        p.stack.append(p.event("load_cell", val))
    elif op == "LOAD_CONST":
        p.stack.append(_constant(val))
    elif op == "LOAD_ATTR" and val == "__closure__" and _made_with_closure(p.stack[-1:]):
        # `(lambda: x).__closure__[0]` is how source names the cell of x: a fresh function's
        # closure is a plain tuple of cells, reading it runs no code
        (fn,) = p.pop()
        _push_beside_null(p, _Seq("tuple", list(fn[-1][1:])), "NULL" in ins.argrepr)
    elif op in ("LOAD_ATTR", "LOAD_METHOD"):
        (obj,) = p.pop()
        _push_beside_null(p, p.event("attr", obj, val), op == "LOAD_METHOD" or "NULL" in ins.argrepr)
    elif op == "STORE_FAST":
        (p.env[val],) = p.pop()
    elif op == "DELETE_FAST":
        if val not in p.env:
            raise Unverifiable("delete of unbound local %s" % val)
        del p.env[val]
    elif op == "STORE_DEREF":
        (v,) = p.pop()
        if not _stores_back(p, v, val):
            p.event("store_cell", val, v)
    elif op == "STORE_ATTR":
        obj, v = p.pop(2)[::-1]
        p.event("store_attr", obj, val, v)
    elif op == "BINARY_SUBSCR" and _known(p.stack[-2:-1], p.stack[-1:]):
        obj, key = p.pop(2)
        k = _index(key)
        if isinstance(k, slice):
            p.stack.append(_Seq("list" if obj.kind == "list" else obj.kind, obj.items[k]))
        else:
            p.stack.append(obj.items[k])
    elif op == "BINARY_SUBSCR" and _pure_item(p, *p.stack[-2:]):
        p.stack.append(("item_of",) + tuple(freeze(x) for x in p.pop(2)))
    elif op == "STORE_SUBSCR" and _known(p.stack[-2:-1], p.stack[-1:]):
        v, obj, key = p.pop(3)
        items = obj.mutable(op)
        k = _index(key)
        if isinstance(k, slice):
            if not (isinstance(v, _Seq) and v.kind in ("list", "tuple")):
                raise Unverifiable("slice assignment from an unknown iterable")
            items[k] = v.items
        else:
            items[k] = v
    elif op == "DELETE_SUBSCR" and _known(p.stack[-2:-1], p.stack[-1:]):
        obj, key = p.pop(2)
        del obj.mutable(op)[_index(key)]
    elif op == "STORE_SUBSCR":
        v, obj, key = p.pop(3)
        p.event("store_subscr", obj, key, v)
    elif op == "DELETE_SUBSCR":
        p.event("del_subscr", *p.pop(2))
    elif op == "STORE_GLOBAL":
        p.event("store_global", val, *p.pop())
    elif op == "DELETE_GLOBAL":
        p.event("del_global", val)
    elif op == "POP_TOP":
        p.pop()
    elif op == "COPY":
        if len(p.stack) < arg:
            raise Unverifiable("stack underflow")
        p.stack.append(p.stack[-arg])
    elif op == "SWAP":
        if len(p.stack) < arg:
            raise Unverifiable("stack underflow")
        p.stack[-1], p.stack[-arg] = p.stack[-arg], p.stack[-1]
    elif op in ("BUILD_LIST", "BUILD_TUPLE", "BUILD_SET"):
        p.stack.append(_Seq(op[6:].lower(), p.pop(arg) if arg else []))
    elif op == "BUILD_MAP":
        p.stack.append(_Seq("map", p.pop(2 * arg) if arg else []))
    elif op == "BUILD_CONST_KEY_MAP":  # the same map as BUILD_MAP of the pairs
        *values, keys = p.pop(arg + 1)
        if not (isinstance(keys, _Seq) and keys.kind == "tuple" and len(keys.items) == arg):
            raise Unverifiable("BUILD_CONST_KEY_MAP without a tuple of keys")
        p.stack.append(_Seq("map", [x for pair in zip(keys.items, values) for x in pair]))
    elif op == "BUILD_SLICE":
        p.stack.append(("slice",) + tuple(freeze(x) for x in p.pop(arg)))
    elif op in ("DICT_UPDATE", "DICT_MERGE") and _empty_map(p.stack[-1:]):
        p.pop()  # merging a dict the code built empty (``f(**{})``) adds nothing and runs no code
    elif op in ("LIST_EXTEND", "SET_UPDATE", "LIST_APPEND", "SET_ADD", "DICT_UPDATE", "DICT_MERGE"):
        (v,) = p.pop()
        target = p.stack[-arg] if len(p.stack) >= arg else None
        if not isinstance(target, _Seq):
            raise Unverifiable("%s on an unknown container" % op)
        target.mutable(op) if target.kind == "list" else None
        if target.escaped:
            raise Unverifiable("%s on a container that escaped" % op)
        if op in ("LIST_EXTEND", "SET_UPDATE"):
            v = v.items if isinstance(v, _Seq) and v.kind in ("list", "tuple") else [("*", p.event("iter", v))]
            target.items.extend(v)
        elif op in ("LIST_APPEND", "SET_ADD"):
            target.items.append(v)  # the object itself: it may still change
        elif _string_keyed(target) and _string_keyed(v) and not _shared_keys(target, v):
            target.items.extend(v.items)  # no key twice, no key's hash runs code: the entries copied
        else:
            target.items.append(freeze(v) if op != "DICT_UPDATE" else ("**", freeze(v)))
    elif op == "MAP_ADD":  # 16+ keyword arguments: the dict built one key at a time
        key, value = p.pop(2)
        target = p.stack[-arg] if len(p.stack) >= arg else None
        if not (_string_keyed(target) and key[:2] == ("const", "str")):
            raise Unverifiable("MAP_ADD of a key that is not a string, or to an unknown dict")
        keys = target.items[::2]
        if key in keys:  # a later key replaces the earlier one's value
            target.items[2 * keys.index(key) + 1] = value
        else:
            target.items.extend([key, value])
    elif op == "LIST_TO_TUPLE":
        (v,) = p.pop()
        p.stack.append(_Seq("tuple", v.items) if isinstance(v, _Seq) and v.contents_known()
                       else ("tuple_of", freeze(v)))
    elif op == "IS_OP":
        if any(isinstance(x, _Seq) and x.seen is None for x in p.stack[-2:]):
            # a container no event has seen is known by its items, not as an object
            raise Unverifiable("identity test of a container the code built")
        p.stack.append(("isnot" if arg else "is",) + tuple(freeze(x) for x in p.pop(2)))
    elif op in _OPERATIONS:
        n, name = _OPERATIONS[op]
        p.stack.append(p.event(name, ins.argrepr, *p.pop(n)))
    elif op == "UNPACK_SEQUENCE" and isinstance(p.stack[-1:] and p.stack[-1], _Seq) \
            and p.stack[-1].kind in ("list", "tuple") and p.stack[-1].contents_known() \
            and len(p.stack[-1].items) == arg \
            and not any(isinstance(x, tuple) and x[:1] == ("*",) for x in p.stack[-1].items):
        p.stack.extend(reversed(p.pop()[0].items))
    elif op == "UNPACK_SEQUENCE":
        seq = p.event("unpack", arg, *p.pop())
        p.stack.extend(("item", seq, k) for k in reversed(range(arg)))
    elif op == "KW_NAMES":
        p.kw = val
    elif op == "TO_BOOL":  # (one a jump does not follow: ``x = not not y``)
        p.stack.append(p.event("bool", *p.pop()))
    elif op in ("CALL", "CALL_KW"):
        if op == "CALL_KW":  # 3.13+: the keyword names on top, not in KW_NAMES
            (names,) = p.pop()
            if not (isinstance(names, _Seq) and names.kind == "tuple"
                    and all(x[:2] == ("const", "str") for x in names.items)):
                raise Unverifiable("CALL_KW without a tuple of names")
            p.kw = tuple(ast.literal_eval(x[2]) for x in names.items)
        args = p.pop(arg)  # (the keyword arguments' values last, as with 3.11's KW_NAMES)
        first, fn = p.pop(2)
        if first is _NULL:
            callee = fn
        elif fn is _NULL:
            callee = first
        else:
            callee, args = first, [fn] + args
        p.stack.append(p.event("call", callee, tuple(args), tuple(p.kw)))
        p.kw = ()
    elif op == "CALL_FUNCTION_EX":
        # (3.14 always reads a keyword slot: NULL when there are no keyword arguments)
        kwargs = p.pop()[0] if arg is None or arg & 1 else None
        kwargs = None if kwargs is _NULL else kwargs
        if _NULL_ABOVE:  # 3.13+: the callable, its NULL, the arguments
            fn, null, args = p.pop(3)
            if null is not _NULL:
                raise Unverifiable("CALL_FUNCTION_EX with a self")
        else:
            fn, args = p.pop(2)
            if p.stack and p.stack[-1] is _NULL:
                p.stack.pop()
        if kwargs is None and isinstance(args, _Seq) and args.kind in ("list", "tuple") and args.contents_known() and \
                not any(isinstance(x, tuple) and x[:1] == ("*",) for x in args.items):
            p.stack.append(p.event("call", fn, tuple(args.items), ()))  # f(*[a, b]) is f(a, b)
        else:
            p.stack.append(p.event("call_ex", fn, args, kwargs))
    elif op == "MAKE_FUNCTION":  # making a function runs no code; its code is compared apart
        (code,) = p.pop()
        extras = p.pop(bin(arg).count("1")) if arg else []  # defaults, closure, ... by flag
        _escape(extras)  # the function keeps them (a default list may change under it)
        p.stack.append(("function", freeze(code), arg) + tuple(freeze(x) for x in extras))
    elif op == "SET_FUNCTION_ATTRIBUTE":  # 3.13
        value, fn = p.pop(2)
        _escape(value)
        p.stack.append(("with_attribute", freeze(fn), arg, freeze(value)))
    elif op == "PUSH_EXC_INFO":  # handler entry: the exception being handled goes on top
        (exc,) = p.pop()
        p.stack.extend([("previous_exc",), exc])
    elif op == "POP_EXCEPT":
        p.pop()
    elif op == "CHECK_EXC_MATCH":
        (typ,) = p.pop()
        if not p.stack:
            raise Unverifiable("stack underflow")
        p.stack.append(p.event("exc_match", p.stack[-1], typ))
    elif op == "RERAISE":
        p.event("raise", *p.pop())
        p.done = True
    elif op == "RAISE_VARARGS" and arg in (1, 2):
        p.event("raise", *p.pop(arg))
        p.done = True
    elif op == "RETURN_VALUE":
        p.event("return", *p.pop())
        p.done = True
    elif op == "RETURN_CONST":
        p.event("return", _constant(val))
        p.done = True
    elif op in _BRANCHES:
        jump_when, test = _BRANCHES[op]
        (cond,) = p.pop()
        if test == "none":
            cond = ("is", freeze(cond), _NONE)
        taken = p.fork(None)  # its pc is set by the caller
        p.branch(cond, not jump_when)
        taken.branch(cond, jump_when)
        return ins.argval, taken
    elif op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP"):
        jump_when = op == "JUMP_IF_TRUE_OR_POP"
        (cond,) = p.pop()
        taken = p.fork(None)
        p.branch(cond, not jump_when)
        taken.branch(cond, jump_when)
        taken.stack.append(cond)
        return ins.argval, taken
    elif op in _JUMPS:
        return ins.argval, None
    else:
        raise Unverifiable("opcode %s is not modelled" % op)
    return None


def same_effects(new, like) -> None:
    """Raise :class:`Unverifiable` unless ``new`` and ``like`` have the same set of paths
    (and their nested code objects compute the same, :func:`same_nested`)."""
    a, b = set(paths(new)), set(paths(like))
    if a == b:
        same_nested(new, like, _code_names(a))
        return
    missing = sorted(b - a, key=len)
    extra = sorted(a - b, key=len)
    if missing and extra:
        x, y = missing[0], extra[0]
        k = next((k for k, (u, v) in enumerate(zip(x, y)) if u != v), min(len(x), len(y)))
        raise Unverifiable("event %d of a path differs: Dynamo's %s, recompiled %s"
                           % (k, x[k] if k < len(x) else "<end>", y[k] if k < len(y) else "<end>"))
    raise Unverifiable("Dynamo's code has %d paths the recompiled code lacks, and %d the other way"
                       % (len(missing), len(extra)))


def _loaded_codes(code) -> dict:
    """``co_name`` -> the code object ``code`` loads under that name, or None when it loads two
    (Dynamo keeps the original's constants, used or not: only loaded ones count)."""
    out = {}
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_CONST", "RETURN_CONST") and isinstance(ins.argval, types.CodeType):
            name = ins.argval.co_name
            out[name] = ins.argval if out.get(name, ins.argval) is ins.argval else None
    return out


def _code_names(paths_) -> set:
    """The ``co_name`` of every code object that takes part in an event of ``paths_``."""
    names, todo = set(), [ev for path in paths_ for ev in path]
    while todo:
        v = todo.pop()
        if isinstance(v, tuple):
            if len(v) == 2 and v[0] == "code":
                names.add(v[1])
            else:
                todo.extend(v)
    return names


def same_nested(new, like, names) -> None:
    """Raise :class:`Unverifiable` unless the code objects called ``names`` (functions and
    comprehensions whose functions take part in the events; paths name them by ``co_name``)
    can stand for each other in ``new`` and ``like``: the same layout and the same paths of
    effects, or identical normalized bytecode (code with loops, such as a generator expression)."""
    if not names:
        return
    from unveil.decompiler.measure import normalized
    from unveil.decompiler.recompile import LayoutError, check_layout
    mine, theirs = _loaded_codes(new), _loaded_codes(like)
    if any(mine.get(n) is None or theirs.get(n) is None for n in names):
        raise Unverifiable("the nested code objects differ (or two share a name)")
    for name in names:
        code = theirs[name]
        try:
            check_layout(mine[name], code)
        except LayoutError as exc:
            raise Unverifiable("nested %s: %s" % (name, exc)) from None
        try:
            same_effects(mine[name], code)
        except Unverifiable:
            if normalized(mine[name]) != normalized(code):
                raise
