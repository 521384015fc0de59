"""One code object -> its ``def``/``lambda``/comprehension/class body.

:class:`Context` is the per-code-object state the other stages consult: names,
constants without a literal form, ``global``/``nonlocal`` declarations, and
the callbacks that turn stack values into definitions.
"""
import ast
import contextvars
import inspect
import types

from . import expressions as E
from . import values as V
from .errors import DecompilationError
from .versions import COPIES_EXIT_BLOCKS, GENEXPR_GETS_ITS_ITERATOR
from .scopes import unbound_locals

CO_VARARGS = inspect.CO_VARARGS
CO_VARKEYWORDS = inspect.CO_VARKEYWORDS
CO_COROUTINE = inspect.CO_COROUTINE
CO_ASYNC_GENERATOR = inspect.CO_ASYNC_GENERATOR
COMPREHENSIONS = {"<listcomp>": "list", "<setcomp>": "set", "<dictcomp>": "dict", "<genexpr>": "gen"}

_LITERAL_TYPES = (int, float, complex, str, bytes, bool, type(None), type(Ellipsis))

#: the try statement nodes after ``as_try_star`` (``ast.TryStar`` is 3.11+)
TRY_STATEMENTS = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)


def is_literal(value):
    if isinstance(value, _LITERAL_TYPES):
        return True
    if isinstance(value, (tuple, frozenset)):
        return all(is_literal(v) for v in value)
    return False


CELL_SUFFIX = "__cell"
#: how temporaries the decompiler introduces are named (``Decompiler.decompile(temp_prefix=...)``)
TEMP_PREFIX = contextvars.ContextVar("unveil_temp_prefix", default="__temp_")


def cell_name(code, n):
    """The source name of cell or free variable ``n``. Dynamo writes code
    where one name is both a local and a free variable, which source cannot
    say: the cell gets a suffix, and recompile takes it off again."""
    # (3.12+ inlined comprehensions legitimately reuse a free name as their
    # own local; that stays as it is)
    if n in code.co_varnames and n in code.co_freevars and is_dynamo_code(code):
        return n + CELL_SUFFIX
    return n


def is_dynamo_code(code):
    names = code.co_names
    return any(n.startswith(("__compiled_fn", "__resume_at", "__import_torch", "___stack"))
               for n in names) or code.co_name.startswith("torch_dynamo_resume_in_") or any(
        v.startswith("___stack") for v in code.co_varnames)


class Element(ast.stmt):
    """A comprehension's element (LIST_APPEND/SET_ADD/MAP_ADD) as a statement."""
    _fields = ("kind", "value")


