"""Translation validation: is the recompiled code the same program as the original?

Every text the decompiler hands out is compiled back and checked here against
the code object it came from; a text that cannot be proved is refused.

Two levels:

1. **Equal bytecode.** The normalized instruction streams of DESIGN.md section 3,
   plus the exception table, are identical: nothing more to prove.
2. **The same events.** Otherwise both code objects run side by side
   symbolically (a product program). Each side runs its *pure* instructions --
   locals, constants, stack shuffles, tuples, jumps -- on its own; everything
   else is an *event* (an operation that may run user code, touch state outside
   the frame, or raise), described by the operation, its argument and the values
   it reads, and the exception being handled at the time. At each event both
   sides must perform the same operation on the same values; its results get one
   shared name. At each branch both sides must test the same value; both then
   follow the same outcome. Both must end the same way (return the same value,
   raise the same exception). By induction over the events, two code objects run
   on the same inputs perform the same operations on the same values in the same
   order, and end alike.

   Every event may raise; both sides then continue in their exception handlers
   (3.11+: the exception table; <=3.10: the block stack) with the same exception.

   Loops and joins: the product state is kept per pair of program points; on a
   second arrival the states are joined (values become variables; what stays
   known is which positions on both sides hold the *same* value, and constants)
   until nothing changes. A join only forgets facts, so the proof stays sound; it
   terminates because facts can only be forgotten finitely often.

   CELLS. A cell is read and written like a local while no other code holds it.
   Once a closure holding it has been made (``escaped``), other code may read or
   change it, but only while an event runs code other than the interpreter's
   (:func:`.proof_product.runs_code`: a call, an operator, a suspended ``yield``; not a global's
   load or making a function): such an event also reads every held cell this frame
   wrote since the last one (both sides must have written the same), and afterwards
   each held cell holds a fresh value shared by both sides (:func:`.proof_values.world_value`).
   A frame's writes to held cells are compared again where it returns or raises.
   A cell a closure's code never reads is not part of the closure (the compiler
   keeps cells for references it then optimized away).

What the model trusts: locals are private to the frame (a call that reads its
caller's frame -- ``locals()``, ``vars()``, ``dir()``, ``eval``/``exec`` without
namespaces, zero-argument ``super()`` -- is given the whole frame as input); an
operation on the same values in the same state of the world behaves the same.
Anything the model does not know (an unknown instruction, a value it cannot follow
into 3.8's finally subroutines, a state too large) makes the proof fail: unproved is
refused.

Where each part lives, each module importing only those above it in this list:

* :mod:`.opsem` -- what each raw instruction does (the proof's own reading of ``dis``);
* :mod:`.proof_values` -- the symbolic values and the tests on them;
* :mod:`.proof_program` -- a code object read for the proof (:class:`Program`: the
  instructions normalised, handlers, successors, joins, live locals) and one side's
  state (:class:`Side`);
* :mod:`.proof_lists` -- lists no other code has seen: built, filled and read exactly;
* :mod:`.proof_interpreter` -- one side run up to its next observation (level 2's
  pure instructions; events, branches, returns, raises, joins);
* :mod:`.proof_product` -- both sides matched and joined (:class:`Prover`);
* this module -- the entry points: :func:`check` (level 1, then level 2; nested code
  objects one by one), :func:`prove_text` (a text compiled back by :mod:`.recompile`,
  then checked). :class:`~.errors.NotEquivalent` says why a proof failed.
"""
import types
from typing import Optional

from .errors import NotEquivalent
from .opsem import BLOCK_STACK
from .proof_product import Prover
from .proof_program import DYNAMO_GLOBALS, Program, _dynamo_or_builtin
from .proof_values import const
from .recompile import compile_back


def _collect_codes(v, out):
    if isinstance(v, tuple):
        if v and v[0] == "code":
            out.add(v)
            return
        for x in v:
            if isinstance(x, tuple):
                _collect_codes(x, out)


# ---------------------------------------------------------------- entry points

_SIGNATURE = ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount")
# flags that change what the code does (generator, varargs, ...); CO_NESTED and
# CO_NOFREE are bookkeeping
_FLAG_MASK = 0x0004 | 0x0008 | 0x0020 | 0x0080 | 0x0100 | 0x0200 | 0x0002


