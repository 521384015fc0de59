"""Dumps written per rank under torch.distributed (``DIR/rank_<r>/``): find them, and say
which functions were compiled differently on different ranks (``unveil show DIR``).
Reads index.json files only; no torch import."""
import os
import re


def rank_dirs(path):
    """{rank: directory} of the per-rank dumps ``path/rank_<r>/`` (written under torch.distributed)."""
    found = {}
    if os.path.isdir(path) and not os.path.isfile(os.path.join(path, "index.json")):
        for name in os.listdir(path):
            if name.startswith("rank_") and name[5:].isdigit() \
                    and os.path.isfile(os.path.join(path, name, "index.json")):
                found[int(name[5:])] = os.path.join(path, name)
    return dict(sorted(found.items()))


def _graph_text(dump_dir, index, compiled_fn):
    """The captured graph of ``compiled_fn`` without unveil's header and graph numbers (they
    differ between ranks for the same graph)."""
    for g in index.get("graphs", []):
        if g.get("compiled_fn") == compiled_fn and g.get("stage") == "captured":
            try:
                with open(os.path.join(dump_dir, g["file"]), encoding="utf-8") as fh:
                    text = fh.read()
            except OSError:
                return None
            body = "".join(l for l in text.splitlines(True)[1:])
            return re.sub(r"__compiled_fn_\d+(_\d+)?", "__compiled_fn_N", body)
    return None


def _failed_guards(entry):
    """The guards an entry's reason says failed, without compile ids and entry numbers."""
    reason = entry.get("reason") or ""
    return sorted({re.sub(r"^.*?failed guard: ", "", part.strip()) for part in reason.split("; ") if part.strip()})


def _rank_profile(dump_dir, index):
    """{function key: (display name, [entry profiles])}; an entry profile is (failed guards, graphs)."""
    out = {}
    for fn in index.get("functions", []):
        key = (fn.get("qualname") or fn.get("name"), fn.get("source_file"), fn.get("first_line"))
        entries = []
        for e in sorted(fn.get("entries", []), key=lambda e: e.get("index", 0)):
            graphs = tuple(_graph_text(dump_dir, index, c) for c in e.get("compiled_fns") or [])
            entries.append((tuple(_failed_guards(e)), graphs))
        # (the function's display name, torch's names beside it: unveil.torch.naming, no torch import)
        from .torch.naming import heading_of
        name = heading_of(fn) + ("  %s:%s" % (key[1], key[2]) if key[1] else "")
        out.setdefault(key, (name, []))[1].extend(entries)
    return out


def divergences(ranks):
    """Lines "diverge: ..." for every function whose cache entries differ between ranks:
    ``ranks`` is {rank: (dump dir, index)}."""
    profiles = {r: _rank_profile(d, index) for r, (d, index) in ranks.items()}
    keys = []
    for prof in profiles.values():
        keys += [k for k in prof if k not in keys]
    lines = []
    for key in keys:
        having = [r for r in ranks if key in profiles[r]]
        name = next(profiles[r][key][0] for r in having)
        if len(having) != len(ranks):
            lines.append("diverge: %s compiled on rank%s %s only (not on %s)" % (
                name, "s" if len(having) > 1 else "", ", ".join(map(str, having)),
                ", ".join(str(r) for r in ranks if r not in having)))
            continue
        per_rank = {r: profiles[r][key][1] for r in having}
        counts = {r: len(e) for r, e in per_rank.items()}
        if len(set(counts.values())) > 1:
            parts = ", ".join("rank %d: %s" % (r, "%d %s" % (n, "entry" if n == 1 else "entries"))
                              for r, n in counts.items())
            most = max(counts.values())
            why = []
            for r, entries in per_rank.items():
                for failed, _ in entries[min(counts.values()):]:
                    if failed and counts[r] == most:
                        why.append("rank %d recompiled because %s" % (r, "; ".join(failed)))
            lines.append("diverge: %s: %s%s" % (name, parts, ("; " + "; ".join(why)) if why else ""))
            continue
        reasons = {r: [f for f, _ in e] for r, e in per_rank.items()}
        if len({tuple(v) for v in reasons.values()}) > 1:
            lines.append("diverge: %s: different failed guards: %s" % (name, "; ".join(
                "rank %d: %s" % (r, " | ".join("; ".join(f) for f in v if f) or "(none)")
                for r, v in reasons.items())))
            continue
        graphs = {r: [g for _, g in e] for r, e in per_rank.items()}
        if len({repr(v) for v in graphs.values()}) > 1:
            lines.append("diverge: %s: different graphs on ranks %s" % (name, ", ".join(map(str, having))))
    return lines