class Context:
    """Per-code-object facts and callbacks used while structuring."""

    def __init__(self, code, consts=None):
        self.code = code
        self.name = code.co_qualname if hasattr(code, "co_qualname") else code.co_name
        self.globals = []
        self.nonlocals = []
        # non-literal constants, shared with nested code objects
        self.consts = consts if consts is not None else {}
        self.seq = 0
        self.instrs = None  # set by driver.decompile_code: lets stores look ahead
        self.decompile_nested = None  # driver.decompile_code (set there: it imports this module)
        self.temp_prefix = TEMP_PREFIX.get()
        #: source names of the cell and free variables (code a statement runs may rebind them)
        self.cells = {cell_name(code, n) for n in code.co_cellvars + code.co_freevars}
        # code written by TorchDynamo (no source): a few clean-ups apply that
        # would change the bytecode of ordinary code
        self.dynamo = is_dynamo_code(code)
        self.temps = 0

    # names -----------------------------------------------------------
    def deref_name(self, arg):
        return cell_name(self.code, arg)

    def declare_global(self, n):
        # (a module stores a name with STORE_GLOBAL where a function it defines declares the
        # name global - which the decompiled function leaves out where it only reads the name:
        # ``global n`` in the module's own text keeps the store as it was)
        if n not in self.globals:
            self.globals.append(n)

    def declare_nonlocal(self, n):
        if n in self.code.co_freevars and n not in self.nonlocals:
            self.nonlocals.append(n)

    def constant(self, value):
        if isinstance(value, types.CodeType):
            return V.CodeConst(value)
        if is_literal(value):
            return ast.Constant(value=value)
        return self.constant_name(value)

    def constant_name(self, value):
        """A placeholder name for a constant with no literal form; recompile
        puts the object itself back."""
        for k, v in self.consts.items():
            if v is value:
                return E.name(k)
        key = "__unveil_const_%d" % len(self.consts)
        self.consts[key] = value
        return E.name(key)

    # values ----------------------------------------------------------
    def as_expr(self, v, ins=None):
        if isinstance(v, ast.expr) or isinstance(v, ast.Slice):  # 3.8: Slice is not an expr
            return v
        if isinstance(v, V.Cell):
            # the cell itself: a lambda closing over the name carries it
            lam = ast.Lambda(args=arguments_none(), body=E.name(v.name))
            return ast.Subscript(value=ast.Attribute(value=lam, attr="__closure__", ctx=ast.Load()),
                                 slice=E.const(0), ctx=ast.Load())
        if isinstance(v, V.CellTuple):
            return ast.Tuple(elts=[self.as_expr(x) for x in v.cells], ctx=ast.Load())
        if isinstance(v, V.CodeConst):
            return self.constant_name(v.code)
        if isinstance(v, V.WithEnter):
            node = ast.Name(id="__with_enter__", ctx=ast.Load())
            node._with_enter = True  # the with statement takes it as its target
            return node
        if isinstance(v, V.Decorated):
            return ast.Call(func=v.decorator, args=[self.as_expr(v.target, ins)], keywords=[])
        if isinstance(v, V.Stored):
            a = v.assign
            if getattr(a, "_pinned", False):
                return E.name(a.targets[0].id)  # the assignment stays a statement
            if all(isinstance(t, ast.Name) for t in a.targets):
                # ``(x := (y := value))``: a walrus per target, the first stored innermost,
                # so the stores happen where the value is computed, not before
                a._cancelled = True
                node = v.value
                for t in a.targets:
                    node = ast.NamedExpr(target=t, value=node)
                return node
            return v.value
        if isinstance(v, V.Function):
            if v.code.co_name == "<lambda>":
                return self.make_lambda(v)
        raise DecompilationError("%s used as a value" % type(v).__name__, self.name,
                                 ins.offset if ins else None, ins.op if ins else None)

    def emit_unpack(self, frame, target, value):
        E.simple_assign(frame, target, value, frame.current)

    def new_temp(self):
        """A fresh temporary variable name, unused by the code object."""
        while True:
            self.temps += 1
            n = "%s%d" % (self.temp_prefix, self.temps)
            if n not in self.code.co_varnames and n not in self.code.co_names:
                return n

    def next_seq(self):
        self.seq += 1
        return self.seq

    def comprehension_element(self, kind, value):
        return Element(kind=kind, value=value)

    # definitions -----------------------------------------------------
    def nested(self, code):
        """Statements and Context of a code object defined inside this one."""
        return self.decompile_nested(code, self.consts)

    def make_lambda(self, fn):
        body, ctx = self.nested(fn.code)
        args = arguments(fn.code, fn.defaults, fn.kwdefaults, None)
        value = returned_expression(body)
        if value is not None:
            return ast.Lambda(args=args, body=value)
        if len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Yield):
            return ast.Lambda(args=args, body=body[0].value)
        raise DecompilationError("lambda body is not one expression", fn.code.co_name)

    def annotations_computed_by(self, annotate):
        """3.14+ (PEP 649): the dict of annotations the compiler's ``__annotate__(format)``
        function ``annotate`` returns, from its body ``if format > 2: raise
        NotImplementedError`` / ``return {name: annotation, ...}``."""
        code = annotate.code if isinstance(annotate, V.Function) else None
        if code is None or code.co_name != "__annotate__":
            raise DecompilationError("annotations that are not an __annotate__ function", self.name)
        body, _ = self.nested(code)
        result = body[-1].value if body and isinstance(body[-1], ast.Return) else None
        if (len(body) < 2 or not isinstance(body[0], ast.If) or not isinstance(result, ast.Dict)
                or None in result.keys):
            raise DecompilationError("an __annotate__ function of an unknown form", code.co_name)
        added = body[1:-1]  # a class body's: ``d = {}``, then ``d['x'] = int`` for each in turn
        if added and result.keys:
            raise DecompilationError("an __annotate__ function of an unknown form", code.co_name)
        numbers = [_annotation_number(s) for s in added]  # (3.14+: under an if or try, or a module's)
        added = [s.body[0] if n is not None else s for s, n in zip(added, numbers)]
        for s in added:
            target = s.targets[0] if isinstance(s, ast.Assign) and len(s.targets) == 1 else None
            if not (isinstance(target, ast.Subscript) and target.value is result
                    and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str)):
                raise DecompilationError("an __annotate__ function of an unknown form", code.co_name)
        if added:
            result = ast.Dict(keys=[s.targets[0].slice for s in added], values=[s.value for s in added])
            result._numbers = numbers  # (the annotated statements they belong to)
        return result

    def make_def(self, frame, fn, name, decorators=()):
        code = fn.code
        if (name in ANNOTATE_NAMES and is_annotate_function(code) and not decorators
                and not self.code.co_flags & inspect.CO_OPTIMIZED):
            # 3.14+: a class body's or module's annotations (``x: int``), compiled apart:
            # clean_class_body writes them back onto the statements they annotate
            node = ast.Assign(targets=[E.name(name)], value=self.annotations_computed_by(fn))
            node._annotations = True
            # (the numbers of the annotated statements the code records, copies included)
            node._recorded = {i.arg.number for i in self.instrs if i.op == "ANNOTATED"}
            frame.emit(node)
            return True
        if code.co_name in COMPREHENSIONS or code.co_name == "<lambda>" and name != "<lambda>":
            if code.co_name == "<lambda>":
                return False
        body, ctx = self.nested(code)
        if code.co_name != name and mangle(self.code, code.co_name) != name:
            return False
        name = code.co_name  # the source spelling (the compiler mangles ``__x`` again)
        node_t = ast.AsyncFunctionDef if code.co_flags & (CO_COROUTINE | CO_ASYNC_GENERATOR) else ast.FunctionDef
        if fn.annotate is not None:
            fn.annotations = self.annotations_computed_by(fn.annotate)
        ann = {k: E.as_written(v, code) for k, v in annotations_of(fn).items()}
        args = arguments(code, fn.defaults, fn.kwdefaults, ann)
        node = node_t(name=name, args=args, body=body or [ast.Pass()],
                      decorator_list=list(decorators), returns=ann.get("return") if ann else None,
                      type_comment=None)
        if hasattr(ast, "TypeVar"):
            node.type_params = []
        frame.emit(node)
        return True

    def build_class(self, raw, kwnames, ins):
        nkw = len(kwnames) if kwnames else 0
        pos = raw[:len(raw) - nkw]
        kws = raw[len(raw) - nkw:]
        body_fn, cls_name = pos[0], pos[1]
        bases = [self.as_expr(b) for b in pos[2:]]
        keywords = [ast.keyword(arg=k, value=self.as_expr(v)) for k, v in zip(kwnames or (), kws)]
        return V.ClassValue(body_fn, cls_name.value, bases, keywords)

    def make_class(self, frame, cls, name, decorators=()):
        if cls.name != name:
            return False
        body, ctx = self.nested(cls.body.code)
        body = clean_class_body(body)
        node = ast.ClassDef(name=name, bases=cls.bases, keywords=cls.keywords,
                            body=body or [ast.Pass()], decorator_list=list(decorators))
        if hasattr(ast, "TypeVar"):
            node.type_params = []
        frame.emit(node)
        return True

    def make_import(self, frame, value, target):
        if not isinstance(target, ast.Name):
            return False
        if isinstance(value, V.Import):
            # ``import a.b.c`` binds ``a``; ``import a.b.c as d`` binds the leaf
            top = value.name.split(".")[0]
            asname = None if target.id == top and value.fromlist is None else target.id
            frame.emit(E.import_statement(ast.Import, value.lazy, names=[
                ast.alias(name=value.name, asname=asname)]))
            return True
        mod = value.module
        root = mod
        while isinstance(root, V.ImportedName):
            root = root.module
        if root.fromlist is None:
            # ``import a.b as c``: walks from the top package to the leaf
            frame.emit(E.import_statement(ast.Import, root.lazy, names=[
                ast.alias(name=root.name, asname=target.id)]))
            return True
        asname = None if target.id == value.name else target.id
        if mod.node is not None and mod.node in frame.stmts and frame.stmts[-1] is mod.node:
            mod.node.names.append(ast.alias(name=value.name, asname=asname))
        else:
            mod.node = E.import_statement(ast.ImportFrom, mod.lazy, module=mod.name or None, names=[
                ast.alias(name=value.name, asname=asname)], level=mod.level)
            frame.emit(mod.node)
        return True

    def comprehension_call(self, frame, func, args, ins):
        if not isinstance(func, V.Function) or func.code.co_name not in COMPREHENSIONS:
            return None
        if len(args) != 1:
            return None
        if isinstance(args[0], V.Iterator):
            outer = args[0].expr
        elif GENEXPR_GETS_ITS_ITERATOR and args[0] is not V.NULL:
            outer = frame.expr(args[0], ins)  # 3.15: the iterable itself
        else:
            return None
        body, ctx = self.nested(func.code)
        self.declare_comprehension_targets(ctx)
        return comprehension(func.code.co_name, body, outer, func.code.co_freevars)

    def declare_comprehension_targets(self, comp_ctx):
        """A walrus in a comprehension binds in the code around it: its ``global`` or
        ``nonlocal`` names (stores to a global or to a free variable of the comprehension's
        own code) are this code's declarations, or the walrus would make them local here."""
        for n in comp_ctx.globals:
            self.declare_global(n)
        for n in comp_ctx.nonlocals:
            self.declare_nonlocal(n)


