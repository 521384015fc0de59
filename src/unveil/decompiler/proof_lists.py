"""Lists a frame built that no other code has seen yet: their items are known, so
building, filling and reading one runs no code (:func:`_list_step`); where one is handed
to an operation, or two paths join, it is written out and becomes an opaque object
(:func:`escape`, :func:`_pair_lists`).

Used by :mod:`.proof_interpreter` (one side's steps) and :mod:`.proof_product` (events
and joins).
"""
import ast

from .proof_program import Side
from .proof_values import ATOMS, GROUND, NONE, _walk, tuple_value


def _has_list(values) -> bool:
    return any(isinstance(v, tuple) and v and (v[0] == "L" or _has_list(v[1:])) for v in values)


def _int_index(v, n):
    """The index a constant int ``v`` denotes in a sequence of ``n`` items, else None."""
    if v[:2] != ("c", "int"):
        return None
    k = int(v[2])
    if -n <= k < n:
        return k % n
    return None


def _const_key(v, n):
    """The int index (within ``n`` items) or slice a constant ``v`` denotes, else None."""
    if v[0] == "slice":
        parts = []
        for p in v[1:]:
            if p == NONE:
                parts.append(None)
            elif p[:2] == ("c", "int"):
                parts.append(int(p[2]))
            else:
                return None
        return slice(*parts)
    return _int_index(v, n)


def _items(v):
    """The items of a tuple or list whose items are all known, else None."""
    if v[0] == "tuple":
        items = list(v[1:])
    elif v[:2] == ("c", "tuple"):
        items = list(v[2])
    else:
        return None
    return items


def _list_step(s: Side, op) -> bool:
    """Do ``op`` in place when it only builds, fills or reads a list that has not escaped,
    or reads a known tuple (no code runs); return whether it did."""
    name = op.key[0] if op.key else None
    st = s.stack
    if name == "BUILD_LIST":
        items = s.pop(op.pops)
        lid = ("L", s.prog.fresh_list())
        s.lists[lid] = items
        st.append(lid)
    elif name in ("LIST_APPEND", "LIST_EXTEND") and len(st) >= op.deep and st[-op.deep] in s.lists:
        target = s.lists[st[-op.deep]]
        if name == "LIST_APPEND":
            target.append(st[-1])
        else:
            got = _items(st[-1]) if st[-1][0] != "L" else s.lists.get(st[-1])
            if got is None:
                return False
            target.extend(got)
        st.pop()
    elif name == "STORE_SUBSCR" and len(st) >= 3 and st[-2] in s.lists:
        items = s.lists[st[-2]]
        k = _const_key(st[-1], len(items))
        if k is None:
            return False
        if isinstance(k, slice):
            new = s.lists.get(st[-3]) if st[-3][0] == "L" else _items(st[-3])
            if new is None or (k.step not in (None, 1) and len(range(*k.indices(len(items)))) != len(new)):
                return False
            items[k] = list(new)
        else:
            items[k] = st[-3]
        s.pop(3)
    elif name == "DELETE_SUBSCR" and len(st) >= 2 and st[-2] in s.lists:
        items = s.lists[st[-2]]
        k = _const_key(st[-1], len(items))
        if k is None:
            return False
        del items[k]
        s.pop(2)
    elif (name == "BINARY_SUBSCR" and len(st) >= 2 and st[-2][0] == "global"
          and st[-2][1].startswith("__builtins_dict___") and st[-1][:2] == ("c", "str")):
        # Dynamo reads builtins from a dict of its own: the builtin, fixed like its globals
        key = ast.literal_eval(s.pop(2)[1][2])
        st.append(("global", key))
    elif name == "BINARY_SUBSCR" and len(st) >= 2 and st[-2][0] == "gout" and st[-1][:2] == ("c", "int"):
        # an item of the tuple a compiled graph returned: no code runs
        item = ("gitem",) + tuple(s.pop(2))
        st.append(item)
    elif name == "BINARY_SUBSCR" and len(st) >= 2:
        seq = s.lists.get(st[-2]) if st[-2][0] == "L" else _items(st[-2])
        k = None if seq is None else _const_key(st[-1], len(seq))
        if k is None:
            return False
        is_list = st[-2][0] == "L"
        s.pop(2)
        if not isinstance(k, slice):
            st.append(seq[k])
        elif is_list:  # a new list
            lid = ("L", s.prog.fresh_list())
            s.lists[lid] = seq[k]
            st.append(lid)
        else:
            st.append(tuple_value(seq[k]))
    elif (name == "LIST_TO_TUPLE" or op.key == ("CALL_INTRINSIC_1", 6, 1, 1)) and st and st[-1] in s.lists:
        st[-1] = tuple_value(s.lists[st[-1]])
    elif name == "UNPACK_SEQUENCE" and st:
        seq = s.lists.get(st[-1]) if st[-1][0] == "L" else _items(st[-1])
        if seq is None or len(seq) != op.pushes:
            return False
        s.pop()
        st.extend(reversed(seq))
    else:
        return False
    s.pc += 1
    return True


