"""``unveil report``: a dump directory -> a static HTML report that works offline.

``write_report(dump_dir)`` writes ``<dump_dir>/report/index.html`` (the landing page),
one page per cache entry and one per graph or kernel file. Every page holds its own
style sheet and script: opened from ``file://`` it requests nothing. No torch import.
"""
import os

from ..dump_index import NotADump, read_index
from .model import Dump

__all__ = ["write_report", "ReportError"]


class ReportError(Exception):
    """The directory is not a dump the report can read; the message says why."""


def load_dump(dump_dir) -> Dump:
    try:
        return Dump(dump_dir, read_index(dump_dir))
    except NotADump as e:
        raise ReportError(str(e)) from None


def write_report(dump_dir, out_dir=None) -> str:
    """Write the report of the dump in ``dump_dir`` to ``out_dir`` (default ``dump_dir/report``);
    returns the path of its ``index.html``."""
    from .pages import Report
    dump = load_dump(dump_dir)
    out = os.path.abspath(out_dir if out_dir is not None else os.path.join(dump_dir, "report"))
    os.makedirs(out, exist_ok=True)
    for name, text in Report(dump, out).pages():
        tmp = os.path.join(out, "." + name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, os.path.join(out, name))  # a page is never seen half written
    return os.path.join(out, "index.html")
