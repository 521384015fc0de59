"""Untrusted input: the checks between a code object's data and the text unveil hands out.

A code object is data, and ``code.replace`` or a crafted ``.pyc`` can put anything in it:
a local variable named ``x = 1; import os; y``, an attribute name holding a newline, a
keyword as a name, a constant whose type has its own ``__repr__``. Every such string
ends up in the text through the final ``ast``, so the tree is checked in one place,
:func:`check_node` on each node, right before it becomes text (``emit.to_source``): what is not an
identifier, a literal of a type marshal can write, or a field ``ast.unparse`` writes
safely, is refused with :class:`UnsafeInput`.

:func:`boundary` is the other half: whatever goes wrong inside the decompiler reaches
the caller as a ``DecompilationError`` naming the function (and the instruction where
one was being read), with the original exception as ``__cause__``.
"""
import ast
import contextlib
import dis
import keyword
import types
import unicodedata

from .disassembly import get_instructions
from .errors import DecompilationError, UnsafeInput
from .flow import JUMP_OPCODES, NO_FALL_THROUGH
from .function import Context
from .stream import Instr

# -- names ------------------------------------------------------------------


def name_problem(name, attribute=False):
    """Why ``name`` cannot be written as a name in source (None if it can)."""
    if type(name) is not str:
        return "not a string but %s" % type(name).__name__
    if not name.isidentifier():
        return "not an identifier"
    if keyword.iskeyword(name):
        return "a keyword"
    # ``__debug__`` in source is a constant, never a name lookup (and cannot be bound)
    if name == "__debug__" and not attribute:
        return "reserved"
    # the parser reads identifiers NFKC-normalized: two names of the code object
    # would become one variable of the source
    if not name.isascii() and unicodedata.normalize("NFKC", name) != name:
        return "not NFKC-normalized (source would read it as %r)" % unicodedata.normalize("NFKC", name)
    return None


def check_name(name, what="name", function=None):
    """Raise :class:`UnsafeInput` unless ``name`` can be written as an identifier."""
    problem = name_problem(name)
    if problem is not None:
        raise UnsafeInput("refusing %s %s: %s" % (what, _shown(name), problem), function)


def _shown(value, limit=80):
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# -- constants --------------------------------------------------------------

#: the types a constant in marshal'd code can have (``code`` never becomes a literal);
#: checked by exact type, so no ``__repr__`` of another type writes into the text
LITERAL_TYPES = frozenset({type(None), bool, int, float, complex, str, bytes, type(Ellipsis)})
_CONTAINERS = (tuple, frozenset)


def constant_problem(value):
    """Why ``value`` cannot be written as a literal (None if it can). Iterative:
    a crafted constant may nest tuples to any depth."""
    todo = [value]
    while todo:
        v = todo.pop()
        t = type(v)
        if t in _CONTAINERS:
            todo.extend(v)
        elif t not in LITERAL_TYPES:
            return "a constant of type %s.%s, which marshal cannot write" % (t.__module__, t.__qualname__)
    return None


# -- the tree ---------------------------------------------------------------

_IDENT, _OPT_IDENT, _IDENTS, _DOTTED, _OPT_DOTTED, _ATTR = range(6)

#: (node type name, field) -> what the field may hold; every other field of a node must
#: be a node, a list of nodes (or None), or None
_NAME_FIELDS = {
    ("Name", "id"): _IDENT, ("Attribute", "attr"): _ATTR, ("arg", "arg"): _IDENT,
    ("keyword", "arg"): _OPT_IDENT, ("FunctionDef", "name"): _IDENT,
    ("AsyncFunctionDef", "name"): _IDENT, ("ClassDef", "name"): _IDENT,
    ("ExceptHandler", "name"): _OPT_IDENT, ("alias", "name"): _DOTTED,
    ("alias", "asname"): _OPT_IDENT, ("ImportFrom", "module"): _OPT_DOTTED,
    ("Global", "names"): _IDENTS, ("Nonlocal", "names"): _IDENTS,
    ("MatchAs", "name"): _OPT_IDENT, ("MatchStar", "name"): _OPT_IDENT,
    ("MatchMapping", "rest"): _OPT_IDENT, ("MatchClass", "kwd_attrs"): _IDENTS,
    ("TypeVar", "name"): _IDENT, ("ParamSpec", "name"): _IDENT, ("TypeVarTuple", "name"): _IDENT,
}