def mangle(class_code, n):
    """``n`` as the compiler spells it inside the class whose body is
    ``class_code``: ``__x`` becomes ``_Class__x``."""
    if class_code.co_flags & inspect.CO_OPTIMIZED or not n.startswith("__") or n.endswith("__"):
        return n
    return "_%s%s" % (class_code.co_name.lstrip("_"), n)


def returned_expression(body):
    """The one expression a body of returns computes (``if c: return a`` +
    ``return b`` is ``a if c else b``), or None."""
    if not body:
        return None
    first = body[0]
    if isinstance(first, ast.Return) and len(body) == 1:
        return first.value or E.const(None)
    if isinstance(first, ast.If):
        a = returned_expression(first.body)
        b = returned_expression(first.orelse + body[1:])
        if a is not None and b is not None:
            return ast.IfExp(test=first.test, body=a, orelse=b)
    return None


def arguments_none():
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                         kwarg=None, defaults=[])


def annotations_of(fn):
    ann = fn.annotations
    if ann is None:
        return {}
    out = {}
    if isinstance(ann, ast.Dict):
        for k, v in zip(ann.keys, ann.values):
            out[k.value] = v
    elif isinstance(ann, ast.Tuple):
        for k, v in zip(ann.elts[0::2], ann.elts[1::2]):
            out[k.value] = v
    elif isinstance(ann, ast.Constant) and isinstance(ann.value, tuple):
        vals = ann.value
        for k, v in zip(vals[0::2], vals[1::2]):
            out[k] = ast.Constant(value=v)
    return out


