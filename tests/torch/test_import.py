"""``import unveil`` must not import torch (it is slow and may be absent)."""
import subprocess
import sys


def test_import_unveil_does_not_import_torch():
    code = "import sys, unveil; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_public_names_present():
    import unveil
    for name in ["decompile", "Decompiler", "recompile", "DecompilationError", "prepare_debug",
                 "debug", "install", "uninstall"]:
        assert hasattr(unveil, name), name