#: (node type name, field) -> the values ``ast.unparse`` writes safely
_FLAG_FIELDS = {
    ("FormattedValue", "conversion"): (-1, ord("s"), ord("r"), ord("a")),
    ("Interpolation", "conversion"): (-1, ord("s"), ord("r"), ord("a")),
    ("comprehension", "is_async"): (0, 1),
    ("AnnAssign", "simple"): (0, 1),
    ("Constant", "kind"): (None, "u"),
    ("MatchSingleton", "value"): (None, True, False),
    ("Import", "is_lazy"): (None, 0, 1), ("ImportFrom", "is_lazy"): (None, 0, 1),  # (3.15)
}

MAX_IMPORT_LEVEL = 256  # ``from ....x import y``: the dots are written out one by one


def check_node(node, where):
    """Raise :class:`UnsafeInput` unless every name, constant and flag of ``node`` is one that
    unparsing writes as itself -- the one check between the data of a code object and text
    (``emit._finish`` runs it on every node of the finished tree; ``where``: the function
    holding ``node``). Returns
    (the function its children are in, its children in ``ast.iter_child_nodes``' order)."""
    plan = _PLANS.get(type(node))
    if plan is None:
        plan = _plan(node, where)
    kind, defines, fields = plan
    inner = where
    if defines and not _is_wrapper(node):
        inner = node.name if where is None else "%s.%s" % (where, node.name)
    children = []
    for field, leaf, idents, none_ok in fields:
        value = getattr(node, field, None)
        if isinstance(value, ast.AST):
            children.append(value)
        elif isinstance(value, list):
            _check_list(kind, field, value, inner, children, idents)
        elif leaf is not None:
            if value is None and none_ok:
                continue
            _check_leaf(leaf, value, kind, field, where)
        elif value is not None:  # e.g. a type comment: written into the text as it is
            raise UnsafeInput("refusing %s.%s = %s" % (kind, field, _shown(value)), where)
    if kind == "FormattedValue" and node.format_spec is not None:
        _check_format_spec(node.format_spec, where)
    return inner, children


#: node class -> (its name, whether it defines a function or class, ((field, what its
#: value may be when not a node nor a list: a _LEAF_* or None for None only, whether a
#: list in it holds identifiers, whether _check_leaf lets None through), ...)), made once
#: per class: the check runs once per node
_PLANS = {}
_LEAF_NAME, _LEAF_CONSTANT, _LEAF_LEVEL, _LEAF_FLAG, _LEAF_SOURCE = range(5)


def _is_one_expression(text) -> bool:
    try:
        ast.parse("(%s\n)" % text, mode="eval")
    except (SyntaxError, ValueError):
        return False
    return "{" not in text and "}" not in text and "!" not in text and ":" not in text


def _plan(node, where):
    kind = type(node).__name__
    if getattr(ast, kind, None) is not type(node):
        raise UnsafeInput("internal node %s left in the decompiled tree" % kind, where)
    fields = []
    for field in node._fields:
        if (kind, field) in _NAME_FIELDS:
            leaf = _LEAF_NAME
        elif kind == "Constant" and field == "value":
            leaf = _LEAF_CONSTANT
        elif kind == "ImportFrom" and field == "level":
            leaf = _LEAF_LEVEL
        elif kind == "Interpolation" and field == "str":
            leaf = _LEAF_SOURCE
        elif (kind, field) in _FLAG_FIELDS:
            leaf = _LEAF_FLAG
        else:
            leaf = None
        none_ok = (leaf == _LEAF_CONSTANT  # (None is a literal)
                   or leaf == _LEAF_NAME and _NAME_FIELDS[kind, field] in (_OPT_IDENT, _OPT_DOTTED)
                   or leaf == _LEAF_FLAG and any(ok is None for ok in _FLAG_FIELDS[kind, field]))
        fields.append((field, leaf, _NAME_FIELDS.get((kind, field)) == _IDENTS, none_ok))
    plan = _PLANS[type(node)] = (kind, kind in ("FunctionDef", "AsyncFunctionDef", "ClassDef"),
                                 tuple(fields))
    return plan


