import os
import subprocess
import sys

# the console script installed beside the interpreter running the tests
UNVEIL = os.path.join(os.path.dirname(sys.executable), "unveil")


def test_help_lists_commands():
    out = subprocess.run([sys.executable, "-m", "unveil", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "decompile" in out.stdout


def test_console_script_decompiles_a_stdlib_function():
    out = subprocess.run([UNVEIL, "decompile", "colorsys:rgb_to_yiq"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    compile(out.stdout, "<out>", "exec")
    assert out.stdout.startswith("def rgb_to_yiq(r, g, b):")
