"""Texts people read: where the source had no temporary, the decompiled text has none
either. Each function here must come back with the same normalized bytecode (a text
with a temporary compiles to extra stores and loads)."""
import pytest

from harness import check_bytecode


def return_str_of_clause_name(self, arg):
    try:
        bp = self.get(arg)
    except ValueError as err:
        return str(err)
    bp.deleteMe()


def return_in_clause_then_else(self, arg):
    try:
        bp = self.get(arg)
    except (ValueError, KeyError) as err:
        return err.args[0], bp
    else:
        bp.deleteMe()


@pytest.mark.parametrize("fn", [return_str_of_clause_name, return_in_clause_then_else])
def test_same_bytecode(fn):
    check_bytecode(fn)