def _check_leaf(leaf, value, kind, field, where):
    if leaf == _LEAF_NAME:
        _check_name_field(_NAME_FIELDS[kind, field], value, kind, field, where)
    elif leaf == _LEAF_CONSTANT:
        if type(value) in LITERAL_TYPES:
            return  # (constant_problem's answer for a value that is no container)
        problem = constant_problem(value)
        if problem is not None:
            raise UnsafeInput("refusing %s" % problem, where)
    elif leaf == _LEAF_LEVEL:
        if not (type(value) is int and 0 <= value <= MAX_IMPORT_LEVEL):
            raise UnsafeInput("refusing import level %s" % _shown(value), where)
    elif leaf == _LEAF_SOURCE:
        # a template's interpolation text, written between its braces as it is: one expression
        if not (type(value) is str and _is_one_expression(value)):
            raise UnsafeInput("refusing %s.%s = %s" % (kind, field, _shown(value)), where)
    elif not any(value is ok or (type(value) is type(ok) and value == ok)
                 for ok in _FLAG_FIELDS[kind, field]):
        raise UnsafeInput("refusing %s.%s = %s" % (kind, field, _shown(value)), where)


def _is_wrapper(node):
    """The function ``api`` puts around a closure to declare its free variables."""
    return isinstance(node.name, str) and node.name.startswith("__unveil_closure_")


def _check_list(kind, field, items, where, children, idents):
    if idents:
        for name in items:
            _check_name_field(_IDENT, name, kind, field, where)
        return
    for item in items:
        if isinstance(item, ast.AST):
            children.append(item)
        elif item is not None:  # None: a dict's ``**`` entry, a missing keyword default
            raise UnsafeInput("refusing %s in %s.%s" % (_shown(item), kind, field), where)


def _check_name_field(form, value, kind, field, where):
    if value is None and form in (_OPT_IDENT, _OPT_DOTTED):
        return
    if form in (_DOTTED, _OPT_DOTTED):
        if value == "*" and kind == "alias":
            return
        parts = value.split(".") if type(value) is str else [value]
        problems = [name_problem(p) for p in parts]
        problem = next((p for p in problems if p is not None), None)
    else:
        problem = name_problem(value, attribute=form == _ATTR)
    if problem is not None:
        what = "attribute name" if form == _ATTR else "module name" if form in (_DOTTED, _OPT_DOTTED) \
            else "name"
        raise UnsafeInput("refusing %s %s (%s.%s): %s" % (what, _shown(value), kind, field, problem),
                          where)


def _check_format_spec(spec, where):
    """A format spec's literal text cannot hold a brace: there ``{{`` is no escape but a
    nested replacement field, i.e. code."""
    for part in ast.walk(spec):
        if isinstance(part, ast.Constant) and isinstance(part.value, str) and (
                "{" in part.value or "}" in part.value):
            raise UnsafeInput("refusing format spec %s: a brace in it would be read as code"
                              % _shown(part.value), where)


# -- the boundary -----------------------------------------------------------

#: let through unchanged: the process is in trouble, not the decompiler
PASS_THROUGH = (MemoryError,)


@contextlib.contextmanager
def boundary(function=None):
    """Turn whatever escapes the block into a :class:`DecompilationError` naming the
    function (``function``, or the code object being decompiled when it failed) and the
    instruction being read, with the original exception as ``__cause__``."""
    try:
        yield
    except DecompilationError:
        raise
    except PASS_THROUGH:
        raise
    except Exception as exc:
        raise as_decompilation_error(exc, function) from exc


def as_decompilation_error(exc, function=None):
    inner_function, instr = _where(exc.__traceback__)
    if isinstance(exc, RecursionError):
        message = "nested too deeply for the decompiler (%s)" % _first_line(exc)
    else:
        message = "internal error: %s: %s" % (type(exc).__name__, _first_line(exc))
    offset = opname = None
    if instr is not None:
        offset = getattr(instr, "offset", None)
        opname = getattr(instr, "op", None) or getattr(instr, "opname", None)
        if not isinstance(offset, int):
            offset = None
        if not isinstance(opname, str):
            opname = None
    return DecompilationError(message, inner_function or function, offset, opname)


def _first_line(exc):
    lines = str(exc).splitlines()
    return lines[0] if lines else ""


def _where(tb):
    """(qualified name of the innermost code object being decompiled, innermost
    instruction being read) from the frames of a traceback; either may be None."""
    function = instr = None
    while tb is not None:
        try:
            local_values = list(tb.tb_frame.f_locals.values())
        except Exception:  # a frame that cannot show its locals tells us nothing
            local_values = []
        for value in local_values:
            if isinstance(value, Context):
                function = value.name
            elif isinstance(value, (Instr, dis.Instruction)):
                instr = value
        tb = tb.tb_next
    return function, instr


def qualname(code):
    return getattr(code, "co_qualname", None) or getattr(code, "co_name", None)