def same_code(a, b) -> bool:
    """Level 1: the same instructions on the same constants, names and exception
    table (line numbers aside), nested code objects alike."""
    if (a.co_code != b.co_code or a.co_names != b.co_names or a.co_varnames != b.co_varnames
            or a.co_cellvars != b.co_cellvars or a.co_freevars != b.co_freevars
            or getattr(a, "co_exceptiontable", None) != getattr(b, "co_exceptiontable", None)
            or len(a.co_consts) != len(b.co_consts)):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if isinstance(x, types.CodeType):
            if not (isinstance(y, types.CodeType) and x.co_name == y.co_name
                    and getattr(x, "co_qualname", None) == getattr(y, "co_qualname", None)
                    and x.co_flags == y.co_flags and x.co_argcount == y.co_argcount
                    and x.co_posonlyargcount == y.co_posonlyargcount
                    and x.co_kwonlyargcount == y.co_kwonlyargcount and same_code(x, y)):
                return False
        elif const(x, []) != const(y, []):
            return False
    return True


def prove_text(code, text: str, consts=None, def_name: Optional[str] = None,
               fixed_global=None) -> None:
    """Compile ``text`` (decompiled from ``code``) and prove it equivalent to ``code``;
    raise :class:`NotEquivalent` saying why not."""
    try:
        new, compiled_qualname = compile_back(text, code, "<unveil>", def_name, consts)
    except (SyntaxError, ValueError) as e:
        raise NotEquivalent("the text does not compile: %s" % e) from None
    except Exception as e:  # noqa: BLE001 - LayoutError and kin: not the same function
        raise NotEquivalent(str(e)) from None
    check(code, new, new_prefix=compiled_qualname, fixed_global=fixed_global)


def check(like, new, new_prefix=None, budget=None, fixed_global=None):
    """Raise :class:`NotEquivalent` unless ``new`` is proved to do what ``like`` does.

    ``new_prefix``: the qualified name ``new`` was compiled under when it differs
    from its ``co_qualname`` (the names of the functions it defines start with it).
    ``fixed_global(name)``: globals known never to change while the code runs and
    always to exist; loading one is no event (default: Dynamo's, :data:`DYNAMO_GLOBALS`)."""
    _check_signature(like, new)
    if same_code(like, new):
        return
    if fixed_global is None and any(n.startswith(DYNAMO_GLOBALS) for n in like.co_names):
        fixed_global = _dynamo_or_builtin
    a = Program(like, qualname_prefix(like), fixed_global)
    b = Program(new, new_prefix or qualname_prefix(new), fixed_global)
    pairs = _same_instructions(a, b)
    if pairs is None:
        if budget is None:
            # (steps per instruction: under 2 in the stdlib, under 10 in 1,500 fuzzed functions;
            # a step costs up to ~0.1 ms, so a proof that needs more is refused, not run for seconds)
            budget = 2000 + 10 * (len(a.ops) + len(b.ops))
        Prover(a, b, budget, _check_nested).run()  # (nested code objects are proved as they are met)
        return
    _check_nested(a, b, [(p, p) for p in pairs], fixed_global)


def _same_instructions(a: Program, b: Program):
    """The nested code objects to compare when ``a`` and ``b`` are the same instructions
    (locals and constants by name and value, exception handlers alike), else None."""
    # (no-ops aside: a jump to one goes on at the next instruction; none raises)
    keep_a, at_a = _without_nops(a)
    keep_b, at_b = _without_nops(b)
    if len(keep_a) != len(keep_b):
        return None
    pairs = set()
    for pa, pb in zip(keep_a, keep_b):
        x, y = a.ops[pa][1], b.ops[pb][1]
        if x.target is not None and y.target is not None:
            x, y = x._replace(target=at_a[x.target]), y._replace(target=at_b[y.target])
        if x.kind in ("const", "return_const") and x.kind == y.kind:
            # by value and type (1, 1.0 and True are equal as Python values)
            vx, vy = a.value_of_const(x.arg), b.value_of_const(y.arg)
            if vx != vy:
                return None
            _collect_codes(vx, pairs)
        elif x != y:
            return None
        if not BLOCK_STACK:
            ha, hb = a.handler(pa), b.handler(pb)
            if (ha is None) != (hb is None) or ha is not None and (
                    (at_a[ha[0]],) + ha[1:] != (at_b[hb[0]],) + hb[1:]):
                return None
    if a.prefix != b.prefix and any(x.kind == "event" and x.key[0] in ("MAKE_FUNCTION", "STORE_NAME")
                                    for _, x in a.ops):
        return None  # qualified names passed as constants: compared relative, by the proof
    return pairs