def escape(side: Side, values, tag):
    """``values`` with every list of ``side`` in them written out as its items (each
    list numbered by first appearance, so aliasing shows), and those lists made opaque
    objects (``(tag, k)``) from here on: the operation they are handed to may keep
    them, change them, compare their identity."""
    order = []
    written = tuple(_written_out(v, side, order) for v in values)
    if order:
        mapping = {lid: tag + (k,) for k, lid in enumerate(order)}
        _rename_lists(side, mapping)
    return written


# The recursive walks below are module functions taking their state as arguments: a nested
# function that calls itself is a reference cycle (function -> cell -> function), and the
# proof makes thousands of them per decompile for the cyclic collector to find.
def _written_out(v, side: Side, order: list):
    if not isinstance(v, tuple) or not v:
        return v
    if v[0] == "L":
        if v in order:
            return ("listref", order.index(v))
        order.append(v)
        return ("list", order.index(v)) + tuple(_written_out(x, side, order) for x in side.lists.get(v, ()))
    if v[0] in ATOMS or v[0] in GROUND:
        return v
    return tuple(_written_out(x, side, order) if isinstance(x, tuple) else x for x in v)


def _lists_written(side: Side, values) -> list:
    """The lists ``escape`` would write out for ``values``, without changing ``side``."""
    copy = side.copy()
    return [v for v in _walk(escape(copy, values, ("esc", "probe"))) if v[0] == "list"]


def _lists_in_order(side: Side, values) -> list:
    """The ids of ``side``'s lists reachable from ``values``, by first appearance."""
    order = []

    def visit(v):
        if not isinstance(v, tuple) or not v:
            return
        if v[0] == "L":
            if v not in order:
                order.append(v)
                for x in side.lists.get(v, ()):
                    visit(x)
            return
        if v[0] not in ATOMS and v[0] not in GROUND:
            for x in v:
                visit(x)

    for v in values:
        visit(v)
    return order


def _flat_items(side: Side, lid):
    """The items of list ``lid`` when none of them is (or holds) a list, else None."""
    items = tuple(side.lists.get(lid, ()))
    if any(v[0] == "L" for v in _walk(items)):
        return None
    return items


def _pair_lists(a: Side, b: Side, va, vb, tag):
    """At a join where the two sides hold different lists (one made a list that the
    other makes later, or holds one the other dropped), each list of ``a`` is paired
    with a list of ``b`` holding the same items (neither holding a list): nothing
    outside the frame has seen either, so one is as good as the other, and the pair
    becomes one opaque object. A list left without a partner becomes an object
    only its own side knows: any later use of it must be matched by the other side,
    which it cannot be, so the proof then fails."""
    oa, ob = _lists_in_order(a, va), _lists_in_order(b, vb)
    free = [(lid, _flat_items(b, lid)) for lid in ob]
    ma, mb = {}, {}
    for lid in oa:
        items = _flat_items(a, lid)
        if items is None:
            continue
        for k, (other, its) in enumerate(free):
            if its == items:
                ma[lid] = mb[other] = tag + (len(ma),)
                del free[k]
                break
    for side, order, mapping, who in ((a, oa, ma, "a"), (b, ob, mb, "b")):
        for k, lid in enumerate(order):
            if lid not in mapping:
                mapping[lid] = tag + (who, k)
        _rename_lists(side, mapping)
        side.lists = {}


def _renamed(v, mapping):
    if not isinstance(v, tuple) or not v:
        return v
    if v[0] == "L":
        return mapping.get(v, v)
    if v[0] in ATOMS or v[0] in GROUND:
        return v
    return tuple(_renamed(x, mapping) if isinstance(x, tuple) else x for x in v)


def _rename_lists(side: Side, mapping):
    side.stack = [_renamed(v, mapping) for v in side.stack]
    side.env = {n: _renamed(v, mapping) for n, v in side.env.items()}
    side.cells = {n: _renamed(v, mapping) for n, v in side.cells.items()}
    side.exc = _renamed(side.exc, mapping)
    side.lists = {lid: [_renamed(x, mapping) for x in items] for lid, items in side.lists.items()
                  if lid not in mapping}