def arguments(code, defaults=(), kwdefaults=None, ann=None):
    ann = ann or {}
    names = code.co_varnames
    posonly = getattr(code, "co_posonlyargcount", 0)
    argc = code.co_argcount
    kwc = code.co_kwonlyargcount
    i = argc + kwc

    def arg(n):
        return ast.arg(arg=n, annotation=ann.get(n), type_comment=None)

    vararg = kwarg = None
    if code.co_flags & CO_VARARGS:
        vararg = arg(names[i])
        i += 1
    if code.co_flags & CO_VARKEYWORDS:
        kwarg = arg(names[i])
    kwdefaults = kwdefaults or {}
    kwonly = [arg(n) for n in names[argc:argc + kwc]]
    stray = [k for k in ann if k != "return" and k not in names[:i + bool(kwarg)]]
    if stray:  # only crafted code annotates a name that is no argument: source cannot say it
        raise DecompilationError("annotation for %r, which is not an argument" % (stray[0],),
                                 getattr(code, "co_qualname", code.co_name))
    return ast.arguments(
        posonlyargs=[arg(n) for n in names[:posonly]],
        args=[arg(n) for n in names[posonly:argc]],
        vararg=vararg, kwonlyargs=kwonly,
        kw_defaults=[kwdefaults.get(a.arg) for a in kwonly],
        kwarg=kwarg, defaults=list(defaults or []))


def comprehension(kind_name, body, outer_iter, free=()):
    """Turn the statements of a comprehension's code object back into the
    comprehension expression (``free``: the names its code reads from the
    enclosing function)."""
    gens, elt = comprehension_parts(kind_name, body)
    first = gens[0]
    if isinstance(first.iter, ast.Name) and first.iter.id == ".0":
        first.iter = outer_iter
    kind = COMPREHENSIONS[kind_name]
    if elt is None:
        elt = Element(kind=kind, value=_dead_element(kind, free, gens))
    if kind == "list":
        return ast.ListComp(elt=elt.value, generators=gens)
    if kind == "set":
        return ast.SetComp(elt=elt.value, generators=gens)
    if kind == "dict":
        k, v = elt.value
        return ast.DictComp(key=k, value=v, generators=gens)
    return ast.GeneratorExp(elt=elt.value, generators=gens)


