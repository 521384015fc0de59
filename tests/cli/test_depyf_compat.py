"""A depyf user switches by changing one import."""
import os
import subprocess
import sys
import textwrap

import pytest

import unveil

from cli_helpers import needs_dump


def test_decompiler_class_with_depyf_arguments():
    def f(a, b=2):
        c = a + b
        if c > 3:
            return c
        return a

    src = unveil.Decompiler(f.__code__).decompile(indentation=4, temp_prefix="__temp_",
                                                  overwite_fn_name=None)
    assert src.startswith("def f(a, b")
    renamed = unveil.Decompiler(f.__code__).decompile(overwite_fn_name="g")
    assert renamed.startswith("def g(")
    assert unveil.Decompiler(f).decompile(overwrite_fn_name="h").startswith("def h(")
    two = unveil.Decompiler(f).decompile(indentation=2)
    assert "\n  c = a + b\n" in two
    ns = {}
    exec(unveil.Decompiler(f).decompile(), ns)
    assert ns["f"](1) == 1 and ns["f"](5) == 7


def test_depyf_names_exist():
    for name in ("decompile", "Decompiler", "prepare_debug", "debug", "install", "uninstall",
                 "DecompilationError"):
        assert callable(getattr(unveil, name)), name
    from unveil.optimization import TorchCompileWrapperWithCustomDispatcher  # noqa: F401


DEPYF_SCRIPT = '''
import sys
import torch
import unveil as depyf          # was: import depyf

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 3)

    def forward(self, x):
        y = self.linear(x).relu()
        if y.sum() > 0:          # data-dependent: a graph break
            return y * 2
        return y - 1

model = Model()

@torch.compile(backend="eager")
def step(x):
    return model(x)

with depyf.prepare_debug(sys.argv[1]):
    for n in (2, 3):
        step(torch.randn(n, 4))
print("done")
'''


@needs_dump
def test_depyf_style_script_with_only_the_import_changed(tmp_path):
    script = tmp_path / "depyf_style.py"
    script.write_text(DEPYF_SCRIPT)
    dump = tmp_path / "dump"
    r = subprocess.run([sys.executable, str(script), str(dump)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("done")
    names = os.listdir(dump)
    assert any(n.startswith("full_code_for_") and n.endswith(".py") for n in names), names
    assert any(n.startswith("__transformed_code_") and n.endswith(".py") for n in names), names
    assert any(n.startswith("__compiled_fn_") and n.endswith(".py") for n in names), names
    for n in names:
        if n.endswith(".py"):
            with open(os.path.join(dump, n)) as f:
                compile(f.read(), n, "exec")  # every file in the dump is valid Python
