"""Is the recompiled code the same program as Dynamo's? (straight-line code)

Source can rarely reproduce Dynamo's exact bytecode (it shuffles the stack with
COPY/SWAP and builds lists nobody names), so unveil compares *effects*: a small
abstract interpreter runs both code objects symbolically and records, in
order, every call (callee and arguments as expression trees), every store
outside the frame's locals, and the returned value. Local variables are
transparent (a load yields the value last stored), except that loading or
deleting an unbound local is itself an effect (it raises). Two code objects
with the same effect list compute the same thing.

Anything the interpreter does not model -- jumps, exception handling, nested
functions, unknown opcodes -- raises :class:`Unverifiable`, and the caller
keeps Dynamo's own code: a missed opportunity, never a wrong program.
"""
import dis


class Unverifiable(Exception):
    pass


class _Seq:
    """A list/tuple/dict under construction (mutable: LIST_EXTEND changes it in place)."""

    def __init__(self, kind, items):
        self.kind = kind
        self.items = list(items)


_NULL = ("null",)
_PURE_BINARY = {"BINARY_SUBSCR": "subscr", "COMPARE_OP": "cmp", "IS_OP": "is",
                "CONTAINS_OP": "in", "BINARY_OP": "binop"}
_SKIP = {"RESUME", "NOP", "CACHE", "EXTENDED_ARG", "PRECALL", "MAKE_CELL", "COPY_FREE_VARS"}


def freeze(v):
    if isinstance(v, _Seq):
        return (v.kind,) + tuple(freeze(x) for x in v.items)
    if isinstance(v, tuple):
        return tuple(freeze(x) for x in v)
    return v


def effects(code) -> list:
    """The ordered effects of straight-line ``code`` (see module docstring)."""
    nargs = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4) + bool(code.co_flags & 8)
    env = {n: ("arg", n) for n in code.co_varnames[:nargs]}
    for n in code.co_cellvars + code.co_freevars:
        env.setdefault(n, ("cell", n))
    stack, out = [], []
    kw = ()

    def pop(n=1):
        if len(stack) < n:
            raise Unverifiable("stack underflow")
        items = stack[len(stack) - n:]
        del stack[len(stack) - n:]
        return items

    for ins in dis.get_instructions(code):
        op, arg, val = ins.opname, ins.arg, ins.argval
        if op in _SKIP:
            continue
        if op == "PUSH_NULL":
            stack.append(_NULL)
        elif op == "LOAD_GLOBAL":
            if arg is not None and arg & 1 and "NULL" in ins.argrepr:
                stack.append(_NULL)
            stack.append(("global", val))
        elif op in ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_CLOSURE"):
            if val not in env:
                out.append(("unbound", val))
                raise Unverifiable("load of unbound local %s" % val)
            stack.append(env[val])
        elif op == "LOAD_CONST":
            stack.append(("const", type(val).__name__, repr(val)))
        elif op == "RETURN_CONST":
            out.append(("return", ("const", type(val).__name__, repr(val))))
            break
        elif op == "LOAD_ATTR":
            (obj,) = pop()
            stack.append(("attr", freeze(obj), val))
        elif op == "LOAD_METHOD":
            (obj,) = pop()
            stack.append(_NULL)
            stack.append(("attr", freeze(obj), val))
        elif op in ("STORE_FAST", "STORE_DEREF"):
            (v,) = pop()
            env[val] = v
            if op == "STORE_DEREF":
                out.append(("store_cell", val, freeze(v)))
        elif op in ("DELETE_FAST", "DELETE_DEREF"):
            if val not in env:
                raise Unverifiable("delete of unbound local %s" % val)
            del env[val]
        elif op == "STORE_ATTR":
            obj, v = pop(2)[::-1]
            out.append(("store_attr", freeze(obj), val, freeze(v)))
        elif op == "STORE_SUBSCR":
            v, obj, key = pop(3)
            out.append(("store_subscr", freeze(obj), freeze(key), freeze(v)))
        elif op == "DELETE_SUBSCR":
            obj, key = pop(2)
            out.append(("del_subscr", freeze(obj), freeze(key)))
        elif op in ("STORE_GLOBAL", "DELETE_GLOBAL"):
            v = pop()[0] if op == "STORE_GLOBAL" else None
            out.append((op.lower(), val, freeze(v)))
        elif op == "POP_TOP":
            pop()
        elif op == "COPY":
            if len(stack) < arg:
                raise Unverifiable("stack underflow")
            stack.append(stack[-arg])
        elif op == "SWAP":
            if len(stack) < arg:
                raise Unverifiable("stack underflow")
            stack[-1], stack[-arg] = stack[-arg], stack[-1]
        elif op in ("BUILD_LIST", "BUILD_TUPLE", "BUILD_SET"):
            stack.append(_Seq(op[6:].lower(), pop(arg) if arg else []))
        elif op == "BUILD_MAP":
            stack.append(_Seq("map", pop(2 * arg) if arg else []))
        elif op == "BUILD_CONST_KEY_MAP":
            items = pop(arg + 1)
            stack.append(_Seq("map", items))
        elif op == "BUILD_SLICE":
            stack.append(("slice",) + tuple(freeze(x) for x in pop(arg)))
        elif op in ("LIST_EXTEND", "LIST_APPEND", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE", "SET_ADD"):
            (v,) = pop()
            target = stack[-arg] if len(stack) >= arg else None
            if not isinstance(target, _Seq):
                raise Unverifiable("%s on an unknown container" % op)
            target.items.append(("*", freeze(v)) if op in ("LIST_EXTEND", "SET_UPDATE") else freeze(v))
        elif op == "LIST_TO_TUPLE":
            (v,) = pop()
            stack.append(("tuple_of", freeze(v)))
        elif op in _PURE_BINARY:
            a, b = pop(2)
            stack.append((_PURE_BINARY[op], ins.argrepr, freeze(a), freeze(b)))
        elif op.startswith("UNARY_"):
            (a,) = pop()
            stack.append((op, freeze(a)))
        elif op == "UNPACK_SEQUENCE":
            (seq,) = pop()
            seq = freeze(seq)
            stack.extend(("item", seq, k) for k in reversed(range(arg)))
        elif op == "KW_NAMES":
            kw = val
        elif op == "CALL":
            args = pop(arg)
            first, fn = pop(2)
            if first is _NULL:
                callee, args = fn, args
            elif fn is _NULL:  # 3.11: NULL, callable, args... or callable, self, args
                callee, args = first, args
            else:
                callee, args = first, [fn] + args
            node = ("call", len(out), freeze(callee), tuple(freeze(a) for a in args), tuple(kw))
            out.append(node)
            kw = ()
            stack.append(("result", len(out) - 1))
        elif op == "CALL_FUNCTION_EX":
            kwargs = pop()[0] if arg & 1 else None
            args, fn = pop(2)[::-1]
            if stack and stack[-1] is _NULL:
                stack.pop()
            out.append(("call_ex", len(out), freeze(fn), freeze(args), freeze(kwargs)))
            stack.append(("result", len(out) - 1))
        elif op == "RETURN_VALUE":
            (v,) = pop()
            out.append(("return", freeze(v)))
            break
        else:
            raise Unverifiable("opcode %s is not modelled" % op)
    return out


def same_effects(new, like) -> None:
    """Raise Unverifiable unless ``new`` and ``like`` have the same effects."""
    a, b = effects(new), effects(like)
    if a != b:
        k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        raise Unverifiable("effect %d differs: Dynamo's %s, recompiled %s"
                           % (k, b[k] if k < len(b) else "<none>", a[k] if k < len(a) else "<none>"))
