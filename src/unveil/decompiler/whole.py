"""Whole objects: a class, and the definitions of a module, written as proved text.

A method decompiled alone is proved, but what its ``def`` line says besides the body
(defaults, annotations, decorators) is computed by the class body or module that runs
the ``def``; a class is its body's code object. So a class is written from its body's
code object and a definition that carries more than constants from the code that
defines it, each proved as a whole (:mod:`.validate`) - or refused."""
import ast
import builtins
import importlib
import sys
import types

from . import emit
from .api import Decompiler
from .errors import DecompilationError
from .safety import name_problem

#: a type object allocated at run time (a class statement); most types written in C are
#: static and have no class body (collections.deque)
_HEAP_TYPE = 1 << 9
#: (3.10+) a type whose attributes cannot be set: written in C, allocated at run time or not
#: (3.14's collections._deque_iterator); a class statement never makes one
_IMMUTABLE_TYPE = 1 << 8


def class_text(cls: type, module_code: types.CodeType, body: types.CodeType) -> str:
    """The class statement that made ``cls`` (:func:`module_code_of`, :func:`class_body`),
    proved: as the module (decompiled and proved whole) has it, with its bases, keywords
    and decorators, where the class is defined at the module's top level and the module can
    be proved; else its body's statement, proved alone, under the bases the class has."""
    if "." not in cls.__qualname__:
        try:
            return ModuleDefinitions(module_code).statement(body)
        except DecompilationError:
            pass  # (a module that cannot be proved whole still has classes that can)
    bases, keywords = class_bases(cls)
    return class_statement(body, bases, keywords)


def class_body(cls: type, module_code: types.CodeType) -> types.CodeType:
    """The code object of the body of the class statement that made ``cls``, read from
    ``module_code`` (:func:`module_code_of`). TypeError if no class statement there made
    ``cls``; :class:`DecompilationError` if the body cannot be told apart or no longer
    matches the class (its file changed after the import)."""
    found = [c for q, c in _class_bodies(module_code, "") if q == cls.__qualname__]
    if not found:
        raise TypeError("no class statement of module %s makes %s: it has no bytecode to "
                        "decompile" % (cls.__module__, cls.__qualname__))
    if len(found) > 1:
        found = [c for c in found if _made(cls, c)]
    if len(found) != 1:
        raise DecompilationError("%d class statements named %s in module %s cannot be told apart"
                                 % (len(found), cls.__qualname__, cls.__module__), cls.__qualname__)
    if not _made(cls, found[0]):
        raise DecompilationError("the class's methods are not those of its class statement in "
                                 "%s (its file changed after the import?)" % module_code.co_filename,
                                 cls.__qualname__)
    return found[0]


def _name(cls):
    return getattr(cls, "__qualname__", None) or repr(cls)


def module_code_of(cls):
    """The code of the module that defines ``cls``, as its loader reads it; TypeError if
    ``cls`` is written in C or its module has no bytecode."""
    if (not isinstance(cls, type) or not cls.__flags__ & _HEAP_TYPE
            or sys.version_info >= (3, 10) and cls.__flags__ & _IMMUTABLE_TYPE):
        raise TypeError("%s is implemented in C: it has no bytecode" % _name(cls))
    module = sys.modules.get(cls.__module__) or importlib.import_module(cls.__module__)
    spec = getattr(module, "__spec__", None)
    get_code = getattr(getattr(spec, "loader", None), "get_code", None)
    try:
        code = get_code(spec.name) if get_code is not None else None
    except (ImportError, OSError, SyntaxError) as e:
        raise TypeError("the bytecode of module %s cannot be read: %s" % (cls.__module__, e)) from None
    if code is None:
        raise TypeError("%s: module %s has no bytecode to read" % (_name(cls), cls.__module__))
    return code


def _class_bodies(code, prefix):
    """(qualified name, code) of every class body inside ``code``, depth first, walked
    without recursion (the input may nest deeply)."""
    todo = [(code, prefix)]
    while todo:
        code, prefix = todo.pop()
        for c in reversed(code.co_consts):
            if not isinstance(c, types.CodeType):
                continue
            if c.co_flags & 0x01:  # CO_OPTIMIZED: a function, whose classes are local
                todo.append((c, prefix + c.co_name + ".<locals>."))
            else:
                yield prefix + c.co_name, c
                todo.append((c, prefix + c.co_name + "."))


def _methods(cls):
    """The functions the class statement of ``cls`` defined, as the class holds them."""
    for value in vars(cls).values():
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        elif isinstance(value, property):
            value = value.fget
        if isinstance(value, types.FunctionType) and value.__qualname__ == "%s.%s" % (
                cls.__qualname__, value.__code__.co_name):
            yield value


