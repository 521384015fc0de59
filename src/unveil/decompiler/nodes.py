"""Fast iteration over the nodes of an ``ast`` tree.

``ast.walk`` and ``ast.iter_child_nodes`` pass every field through two generators
(``iter_fields``, then ``iter_child_nodes``); the checks that read the whole
decompiled tree once each spent most of their time there (10,000 ifs: about a
million child iterations). These give the same nodes with one loop per node.
"""
import ast

_AST = ast.AST


#: fields the grammar (Parser/Python.asdl, 3.8-3.15) gives a type that is not a node:
#: identifiers, strings, ints and constants
_NOT_NODES = {
    "FunctionDef": ("name", "type_comment"), "AsyncFunctionDef": ("name", "type_comment"),
    "ClassDef": ("name",), "Assign": ("type_comment",), "For": ("type_comment",),
    "AsyncFor": ("type_comment",), "With": ("type_comment",), "AsyncWith": ("type_comment",),
    "AnnAssign": ("simple",), "ImportFrom": ("module", "level"), "Global": ("names",),
    "Nonlocal": ("names",), "Constant": ("value", "kind"), "Attribute": ("attr",), "Name": ("id",),
    "FormattedValue": ("conversion",), "Interpolation": ("str", "conversion"),
    "comprehension": ("is_async",), "ExceptHandler": ("name",),
    "arg": ("arg", "type_comment"), "keyword": ("arg",), "alias": ("name", "asname"),
    "MatchSingleton": ("value",), "MatchStar": ("name",), "MatchMapping": ("rest",),
    "MatchClass": ("kwd_attrs",), "MatchAs": ("name",), "TypeVar": ("name",),
    "ParamSpec": ("name",), "TypeVarTuple": ("name",),
}

#: node class -> its fields that may hold nodes (a check reads every field: see safety.check_node)
_NODE_FIELDS = {}


def _node_fields(cls):
    skip = _NOT_NODES.get(cls.__name__, ()) if getattr(ast, cls.__name__, None) is cls else ()
    fields = _NODE_FIELDS[cls] = tuple(f for f in cls._fields if f not in skip)
    return fields


def child_nodes(node):
    """The direct children of ``node`` (as ``ast.iter_child_nodes`` in a tree whose fields
    hold what the grammar says), as a list."""
    out = []
    fields = _NODE_FIELDS.get(type(node))
    if fields is None:
        fields = _node_fields(type(node))
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, _AST):
            out.append(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, _AST):
                    out.append(item)
    return out


def walk(node):
    """Every node of the tree under ``node`` and ``node`` itself (as ``ast.walk``,
    in another order: depth first)."""
    todo = [node]
    while todo:
        n = todo.pop()
        todo.extend(child_nodes(n))
        yield n


_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def walk_statements(stmts):
    """Every statement in ``stmts`` and in the blocks nested in them, at any depth
    (not those inside expressions: a lambda holds none; a ``def``'s or ``class``'s body
    is a block). ``except`` handlers and ``match`` cases are passed through, not yielded."""
    todo = list(stmts)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.stmt):
            yield n
        for field in _STATEMENT_LISTS:
            block = getattr(n, field, None)
            if isinstance(block, list):
                todo.extend(block)
