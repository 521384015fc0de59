"""``ast`` -> source text. ``ast.unparse`` where it exists (3.9+), our own
unparser on 3.8."""
import ast
import sys


def to_source(node) -> str:
    node = ast.fix_missing_locations(node)
    if sys.version_info >= (3, 9):
        text = ast.unparse(node)
    else:
        from .unparse38 import unparse
        text = unparse(node)
    return text if text.endswith("\n") else text + "\n"