def _made(cls, body):
    """Whether ``body`` made ``cls``: each of its methods' code objects is one of the body's
    (code objects compare by instructions, constants, names and line numbers)."""
    first_line = getattr(cls, "__firstlineno__", None)  # 3.13+
    if first_line is not None and first_line != body.co_firstlineno:
        return False
    consts = [c for c in body.co_consts if isinstance(c, types.CodeType)]
    return all(f.__code__ in consts for f in _methods(cls))


def class_statement(body: types.CodeType, bases=(), keywords=()) -> str:
    """The class statement whose body is ``body``, proved to compile back to it (else
    :class:`DecompilationError`), with ``bases`` and ``keywords`` (nodes) in its header:
    they are computed outside the body, so the caller knows them or leaves them out."""
    decompiler = Decompiler(body)
    module, _ = decompiler.decompile_ast(validate=False)
    node = _defined(module, ast.ClassDef)
    node.bases, node.keywords = list(bases), list(keywords)
    text = emit.to_source(module)
    decompiler.prove(text)
    return text


def class_bases(cls: type) -> tuple:
    """(bases, keywords): nodes for the bases of ``cls`` (and its metaclass where the bases do
    not imply it), spelled as its module's namespace reaches them: ``object`` left out,
    ``_collections_abc.MutableMapping`` for a base the module imported as a module's
    attribute. Not proved (the class statement computes them outside the body): a base the
    namespace does not reach is written as its module's dotted path."""
    namespace = vars(sys.modules[cls.__module__]) if cls.__module__ in sys.modules else {}
    bases = [_spelled(b, namespace) for b in cls.__bases__ if b is not object]
    meta = type(cls)
    keywords = []
    if meta is not type and not any(type(b) is meta for b in cls.__bases__):  # (else implied)
        keywords.append(ast.keyword(arg="metaclass", value=_spelled(meta, namespace)))
    return bases, keywords


def _spelled(obj, namespace):
    """An expression node for the class ``obj`` as ``namespace`` reaches it."""
    for name, value in namespace.items():
        if value is obj and name_problem(name) is None:
            return ast.Name(id=name, ctx=ast.Load())
    if getattr(builtins, obj.__name__, None) is obj:
        return ast.Name(id=obj.__name__, ctx=ast.Load())
    home = sys.modules.get(obj.__module__)
    prefix = next((n for n, v in namespace.items() if v is home and name_problem(n) is None),
                  obj.__module__)
    path = prefix.split(".") + obj.__qualname__.split(".")
    if any(name_problem(p) for p in path):
        raise DecompilationError("a base of the class has a name source cannot spell: %r"
                                 % obj.__qualname__)
    node = ast.Name(id=path[0], ctx=ast.Load())
    for part in path[1:]:
        node = ast.Attribute(value=node, attr=part, ctx=ast.Load())
    return node


def _defined(module, kind):
    """The one ``kind`` statement the decompiler wrote (inside the closure wrapper, if any)."""
    for node in ast.walk(module):
        if isinstance(node, kind):
            return node
    raise DecompilationError("the decompiled text defines no %s" % kind.__name__)


class ModuleDefinitions:
    """The definitions in a module's code, from the module decompiled and proved as a whole
    (once, when first asked): a ``def`` whose defaults, annotations or decorators the module
    computes, a class statement's bases and decorators, are only proved as part of it."""

    def __init__(self, module_code: types.CodeType):
        self.module_code = module_code
        self._found = None

    def statement(self, code: types.CodeType) -> str:
        """The text of the one ``def`` or ``class`` statement of the module that makes
        ``code`` (a function's code or a class body)."""
        if self._found is None:
            self._found = self._decompile()
        if isinstance(self._found, Exception):
            raise DecompilationError("what its definition says besides its body is computed "
                                     "by the module, which could not be decompiled as a whole "
                                     "(%s)" % self._found, code.co_name)
        nodes = self._found.get(code.co_name, [])
        if len(nodes) != 1:
            raise DecompilationError("the module defines %s %d times" % (code.co_name, len(nodes)),
                                     code.co_name)
        return emit.to_source(ast.Module(body=nodes, type_ignores=[]))

    def _decompile(self):
        decompiler = Decompiler(self.module_code)
        try:
            module, _ = decompiler.decompile_ast()  # (proved)
        except DecompilationError as e:
            return e
        found = {}
        for node in _module_level(module.body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.setdefault(node.name, []).append(node)
        return found


def _module_level(body):
    """The statements that run in the module's own code: not those inside the functions
    and classes it defines."""
    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            todo.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, (ast.stmt, ast.excepthandler))
                        or type(c).__name__ == "match_case")
