"""Which names a decompiled function body binds in its own scope.

The compiler decides that a name is local from *any* binding in the function, even
one in code it then drops as unreachable (``if False: z = 1``). The bytecode keeps
``z`` local (reading it raises ``UnboundLocalError``), but a body decompiled from the
reachable code alone would read a global ``z``. :func:`unbound_locals` finds such
names so that the function can declare them.
"""
import ast

from .nodes import child_nodes

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = _DEFS + (ast.Lambda,)
OWN, COMPREHENSION, NESTED = range(3)


def names_by_scope(body):
    """(names read in the function's own scope, names it binds or declares, names
    bound by its comprehensions, names read in nested scopes) for a list of statements.
    Iterative: a body may nest as deep as its input."""
    reads, binds, comp_binds, inner = set(), set(), set(), set()
    todo = [(node, OWN) for node in body]
    plain = _PLAIN
    while todo:
        node, level = todo.pop()
        cls = type(node)
        if plain.get(cls) or plain.get(cls) is None and _is_plain(cls):
            todo.extend([(child, level) for child in child_nodes(node)])
            continue
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                (reads if level == OWN else inner).add(node.id)
            elif level == OWN:
                binds.add(node.id)
            elif level == COMPREHENSION:
                comp_binds.add(node.id)
            continue
        if isinstance(node, ast.NamedExpr) and level != NESTED:
            binds.add(node.target.id)  # a walrus in a comprehension binds in the function
            todo.append((node.value, level))
            continue
        if isinstance(node, _SCOPES):
            if level == OWN and not isinstance(node, ast.Lambda):
                binds.add(node.name)
            # decorators, defaults, annotations and bases run in the enclosing scope
            outside = [node.args] if not isinstance(node, ast.ClassDef) else node.bases + node.keywords
            outside += getattr(node, "decorator_list", [])
            if getattr(node, "returns", None) is not None:
                outside.append(node.returns)
            todo.extend((child, level) for child in outside)
            body_nodes = node.body if isinstance(node.body, list) else [node.body]
            todo.extend((child, NESTED) for child in body_nodes)
            continue
        if isinstance(node, _COMPREHENSIONS):
            first, rest = node.generators[0], node.generators[1:]
            todo.append((first.iter, level))  # evaluated before the comprehension's scope
            deeper = NESTED if level == NESTED else COMPREHENSION
            todo.extend((child, deeper) for child in [first.target] + first.ifs + rest)
            todo.extend((child, deeper) for child in _comprehension_elements(node))
            continue
        if level == OWN and isinstance(node, _BINDS_OTHERWISE):
            binds.update(_bound_by(node))
        todo.extend([(child, level) for child in child_nodes(node)])
    return reads, binds, comp_binds, inner


#: node class -> whether names_by_scope only goes on to its children (asked first: most nodes)
_PLAIN = {}


def _is_plain(cls):
    plain = _PLAIN[cls] = not issubclass(cls, (ast.Name, ast.NamedExpr) + _SCOPES + _COMPREHENSIONS
                                         + _BINDS_OTHERWISE)
    return plain


def _comprehension_elements(node):
    if isinstance(node, ast.DictComp):
        return [node.key, node.value]
    return [node.elt]


#: the nodes :func:`_bound_by` finds names in (asked first: it runs once per node)
_BINDS_OTHERWISE = tuple(getattr(ast, kind) for kind in (
    "Import", "ImportFrom", "Global", "Nonlocal", "ExceptHandler", "MatchAs", "MatchStar",
    "MatchMapping") if hasattr(ast, kind))


def _bound_by(node):
    """Names a statement or pattern binds other than through ``ast.Name`` targets."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [a.asname or a.name.split(".")[0] for a in node.names if a.name != "*"]
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return node.names
    name = getattr(node, "name", None) if isinstance(node, ast.ExceptHandler) or \
        type(node).__name__ in ("MatchAs", "MatchStar") else None
    if type(node).__name__ == "MatchMapping":
        name = node.rest
    return [name] if isinstance(name, str) else []


def unbound_locals(code, body, source_name=lambda n: n):
    """Local and cell variables of ``code`` that ``body`` reads but never binds: their
    stores were unreachable. ``source_name`` maps a cell to its name in the source."""
    nargs = (code.co_argcount + code.co_kwonlyargcount
             + bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08))
    if len(code.co_varnames) == nargs and not code.co_cellvars:
        return []  # (no local but the arguments, which are always bound: no walk needed)
    args = set(code.co_varnames[:nargs])
    reads, binds, comp_binds, inner = names_by_scope(body)
    missing = []
    for n in code.co_varnames[nargs:]:
        if n in reads and n not in binds and n not in comp_binds and n not in missing:
            missing.append(n)
    for n in code.co_cellvars:
        n = source_name(n)
        if n in args or n in binds or n in comp_binds or n in missing:
            continue
        if n in reads or n in inner:
            missing.append(n)
    return missing