def comprehension_parts(kind_name, body):
    """The generators of a comprehension's loop nest and its element (an
    :class:`Element`, or None where no path reaches it: a filter the
    compiler found always false left neither its test nor the element)."""
    # a walrus inside binds in the enclosing function: the comprehension's
    # code declares it nonlocal, the source does not
    stmts = [s for s in body if not isinstance(s, (ast.Return, ast.Nonlocal, ast.Global))
             and not getattr(s, "_keeps_generator", False)]
    if len(stmts) != 1 or not isinstance(stmts[0], (ast.For, ast.AsyncFor)):
        raise DecompilationError("unrecognised comprehension body", kind_name)
    gens = []
    node = stmts[0]
    while True:
        if isinstance(node, (ast.For, ast.AsyncFor)):
            gens.append(ast.comprehension(target=node.target, iter=node.iter, ifs=[],
                                          is_async=int(isinstance(node, ast.AsyncFor))))
            inner = node.body
        elif isinstance(node, ast.If) and not node.orelse:
            gens[-1].ifs.append(node.test)
            inner = node.body
        elif isinstance(node, Element):
            return gens, node
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Yield):
            # ``yield None`` reads back as a bare ``yield``; the element is the constant
            return gens, Element(kind="gen", value=node.value.value or E.const(None))
        else:
            raise DecompilationError("unrecognised comprehension body", kind_name)
        inner = _fold_tests_only(inner, gens[-1])
        while len(inner) > 1 and _single_item_loop(inner[0]):
            gens.append(ast.comprehension(target=inner[0].targets[0], ifs=[], is_async=0,
                                          iter=ast.Tuple(elts=[inner[0].value], ctx=ast.Load())))
            inner = _fold_tests_only(inner[1:], gens[-1])
        if not inner:
            gens[-1].ifs.append(E.const(False))
            return gens, None
        if len(inner) != 1:
            raise DecompilationError("unrecognised comprehension body", kind_name)
        node = inner[0]


def _single_item_loop(node):
    """Whether ``node`` is what 3.9+ compiles ``for x in (v,)`` (or ``[v]``) inside a
    comprehension to: the assignment ``x = v``, no loop."""
    return isinstance(node, ast.Assign) and len(node.targets) == 1


def _fold_tests_only(stmts, gen):
    """``stmts`` without the ``pass`` and the leading ``if x: pass`` that
    only test a value: what is left of a filter or a conditional element
    that the compiler found always true once ``x`` was tested (``if x or 1``,
    ``a if x or 1 else b``). Each becomes the filter ``x or True`` of
    ``gen``, which compiles to the same test; so does a leading ``if x:
    continue``, the filter ``not x or False``."""
    out = [s for s in stmts if not isinstance(s, ast.Pass)]
    while out and (_tests_only(out[0]) or _skips_element(out[0])):
        if _skips_element(out[0]):
            # ``if x or 0``: the false constant made the way to the next item a
            # jump of its own, read as ``if not x: continue`` (3.10)
            gen.ifs.append(ast.BoolOp(op=ast.Or(), values=[_negated(out[0].test), E.const(False)]))
        else:
            gen.ifs.append(ast.BoolOp(op=ast.Or(), values=[out[0].test, E.const(True)]))
        out.pop(0)
    return out


def _skips_element(node):
    return (isinstance(node, ast.If) and not node.orelse and len(node.body) == 1
            and isinstance(node.body[0], ast.Continue))


def _negated(test):
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(op=ast.Not(), operand=test)


def _tests_only(node):
    return (isinstance(node, ast.If)
            and all(isinstance(s, ast.Pass) for s in node.body + node.orelse))


def _dead_element(kind, free, gens):
    """An element for a comprehension whose element never runs: the names
    it alone read from the enclosing function (they make cells there),
    else None."""
    used = {n.id for g in gens for n in ast.walk(g) if isinstance(n, ast.Name)}
    free = [n for n in free if n not in used]
    value = E.const(None)
    if free:
        value = ast.Tuple(elts=[E.name(n) for n in free], ctx=ast.Load())
    return (E.const(None), value) if kind == "dict" else value


#: what the compiler stores first in every class body, in its order, with the kind of value
#: (3.14: ``__classdict__``, a cell holding the namespace, where the body has annotations)
_IMPLICIT_LEADING = (("__module__", ast.Name), ("__qualname__", ast.Constant),
                     ("__firstlineno__", ast.Constant), ("__classdict__", ast.Call))
#: ... and last (3.13; ``__classcell__`` where a method uses ``__class__``; 3.14: the
#: ``__classdict__`` cell again)
_IMPLICIT_TRAILING = ("__static_attributes__", "__classdictcell__", "__classcell__")
#: 3.14+ (PEP 649): where a class body (a module) stores the function computing its annotations
ANNOTATE_NAMES = ("__annotate_func__", "__annotate__")


def is_annotate_function(code):
    """3.14+: whether ``code`` is an ``__annotate__(format, /)`` function the compiler made for
    a def, a class body or a module: part of the statements it annotates, no definition of its own."""
    return (code.co_name == "__annotate__" and code.co_posonlyargcount == code.co_argcount == 1
            and code.co_varnames[:1] == ("format",) and bool(code.co_flags & inspect.CO_OPTIMIZED))


def _stores_to(s, target, kind=ast.AST):
    return (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
            and s.targets[0].id == target and isinstance(s.value, kind))


