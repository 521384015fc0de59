"""Runs under every interpreter: ``import unveil`` must not import torch."""
import subprocess
import sys


def test_import_unveil_does_not_import_torch():
    code = "import sys, unveil; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_the_torch_side_says_it_needs_torch():
    """Where torch is not installed (every interpreter but the two torch suites'; on 3.15 it
    cannot be: torch.compile does not run there), prepare_debug names what it needs and why."""
    import importlib.util

    import pytest

    import unveil
    if importlib.util.find_spec("torch") is not None:
        pytest.skip("torch is installed here: tests/torch covers prepare_debug")
    with pytest.raises(ImportError, match="unveil.prepare_debug needs torch") as info:
        unveil.prepare_debug("unused").__enter__()
    if sys.version_info >= (3, 15):
        assert "torch.compile does not run on Python 3.15" in str(info.value)
        assert "decompiler" in str(info.value)
    assert isinstance(info.value.__cause__, ImportError)
