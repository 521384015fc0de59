"""Reading a dump's ``index.json``: the one check every reader of a dump shares (``unveil
show``, ``unveil report``, the comparison of per-rank dumps). No torch import."""
import json
import os


class NotADump(Exception):
    """``path`` is not a dump unveil can read; the message says why, in one line."""


def read_index(path) -> dict:
    """The parsed ``index.json`` of the dump directory ``path``; NotADump otherwise."""
    if not os.path.exists(path):
        raise NotADump("no such directory: %s" % path)
    if not os.path.isdir(path):
        raise NotADump("%s is not a directory (expected an unveil dump directory)" % path)
    index_path = os.path.join(path, "index.json")
    if not os.path.isfile(index_path):
        raise NotADump("%s is not an unveil dump (no index.json in it)" % path)
    try:
        with open(index_path, encoding="utf-8") as f:
            index = json.load(f)
    except (OSError, ValueError) as e:
        raise NotADump("%s is not a readable unveil index: %s" % (index_path, " ".join(str(e).split())))
    if not isinstance(index, dict) or "format" not in index:
        raise NotADump("%s is not an unveil index (no \"format\" field)" % index_path)
    if index["format"] != 1:
        raise NotADump("%s has dump format %r; this unveil reads format 1" % (index_path, index["format"]))
    for key in ("functions", "graphs", "graph_breaks", "errors"):
        if not isinstance(index.get(key, []), list):
            raise NotADump("%s is malformed: %r is not a list" % (index_path, key))
    return index
