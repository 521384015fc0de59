"""Fast iteration over the nodes of an ``ast`` tree.

``ast.walk`` and ``ast.iter_child_nodes`` pass every field through two generators
(``iter_fields``, then ``iter_child_nodes``); the checks that read the whole
decompiled tree once each spent most of their time there (10,000 ifs: about a
million child iterations). These give the same nodes with one loop per node.
"""
import ast

_AST = ast.AST


def child_nodes(node):
    """The direct children of ``node`` (as ``ast.iter_child_nodes``), as a list."""
    out = []
    for name in node._fields:
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
