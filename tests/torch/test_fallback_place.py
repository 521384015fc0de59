"""An entry unveil cannot prove falls back to Dynamo's own code; the dump then says where in the
user's source the proof stopped (issue 30): the line Dynamo's instruction came from, and its text."""
import inspect
import json

import torch

import unveil
import unveil.torch.hook as hook


def prints_between(x):
    y = x.sin()
    print("prints_between: here")
    return y.cos()


def _print_line():
    lines, first = inspect.getsourcelines(prints_between)
    return first + next(k for k, text in enumerate(lines) if "print(" in text)


def test_a_fallback_names_the_users_line(tmp_path, monkeypatch):
    def refuse(new, like):
        # the message the proof gives, naming an instruction of Dynamo's code: one on the print's line
        offset = next((start for start, line in __import__("dis").findlinestarts(like) if line == _print_line()), 0)
        raise hook.NotEquivalent("different operations: X and Y (original offset %d, recompiled offset 0)" % offset)

    monkeypatch.setattr(hook, "prove_same", refuse)
    with unveil.prepare_debug(str(tmp_path)):
        torch.compile(prints_between, backend="eager")(torch.randn(3))
    index = json.loads((tmp_path / "index.json").read_text())
    errors = [e["error"] for f in index["functions"] for e in f["entries"] if e["error"]]
    assert errors, index
    assert any(e.startswith("near line %d of %s (`print(\"prints_between: here\")`): NotEquivalent"
                            % (_print_line(), __file__)) for e in errors), errors