def _without_implicit_stores(body):
    """``body`` without the stores the compiler adds to a class body; the same
    names assigned in the source (``__module__ = 're'``) stay."""
    body = [s for s in body if not isinstance(s, ast.Return)]
    k = 0
    while k < len(body) and isinstance(body[k], (ast.Global, ast.Nonlocal)):
        k += 1
    for target, kind in _IMPLICIT_LEADING:
        if k < len(body) and _stores_to(body[k], target, kind):
            del body[k]
    for target in reversed(_IMPLICIT_TRAILING):
        # (3.10+ copies them into each branch that ends the body, as the return after them)
        body = strip_implicit_return(body, lambda s, target=target: _stores_to(s, target))
    return body


def _annotation_number(s):
    """n for the statement ``if n in __conditional_annotations__: <one statement>`` (an
    ``__annotate__`` function's annotation of the statement numbered n), else None."""
    test = s.test if isinstance(s, ast.If) and len(s.body) == 1 and not s.orelse else None
    if (isinstance(test, ast.Compare) and isinstance(test.left, ast.Constant)
            and type(test.left.value) is int and len(test.ops) == 1 and isinstance(test.ops[0], ast.In)
            and isinstance(test.comparators[0], ast.Name)
            and test.comparators[0].id == "__conditional_annotations__"):
        return test.left.value
    return None


def with_annotations(body):
    """3.14+: ``body`` (a class body's, a module's) with the annotations of the
    ``__annotate_func__`` (``__annotate__``) marker (see ``make_def``) written back, in their
    order. Where the body records that an annotated statement ran (E.Annotated: a module's,
    a class body's under an if or try), its annotation goes there: onto the statement
    before (``x = 3`` is ``x: int = 3``; the compiler stores the value only), else as
    ``x: int``. Any other annotation goes onto the first store to its name in the body's
    own statements (up to the next recorded one's statement), else after the statement
    of the one before it. A class body records only those under an if or a try: one recorded
    at its own level is written under ``if True:`` (whose test the compiler removes)."""
    marks = [s for s in body if getattr(s, "_annotations", False)]
    if not marks:
        return body
    if len(marks) > 1:
        raise DecompilationError("a class body with two annotation functions", "<class body>")
    mark = marks[0]
    body = [s for s in body if s is not mark]
    entries = _annotation_entries(mark.value)
    recorded_at = _records(body)  # number -> the body's statement that holds its record
    out, k, written = [], 0, {}
    for e, (target, annotation, number) in enumerate(entries):
        if number is not None:
            if number in recorded_at:
                out.extend(body[k:recorded_at[number] + 1])
                k = max(k, recorded_at[number] + 1)
            continue
        limit = min((recorded_at[n] for _, _, n in entries[e + 1:] if n in recorded_at),
                    default=len(body))
        at = next((j for j in range(k, limit) if _stores_to(body[j], target)), None)
        if at is not None:
            out.extend(body[k:at])
            k = at + 1
        written[e] = E.annotated(body[at] if at is not None else None, target, annotation)
        out.append(written[e])
    body = out + body[k:]
    _write_at_records(body, entries, written)
    _write_unreachable(body, entries, written, mark._recorded)
    if mark.targets[0].id == "__annotate_func__":
        recorded = [written[e] for e, (_, _, n) in enumerate(entries) if n is not None and e in written]
        body = [ast.If(test=E.const(True), body=[s], orelse=[]) if any(s is r for r in recorded) else s
                for s in body]  # (see below)
    return body


def check_annotations_kept(program, body, where):
    """Refuse the body of a module or class whose code sets up annotations (SETUP_ANNOTATIONS;
    3.14+: the set of those that ran) but whose text annotates no name: its annotated targets
    are all attributes, subscripts or names in parentheses (``a.b: int``, ``(x): int``), whose
    annotations are never stored (3.14+: nor evaluated), or (up to 3.13) unreachable. The text
    would not set them up."""
    if not any(i.op == "SETUP_ANNOTATIONS" for i in program.instrs):
        return
    if not any(isinstance(s, ast.AnnAssign) or getattr(s, "_annotations", False)
               for stmts in _statement_lists(body) for s in stmts):
        raise DecompilationError("the code sets up annotations but annotates no name: its annotated "
                                 "targets are attributes, subscripts or names in parentheses "
                                 "(a.b: int), or unreachable, and it keeps none of them", where)


def _annotation_entries(annotations):
    """(name, annotation, number of its statement or None) for each item of ``annotations``
    (the Dict an ``__annotate__`` function returns, numbers in ``_numbers``)."""
    numbers = getattr(annotations, "_numbers", None) or [None] * len(annotations.keys)
    for key in annotations.keys:
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            raise DecompilationError("an annotation whose name is not a string", "<annotations>")
    return [(k.value, v, n) for k, v, n in zip(annotations.keys, annotations.values, numbers)]