def _without_nops(prog):
    """(the indices of ``prog``'s instructions that are no no-op; for every index, the
    position among those of the instruction that runs next from there)."""
    keep = [pc for pc, (_, op) in enumerate(prog.ops) if op.kind != "nop"]
    at = [0] * (len(prog.ops) + 1)
    k = len(keep)
    for pc in range(len(prog.ops), -1, -1):
        if pc < len(prog.ops) and prog.ops[pc][1].kind != "nop":
            k -= 1
        at[pc] = k
    return keep, at


def qualname_prefix(code) -> Optional[str]:
    """The qualified name the functions ``code`` defines are named under
    (``f`` in ``f.<locals>.g``): 3.11+ ``co_qualname``; before, read from the
    qualified names ``code`` passes to MAKE_FUNCTION (a class body: its ``__qualname__``)."""
    if hasattr(code, "co_qualname"):
        return code.co_qualname
    if not code.co_flags & 0x01 and code.co_name != "<module>":  # a class body
        for c in code.co_consts:
            if isinstance(c, str) and (c == code.co_name or c.endswith("." + code.co_name)):
                return c
    for c in code.co_consts:
        if isinstance(c, str) and ".<locals>." in c and c.rsplit(".<locals>.", 1)[0].endswith(code.co_name):
            return c.rsplit(".<locals>.", 1)[0]
    if code.co_name in ("<genexpr>", "<listcomp>", "<setcomp>", "<dictcomp>"):
        # (<=3.10 names what a comprehension defines without ".<locals>": ``f.<locals>.<genexpr>.<lambda>``)
        nested = {c.co_name for c in code.co_consts if isinstance(c, types.CodeType)}
        for c in code.co_consts:
            if isinstance(c, str) and "." in c and c.rsplit(".", 1)[1] in nested and (
                    c.rsplit(".", 1)[0].endswith("." + code.co_name)):
                return c.rsplit(".", 1)[0]
    return None


def _check_signature(like, new):
    for attr in _SIGNATURE:
        if getattr(like, attr) != getattr(new, attr):
            raise NotEquivalent("%s differs: %r, recompiled %r" % (attr, getattr(like, attr), getattr(new, attr)))
    if (like.co_flags & _FLAG_MASK) != (new.co_flags & _FLAG_MASK):
        raise NotEquivalent("co_flags differ: %#x, recompiled %#x" % (like.co_flags, new.co_flags))
    nargs = (like.co_argcount + like.co_kwonlyargcount
             + bool(like.co_flags & 0x04) + bool(like.co_flags & 0x08))
    if like.co_varnames[:nargs] != new.co_varnames[:nargs]:
        raise NotEquivalent("argument names differ: %r, recompiled %r" % (
            like.co_varnames[:nargs], new.co_varnames[:nargs]))
    if not set(new.co_freevars) <= set(like.co_freevars):
        # (a free variable the code never reads may be missing: the closure cell is unused)
        raise NotEquivalent("free variables differ: %r, recompiled %r" % (like.co_freevars, new.co_freevars))


def _check_nested(a: Program, b: Program, pairs, fixed_global=None):
    """Prove each pair of code values (``("code", name, k)`` of ``a`` and of ``b``) the same."""
    for (_, name, k), (_, _, j) in sorted(pairs, key=repr):
        ca = [c for c in a.codes if c.co_name == name]
        cb = [c for c in b.codes if c.co_name == name]
        if k >= len(ca) or j >= len(cb):
            raise NotEquivalent("nested code %s missing" % name)
        ca, cb = ca[k], cb[j]
        if (hasattr(ca, "co_qualname") and a.prefix and ca.co_qualname.startswith(a.prefix + ".")
                and _relative(ca.co_qualname, a.prefix) != _relative(cb.co_qualname, b.prefix)):
            # (a nested code object Dynamo took over from the user's function keeps that
            # function's qualified name, which no text compiled elsewhere can give it)
            raise NotEquivalent("nested %s: qualified names differ: %s, recompiled %s" % (
                name, ca.co_qualname, cb.co_qualname))
        try:
            check(ca, cb, fixed_global=fixed_global)
        except NotEquivalent as e:
            raise NotEquivalent("in nested %s: %s" % (name, e)) from None


def _relative(qualname, prefix):
    if prefix and qualname.startswith(prefix + "."):
        return "<self>" + qualname[len(prefix):]
    return qualname
