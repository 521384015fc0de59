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
    returns the path of its ``index.html``. A directory of per-rank dumps (``rank_<r>/``,
    written under torch.distributed) gets one report per rank and a page comparing them."""
    from ..ranks import rank_dirs
    out = os.path.abspath(out_dir if out_dir is not None else os.path.join(dump_dir, "report"))
    ranks = rank_dirs(dump_dir)
    if ranks:
        return _write_ranks_report(dump_dir, ranks, out)
    return _write_dump_report(load_dump(dump_dir), out)


def _write_dump_report(dump, out):
    from .pages import Report
    os.makedirs(out, exist_ok=True)
    for name, text in Report(dump, out).pages():
        _write_page(out, name, text)
    return os.path.join(out, "index.html")


def _write_page(out, name, text):
    tmp = os.path.join(out, "." + name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, os.path.join(out, name))  # a page is never seen half written


def _write_ranks_report(parent, ranks, out):
    """Each rank's report under ``out/rank_<r>/``, and ``out/index.html``: the ranks, then the
    functions compiled differently on different ranks (the lines of ``unveil show``)."""
    from ..ranks import divergences
    from .pages import esc, page
    loaded, items = {}, []
    for r, d in ranks.items():
        dump = load_dump(d)  # (read once: for its report and for the comparison)
        _write_dump_report(dump, os.path.join(out, "rank_%d" % r))
        loaded[r] = (d, dump.index)
        items.append('<li><a href="rank_%d/index.html">rank %d</a></li>' % (r, r))
    lines = divergences(loaded)
    body = ("<header><h1>unveil report: %s</h1><p>%d ranks, one dump each</p></header><main>"
            "<h2>Ranks</h2><ul id=\"ranks\">%s</ul><h2>Where the ranks diverge</h2><ul id=\"diverge\">%s</ul>"
            "</main>" % (esc(parent), len(ranks), "".join(items),
                         "".join("<li class=\"diverge\">%s</li>" % esc(l) for l in lines)
                         or "<li>every function was compiled the same way on every rank</li>"))
    os.makedirs(out, exist_ok=True)
    _write_page(out, "index.html", page("unveil report: %d ranks" % len(ranks), body))
    return os.path.join(out, "index.html")