def _records(body):
    """number -> the place in ``body`` of the statement that holds (or is) E.Annotated(number)."""
    return {node.number: j for j, s in enumerate(body)
            for node in ast.walk(s) if isinstance(node, E.Annotated)}


def _write_at_records(body, entries, written):
    """Each E.Annotated in ``body`` (nested statements too) replaced by its annotation
    (``written``: entry -> its statement, filled in)."""
    entry_of = {n: e for e, (_, _, n) in enumerate(entries) if n is not None}
    for stmts in _statement_lists(body):
        out = []
        for s in stmts:
            if not isinstance(s, E.Annotated):
                out.append(s)
                continue
            e = entry_of.get(s.number)
            if e is None or e in written:
                raise DecompilationError("an annotated statement that the __annotate__ function "
                                         "does not annotate (or annotates twice)", "<annotations>")
            target, annotation, _ = entries[e]
            node = written[e] = E.annotated(out[-1] if out else None, target, annotation)
            if node.value is not None:
                out[-1] = node
            else:
                out.append(node)
        stmts[:] = out


def _write_unreachable(body, entries, written, recorded):
    """``if False: x: int`` for each annotation the ``__annotate__`` function has but whose
    statement the compiler removed as unreachable (``if 0:``: no record of it in the code),
    right after the annotation before it that is written (else before the next). One whose
    record is in the code but not in ``body`` is an inlined copy of a finally body's statement
    (each copy is numbered anew): the statement written makes it again."""
    holder = {id(s): stmts for stmts in _statement_lists(body) for s in stmts}
    for e, (target, annotation, number) in enumerate(entries):
        if e in written or number in recorded:
            continue
        dead = ast.If(test=E.const(False), body=[E.annotated(None, target, annotation)], orelse=[])
        before = max((x for x in written if x < e), default=None)
        after = min((x for x in written if x > e), default=None)
        if before is not None:
            stmts = holder[id(written[before])]
            stmts.insert(stmts.index(written[before]) + 1, dead)
        elif after is not None:
            stmts = holder[id(written[after])]
            stmts.insert(stmts.index(written[after]), dead)
        else:
            stmts = body
            body.append(dead)
        written[e] = dead
        holder[id(dead)] = stmts


def _statement_lists(body):
    """Every list of statements in ``body``, nested ones included, but not those of the
    functions and classes it defines (their code is decompiled on its own)."""
    todo = [body]
    while todo:
        stmts = todo.pop()
        yield stmts
        for s in stmts:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for node in [s] + [c for c in ast.iter_child_nodes(s)
                               if isinstance(c, ast.excepthandler) or type(c).__name__ == "match_case"]:
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                        todo.append(inner)


def clean_class_body(body):
    """Drop what the compiler adds to every class body."""
    return docstring_first(with_annotations(_without_implicit_stores(body)))


def docstring_first(body):
    """``body`` (a class body's, a module's) with its docstring written as one (the compiler
    stores it in ``__doc__`` first; a module's must stand before its ``__future__`` imports)."""
    first = body[0] if body else None
    if _stores_to(first, "__doc__", ast.Constant) and isinstance(first.value.value, str):
        return [ast.Expr(value=first.value)] + body[1:]
    return body


def _is_return_none(s):
    return isinstance(s, ast.Return) and (
        s.value is None or isinstance(s.value, ast.Constant) and s.value.value is None)


def strip_implicit_return(body, implied=None):
    """``return None`` where the function would end anyway is implied: the
    compiler adds it at the end and copies it into the branches that lead
    there, so it is dropped from every tail position. (``implied``: a test for
    another statement the compiler adds there, a class body's last stores.)"""
    implied = implied or _is_return_none
    if not body:
        return body
    if implied(body[-1]):
        return strip_implicit_return(body[:-1], implied) if COPIES_EXIT_BLOCKS else body[:-1]
    if not COPIES_EXIT_BLOCKS:
        return body
    last = body[-1]
    if isinstance(last, ast.If):
        last.body = strip_implicit_return(last.body, implied) or [ast.Pass()]
        last.orelse = strip_implicit_return(last.orelse, implied)
    elif isinstance(last, TRY_STATEMENTS):
        if not last.orelse:  # (else the body goes on in the else clause)
            last.body = strip_implicit_return(last.body, implied) or [ast.Pass()]
        last.orelse = strip_implicit_return(last.orelse, implied)
        for h in last.handlers:
            h.body = strip_implicit_return(h.body, implied) or [ast.Pass()]
    elif isinstance(last, (ast.With, ast.AsyncWith)):
        last.body = strip_implicit_return(last.body, implied) or [ast.Pass()]
    return body


