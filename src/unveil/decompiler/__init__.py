"""Python bytecode -> Python source, for CPython 3.8-3.15. No torch import.

Pipeline (each stage a function of the previous one's output):
``instructions.read`` (normalize) -> ``cfg.build`` (blocks, dominators, loops)
-> ``structure`` (symbolic stack execution + structuring into ``ast``)
-> ``emit`` (text). ``recompile`` turns the text back into a code object
laid out like the original.
"""
from .errors import DecompilationError
from .api import Decompiler, decompile, recompile

__all__ = ["DecompilationError", "Decompiler", "decompile", "recompile"]
