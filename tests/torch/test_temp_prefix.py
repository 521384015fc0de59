"""Decompiler(code).decompile(temp_prefix=...) names the temporaries it introduces (depyf's option)."""
import pytest
import torch

import unveil


def dynamo_code():
    """Dynamo's transformed code for a small function (it keeps graph outputs in temporaries)."""
    seen = []
    handle = torch._dynamo.convert_frame.register_bytecode_hook(lambda code, new: seen.append(new))
    try:
        torch._dynamo.reset()

        @torch.compile(backend="eager")
        def f(a, b):
            return a + b
        f(torch.ones(2), torch.ones(2))
    finally:
        handle.remove()
        torch._dynamo.reset()
    return seen[0]


def test_temporaries_take_the_prefix():
    code = dynamo_code()
    default = unveil.Decompiler(code).decompile()
    assert "__temp_1" in default
    named = unveil.Decompiler(code).decompile(temp_prefix="t_")
    assert "__temp_" not in named and "t_1" in named
    assert named == default.replace("__temp_", "t_")
    compile(named, "<named>", "exec")
    assert "__temp_1" in unveil.Decompiler(code).decompile()  # the prefix does not stick


def test_prefix_must_be_an_identifier():
    with pytest.raises(ValueError, match="temp_prefix"):
        unveil.Decompiler(dynamo_code()).decompile(temp_prefix="1-")