# -- the bytecode -----------------------------------------------------------
#
# The decompiler reads the stack symbolically and trusts that every instruction is
# reached with one stack depth, as the compiler guarantees. Crafted or shuffled bytecode
# breaks that (a loop that pushes one more value per turn) and was decompiled into text
# that runs a call once per turn instead of once. So the depths are checked first, the
# way the compiler computes them: ``dis.stack_effect`` along the edges, one linear pass.

_GENERATOR_FLAGS = 0x20 | 0x80 | 0x200  # CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR


def _exception_entries(code):
    """``dis.Bytecode(code).exception_entries`` (3.11+; none before), without the table of
    line starts ``dis.Bytecode`` builds too (a pass over the whole line table)."""
    parse = getattr(dis, "_parse_exception_table", None)
    if parse is None:
        return getattr(dis.Bytecode(code), "exception_entries", ())
    return parse(code)


def _starts_with_sent_value(code):
    """3.10-3.12: a generator's frame starts with the first value sent on the stack
    (``GEN_START`` / ``RETURN_GENERATOR; POP_TOP`` pop it); 3.13's RETURN_GENERATOR pushes it."""
    if not code.co_flags & _GENERATOR_FLAGS:
        return False
    if "GEN_START" in dis.opmap:
        return True
    op = dis.opmap.get("RETURN_GENERATOR")
    return op is not None and dis.stack_effect(op) == 0


def check_bytecode(code):
    """Raise :class:`UnsafeInput` unless every reachable instruction of ``code`` and of
    the code objects in its constants is reached with one stack depth that is never
    negative, every jump lands on an instruction and no path runs past the end."""
    todo = [code]
    while todo:
        c = todo.pop()
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        problem = _stack_problem(c)
        if problem is not None:
            raise UnsafeInput("refusing malformed bytecode: %s" % problem, qualname(c))


def _stack_problem(code):
    try:
        instrs = list(get_instructions(code))
        entries = _exception_entries(code)
    except Exception as e:  # an argument past its table, a truncated instruction
        return "dis cannot read it (%s: %s)" % (type(e).__name__, _first_line(e))
    if not instrs:
        return "no instructions"
    index = {ins.offset: k for k, ins in enumerate(instrs)}
    # 3.8: a ``finally`` body is entered from CALL_FINALLY (one value pushed) and from
    # the paths that push six; the compiler takes the larger, so no one depth there
    loose = {index.get(ins.argval) for ins in instrs if ins.opname == "CALL_FINALLY"}
    depth = [None] * len(instrs)
    pending = []

    def reach(k, d, source, *args):
        """``source % args`` names the edge (written out only for a problem: most edges have none)."""
        if k is None:
            return "%s jumps outside the code" % (source % args)
        if d < 0:
            return "stack underflow at offset %d" % instrs[k].offset
        if depth[k] is None:
            depth[k] = d
            pending.append(k)
        elif depth[k] != d and k not in loose:
            return "offset %d is reached with stack depths %d and %d" % (instrs[k].offset, depth[k], d)
        return None

    problem = reach(0, 1 if _starts_with_sent_value(code) else 0, "entry")
    for e in entries:
        problem = problem or reach(index.get(e.target), e.depth + 1 + bool(e.lasti),
                                   "an exception handler")
    end, stack_effect, with_argument = len(instrs), dis.stack_effect, dis.HAVE_ARGUMENT
    while pending and problem is None:
        k = pending.pop()
        ins, d = instrs[k], depth[k]
        op = ins.opcode
        try:
            if op in JUMP_OPCODES:
                problem = reach(index.get(ins.argval), d + stack_effect(op, ins.arg, jump=True),
                                "offset %d (%s)", ins.offset, ins.opname)
            after = d + stack_effect(op, ins.arg if op >= with_argument else None, jump=False)
            if problem is None and ins.opname not in NO_FALL_THROUGH:
                k += 1
                if k == end:
                    return "offset %d (%s) runs past the end" % (ins.offset, ins.opname)
                if after >= 0 and depth[k] is None:  # (reach's most common case, inlined)
                    depth[k] = after
                    pending.append(k)
                elif after < 0 or depth[k] != after:
                    problem = reach(k, after, "offset %d", ins.offset)
            elif problem is None and after < 0:  # a return or raise pops more than there is
                return "stack underflow at offset %d (%s)" % (ins.offset, ins.opname)
        except ValueError as e:  # stack_effect: an opcode this Python does not have
            return "offset %d (%s): %s" % (ins.offset, ins.opname, _first_line(e))
    return problem