def ends_with_dead_return(program):
    """Before 3.10 the compiler appends ``return None`` after a last statement
    that is not a ``return`` (an if/else whose branches return, say), even
    where it cannot be reached."""
    ins = program.instrs
    return (len(ins) >= 3 and ins[-1].op == "RETURN_VALUE" and ins[-2].op == "LOAD_CONST"
            and ins[-2].arg is None and ins[-3].op in ("RETURN_VALUE", "RAISE_VARARGS")
            and not any(i.target == len(ins) - 2 for i in ins))


def returns_none_explicitly(program):
    """3.10+: whether the function ends in a ``return None`` that the source wrote. The
    compiler copies its own implicit ``return None`` (which has no line) into each place
    that reaches it, so a last ``return None`` that two places reach was written."""
    ins = program.instrs
    if not (len(ins) >= 3 and ins[-1].op == "RETURN_VALUE" and ins[-2].op == "LOAD_CONST"
            and ins[-2].arg is None):
        return False
    k = len(ins) - 2
    jumps = sum(1 for i in ins if i.target == k)
    falls = ins[k - 1].op not in ("JUMP", "RETURN_VALUE", "RAISE_VARARGS", "RERAISE")
    return jumps + falls >= 2


def last_return_into_else(body):
    """``if c: return a`` + ``return b`` as the last statements, where the
    bytecode shows the last statement was not a return: ``if/else``. Failing
    that, a try statement whose except clauses all leave, followed by code
    that returns: that code is its ``else`` clause (the same place)."""
    if len(body) >= 2 and isinstance(body[-1], (ast.Return, ast.Raise)):
        for k in range(len(body) - 2, -1, -1):
            st = body[k]
            # (the nearest such if: ``if c: return a`` / ``i = 1`` / ``return b``
            # was if/else too, all after the if being its else clause; not one
            # whose body ends in ``raise``: with an else it keeps a dead jump
            # after the raise, which the structurer reads as that else)
            if (isinstance(st, ast.If) and not st.orelse and st.body
                    and isinstance(st.body[-1], ast.Return)):
                st.orelse = body[k + 1:]
                return body[:k + 1]
            if isinstance(st, ast.Try):
                if (not st.orelse and not st.finalbody and st.handlers
                        and all(h.body and isinstance(h.body[-1], (ast.Return, ast.Raise))
                                for h in st.handlers)):
                    st.orelse = body[k + 1:]
                    return body[:k + 1]
                break
    return body


#: 3.14+ flags a def with a docstring (its first constant is then the docstring; without
#: the flag the first constant may be any string the body uses)
CO_HAS_DOCSTRING = getattr(inspect, "CO_HAS_DOCSTRING", None)


def has_docstring(code):
    """A def's docstring is its first constant (None stands there otherwise, up to 3.13)."""
    if CO_HAS_DOCSTRING is not None and not code.co_flags & CO_HAS_DOCSTRING:
        return False
    return (code.co_flags & inspect.CO_OPTIMIZED  # a function, not a class body or module
            and code.co_name not in COMPREHENSIONS and code.co_name not in ("<lambda>", "<module>")
            and bool(code.co_consts) and isinstance(code.co_consts[0], str)
            and not code.co_name.startswith("<"))


def has_yield(body):
    """Whether ``body`` yields: a yield in a function, lambda or class it defines does
    not count (that one makes the nested code a generator), one in their defaults,
    decorators or bases does (they run here)."""
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(c for f, c in ast.iter_fields(node) if f != "body" for c in
                        (c if isinstance(c, list) else [c]) if isinstance(c, ast.AST))
        else:
            todo.extend(ast.iter_child_nodes(node))
    return False


def bare_returns(body):
    """``return None`` as a bare ``return`` in ``body`` (not in the functions
    and classes it defines): an async generator may not return a value, not
    even ``None``, and a bare ``return`` compiles to the same instructions."""
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return) and _is_return_none(node):
            node.value = None
        elif not isinstance(node, (ast.expr, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))  # statements, handlers, match cases


def is_class_body(code):
    """Whether ``code`` is the body of a class statement: it runs in the class
    namespace (not optimized like a function's) and is named after the class."""
    return not code.co_flags & inspect.CO_OPTIMIZED and code.co_name != "<module>"


def declare_unbound_locals(code, body):
    """``if False: z = None`` for locals the body reads but never binds (their stores
    were unreachable and the compiler dropped them): without it the source would read
    a global ``z`` where the bytecode raises ``UnboundLocalError``."""
    names = unbound_locals(code, body, lambda n: cell_name(code, n))
    if not names:
        return []
    targets = [ast.Name(id=n, ctx=ast.Store()) for n in names]
    return [ast.If(test=ast.Constant(value=False), orelse=[],
                   body=[ast.Assign(targets=targets, value=ast.Constant(value=None))])]
