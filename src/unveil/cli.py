"""The ``unveil`` command line: a thin layer over the decompiler and the dump."""
import argparse
import sys


def _build_parser():
    p = argparse.ArgumentParser(
        prog="unveil",
        description="Open up torch.compile: decompile bytecode, dump and explain what the compiler did.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    d = sub.add_parser("decompile", help="print Python source for a function, .py or .pyc file")
    d.add_argument("target", help="module:qualname, a .py file or a .pyc file")
    d.add_argument("--out", help="write the source to this file instead of stdout")
    return p


def _decompile(args):
    import importlib
    from . import decompile, DecompilationError
    if ":" not in args.target:
        print("unveil: only module:qualname targets are supported so far", file=sys.stderr)
        return 2
    mod_name, _, qual = args.target.partition(":")
    try:
        obj = importlib.import_module(mod_name)
        for part in qual.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as e:
        print("unveil: cannot find %s: %s" % (args.target, e), file=sys.stderr)
        return 2
    try:
        src = decompile(obj)
    except (TypeError, ValueError) as e:
        print("unveil: %s" % e, file=sys.stderr)
        return 2
    except DecompilationError as e:
        print("unveil: %s" % e, file=sys.stderr)
        return 1
    if args.out:
        with open(args.out, "w") as f:
            f.write(src)
    else:
        sys.stdout.write(src)
    return 0


def main(argv=None) -> int:
    args = _build_parser().parse_args(argv)
    if args.command == "decompile":
        return _decompile(args)
    _build_parser().print_help()
    return 0
