"""The report's pages as HTML text: the landing page, one page per entry, one per graph file."""
import html
import json
import os
import pathlib

from . import assets, highlight
from ..torch import naming  # (names only: no torch import)
from .model import group_guards, line_links

STAGE_NAMES = {
    "captured": "Dynamo's captured graph",
    "ddp_split": "DDP bucket split (the graph torch runs)",
    "ddp_submod": "DDP bucket submodule",
    "aot_joint": "AOT joint graph",
    "aot_forward": "AOT forward graph",
    "aot_backward": "AOT backward graph",
    "post_grad": "Inductor post-grad graph",
    "kernel": "Inductor output code",
}
STAGE_ORDER = list(STAGE_NAMES)


def esc(text) -> str:
    return html.escape("" if text is None else str(text))


def attr(text) -> str:
    return html.escape("" if text is None else str(text), quote=True)


def ordinal(k: int) -> str:
    n = k + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "%d%s" % (n, suffix)


plural = naming.count

# the report's totals, singular (their keys, the data-total attributes, are plural)
TOTAL_ONE = {"functions": "function", "resume functions": "resume function", "entries": "entry",
             "recompiles": "recompile", "graphs": "graph", "graph breaks": "graph break", "errors": "error"}


def page(title, body, css_extra=""):
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<title>%s</title><style>%s%s</style></head><body>%s<script>%s</script></body></html>\n"
            % (esc(title), assets.CSS, css_extra, body, assets.JS))


def where(fn):
    if not fn.source_file:
        return ""
    return "%s:%s" % (os.path.basename(fn.source_file), fn.first_line) if fn.first_line else \
        os.path.basename(fn.source_file)


def reason_items(reason):
    """torch's reasons for an entry, one per failed entry ("; "-separated in the index)."""
    if not reason:
        return []
    return [r.strip() for r in str(reason).split("; ") if r.strip()]


def stage_label(g):
    """The stage's name, with the DDP submodule a graph belongs to (``submod_<k>``)."""
    name = STAGE_NAMES.get(g.get("stage"), g.get("stage"))
    return "%s, %s" % (name, g["submod"]) if g.get("submod") else name


def stage_rank(g):
    stage = g.get("stage")
    return (STAGE_ORDER.index(stage) if stage in STAGE_ORDER else len(STAGE_ORDER), g.get("file") or "")


class Report:
    """Builds every page of one report (see :func:`unveil.report.write_report`)."""

    def __init__(self, dump, out_dir):
        self.dump = dump
        self.out = out_dir
        self.graph_pages = {}  # dump file name -> page name
        self.code_css = highlight.css(".code")
        for fn in dump.functions:
            for e in fn.entries:
                e.page = "entry_%d_%s.html" % (fn.number, e.index if isinstance(e.index, int) else e.position)
        self.guard_ids = {}  # guard line -> its index in the landing page's table
        self.callers = {}  # compiled fn -> entries that call it
        for e in dump.entries():
            for cf in e.compiled_fns:
                self.callers.setdefault(cf, []).append(e)
        for k, g in enumerate(dump.graphs):
            f = g.get("file")
            if f and f not in self.graph_pages:
                self.graph_pages[f] = "graph_%d.html" % k

    def raw_link(self, name):
        """Relative link from the report to a file of the dump."""
        path = os.path.join(self.dump.path, os.path.basename(name))
        try:
            return os.path.relpath(path, self.out).replace(os.sep, "/")
        except ValueError:  # another drive (Windows): an absolute file:// link
            return pathlib.Path(path).as_uri()

    def pages(self):
        """(file name, html) of every page."""
        yield "index.html", self.landing()
        for fn in self.dump.functions:
            for e in fn.entries:
                yield e.page, self.entry_page(e)
        done = set()
        for g in self.dump.graphs:
            name = self.graph_pages.get(g.get("file"))
            if name and name not in done:
                done.add(name)
                yield name, self.graph_page(g)

    # -- landing page ------------------------------------------------------
    def landing(self):
        d = self.dump
        out = ["<header><h1>unveil report</h1><div class=\"meta\">%s &middot; torch %s &middot; unveil %s</div></header><main>"
               % (esc(d.path), esc(d.index.get("torch", "?")), esc(d.index.get("unveil", "?")))]
        out.append("<div class=\"totals\" id=\"totals\">")
        for name, n in d.totals().items():
            out.append("<div class=\"total\" data-total=\"%s\"><b>%d</b>%s</div>"
                       % (attr(name), n, esc(TOTAL_ONE.get(name, name) if n == 1 else name)))
        out.append("</div>")
        out.append("<input id=\"search\" type=\"search\" placeholder=\"Filter functions, entries, guards "
                   "(e.g. L['b'] == 2)\" autocomplete=\"off\"> <span id=\"search-count\" class=\"muted\"></span>")
        out.append("<h2 id=\"functions\">Compiled functions</h2>")
        out.append("<p class=\"muted\">Entries are listed in the order torch checks them on a call: the first "
                   "entry whose guard holds runs.</p>")
        shown = set()
        for fn in d.functions:
            if fn.resume_of is None:
                out.append(self.function_block(fn, shown))
        for fn in d.functions:  # resume functions whose caller is not in the dump
            if id(fn) not in shown:
                out.append(self.function_block(fn, shown))
        out.append(self.guard_table())
        out.append(self.timeline())
        out.append(self.graph_breaks())
        out.append(self.recompiles())
        out.append(self.errors())
        out.append("</main>")
        return page("unveil report: %s" % os.path.basename(d.path), "".join(out))

    def function_block(self, fn, shown, depth=0):
        shown.add(id(fn))
        cls = "fn resume" if fn.resume_of is not None else "fn"
        title = esc(fn.title)
        sub = []
        if fn.torch_names:
            sub.append("torch: %s" % ", ".join("<code>%s</code>" % esc(n) for n in fn.torch_names))
        if fn.resume_of is not None:
            sub.append("run after a graph break in %s" % esc(fn.resume_of.title))
        if where(fn):
            sub.append(esc(where(fn)))
        sub.append(plural(len(fn.entries), "entry", "entries"))
        search = " ".join([fn.title, fn.name, fn.qualname, where(fn)] + fn.torch_names)
        out = ["<div class=\"%s\" data-fn=\"%d\" data-search=\"%s\"><h3>%s <small>%s</small></h3>"
               % (cls, fn.number, attr(search), title, " &middot; ".join(sub))]
        out.append("<table><thead><tr><th>checked</th><th>compile id</th><th>entry</th><th>why compiled</th>"
                   "<th>what its guard checks (differs from the other entries)</th><th>graphs</th><th>resumes in</th>"
                   "</tr></thead><tbody>")
        for e in fn.entries:
            out.append(self.entry_row(e))
        out.append("</tbody></table>")
        for target in fn.resumes:
            if id(target) not in shown and depth < 20:
                out.append(self.function_block(target, shown, depth + 1))
        out.append("</div>")
        return "".join(out)

    def entry_row(self, e):
        differing, _ = group_guards(e, e.fn.entries)
        key = differing[:3]
        guard = "<br>".join("<code>%s</code>" % esc(self.stack_note(e, g)) for g in key) if key else \
            "<span class=\"muted\">%s</span>" % plural(len(e.guard), "condition")
        if len(differing) > 3:
            guard += " <span class=\"muted\">+%d</span>" % (len(differing) - 3)
        why = "<br>".join(esc(self.stack_note(e, r)) for r in reason_items(e.reason)) \
            or "<span class=\"muted\">first compilation</span>"
        if e.error:
            why += "<div class=\"err\">unveil: %s</div>" % esc(str(e.error).splitlines()[0][:200])
        graphs = ", ".join("<a href=\"%s\">%s</a>" % (attr(self.graph_pages[g["file"]]), esc(cf))
                           for cf in e.compiled_fns for g in sorted(self.dump.graphs_of.get(cf, []), key=stage_rank)[:1]
                           if g.get("file") in self.graph_pages) or "<span class=\"muted\">-</span>"
        resumes = ", ".join(self.resume_links(e)) or "<span class=\"muted\">-</span>"
        search = " ".join([e.label, e.fn.title, e.fn.name, str(e.reason or ""), " ".join(e.compiled_fns),
                           " ".join(e.resume_functions), e.transformed_file or ""])
        ids = " ".join(str(self.guard_id(g)) for g in e.guard)
        return ("<tr class=\"entry\" data-search=\"%s\" data-guards=\"%s\"><td>%s</td><td><a class=\"cid entry-link\" href=\"%s\">%s</a></td>"
                "<td>entry %s</td><td>%s</td><td>%s<div class=\"hits\"></div></td><td>%s</td><td>%s</td></tr>"
                % (attr(search), ids, ordinal(e.position), attr(e.page), esc(e.label),
                   esc(e.index), why, guard, graphs, resumes))

    def guard_id(self, line):
        """Index of a guard line in the landing page's table of distinct lines (entries of one
        frame share most of their lines: each is written once)."""
        k = self.guard_ids.get(line)
        if k is None:
            k = self.guard_ids[line] = len(self.guard_ids)
        return k

    def guard_table(self):
        # no "<" at all inside the script element: neither "</script>" nor "<!--" can end or bend it
        text = json.dumps(list(self.guard_ids), separators=(",", ":")).replace("<", "\\u003c")
        return "<script type=\"application/json\" id=\"guard-lines\">%s</script>" % text

    def resume_links(self, e):
        out = []
        for name in e.resume_functions:
            target = self.dump.by_name.get(name)
            if target is None or not target.entries:
                out.append(self.named(name))
                continue
            out.append("%s: %s" % (self.named(name), " ".join(
                "<a class=\"cid\" href=\"%s\">%s</a>" % (attr(t.page), esc(t.label)) for t in target.entries)))
        return out

    def named(self, name):
        """A function the index names by torch's ``name``: its display name, ``name`` beside it."""
        target = self.dump.by_name.get(name)
        if target is None or target.title == name:
            return "<code>%s</code>" % esc(name)
        return "%s <span class=\"muted\">(torch: <code>%s</code>)</span>" % (esc(target.title), esc(name))

    @staticmethod
    def stack_note(e, text):
        """A guard line or reason of entry ``e``, saying what the Dynamo stack values it names are."""
        return naming.with_stack_values(text, e.fn.stack_values)

    def timeline(self):
        entries = self.dump.timeline()
        out = ["<h2 id=\"timeline\">Compile timeline</h2>"]
        if not entries:
            return out[0] + "<p class=\"muted\">No compiles.</p>"
        times = [e.compiled_ns for e in entries if e.compiled_ns is not None]
        t0 = min(times) if times else 0
        span = (max(times) - t0) if times else 0
        out.append("<p class=\"muted\">In the order the entries were compiled (when their transformed file "
                   "was written).</p><table><thead><tr><th>#</th><th>at</th><th>compile id</th><th>function</th>"
                   "<th>why</th><th style=\"width:30%\"></th></tr></thead><tbody>")
        for k, e in enumerate(entries):
            at = "+%.0f ms" % ((e.compiled_ns - t0) / 1e6) if e.compiled_ns is not None else "?"
            left = 100.0 * (e.compiled_ns - t0) / span if span and e.compiled_ns is not None else 0
            why = esc(reason_items(e.reason)[0]) if e.reason else "<span class=\"muted\">first compilation</span>"
            out.append("<tr><td>%d</td><td class=\"mono\">%s</td><td><a class=\"cid\" href=\"%s\">%s</a></td>"
                       "<td>%s</td><td>%s</td><td><div class=\"bar\" style=\"margin-left:%.1f%%;width:2px\"></div></td></tr>"
                       % (k + 1, at, attr(e.page), esc(e.label), esc(e.fn.title), why, min(left, 99.0)))
        out.append("</tbody></table>")
        return "".join(out)

    def graph_breaks(self):
        breaks = self.dump.graph_breaks
        out = ["<h2 id=\"graph-breaks\">Graph breaks (%d)</h2>" % len(breaks)]
        if not breaks:
            out.append("<p class=\"muted\">None.</p>")
        for b in breaks:
            out.append("<div class=\"break\"><h3>%s <small class=\"mono\">%s</small></h3><pre>%s</pre></div>"
                       % (self.named(b.get("function")), esc(b.get("location") or ""), esc(b.get("reason"))))
        return "".join(out)

    def recompiles(self):
        rows = [e for e in self.dump.entries() if e.reason]
        out = ["<h2 id=\"recompiles\">Recompile reasons (%d)</h2>" % len(rows)]
        if not rows:
            return out[0] + "<p class=\"muted\">None: every function was compiled once.</p>"
        out.append("<table><tbody>")
        for e in sorted(rows, key=lambda e: (e.fn.number, e.compiled_ns or 0)):
            out.append("<tr><td><a class=\"cid\" href=\"%s\">%s</a></td><td>%s</td><td>%s</td></tr>"
                       % (attr(e.page), esc(e.label), esc(e.fn.title),
                          "<br>".join(esc(self.stack_note(e, r)) for r in reason_items(e.reason))))
        out.append("</tbody></table>")
        return "".join(out)

    def errors(self):
        errs = self.dump.errors
        if not errs:
            return ""
        out = ["<h2 id=\"errors\">Errors inside unveil (%d)</h2><p class=\"muted\">The program's results are "
               "unaffected: torch ran Dynamo's own code where unveil failed.</p><ul>" % len(errs)]
        for err in errs:
            out.append("<li><b>%s</b><pre>%s</pre></li>" % (esc(err.get("where")), esc(err.get("message"))))
        out.append("</ul>")
        return "".join(out)

    # -- entry page --------------------------------------------------------
    def entry_page(self, e):
        fn = e.fn
        n = len(fn.entries)
        out = ["<header><nav><a href=\"index.html\">report</a> &rsaquo; <a href=\"index.html#functions\">%s</a> "
               "&rsaquo; %s</nav><h1>%s <span class=\"cid\">%s</span></h1><div class=\"meta\">entry %s of %s "
               "&middot; checked %s of %d &middot; compile id %s%s</div></header><main>"
               % (esc(fn.title), esc(e.label), esc(fn.title), esc(e.label), esc(e.index), esc(naming.with_torch_names(fn.title, *fn.torch_names)),
                  ordinal(e.position), n, esc(e.compile_id or "?"),
                  " &middot; %s" % esc(where(fn)) if where(fn) else "")]
        if n > 1:
            out.append("<p>Entries of %s in the order torch checks them: %s</p>" % (esc(fn.title), " ".join(
                ("<b class=\"cid\">%s</b>" if s is e else "<a class=\"cid\" href=\"%s\">%%s</a>" % attr(s.page))
                % esc(s.label) for s in fn.entries)))
        out.append("<h2 id=\"why\">Why it was compiled</h2>")
        reasons = reason_items(e.reason)
        if reasons:
            out.append("<p>For the call that compiled it, the guards of earlier entries failed:</p><ul id=\"reasons\">%s</ul>"
                       % "".join("<li><code>%s</code></li>" % esc(self.stack_note(e, r)) for r in reasons))
        elif fn.resume_of is not None:
            out.append("<p id=\"reasons\">First call of this resume function: %s jumped here after a graph break.</p>"
                       % esc(fn.resume_of.title))
            out.append(self.breaks_html(fn.root()))
        else:
            out.append("<p id=\"reasons\">First compilation of %s.</p>" % esc(fn.title))
        if e.error:
            out.append("<p class=\"err\">unveil could not make this entry debuggable; torch runs Dynamo's own "
                       "bytecode for it:</p><pre>%s</pre>" % esc(e.error))
        out.append(self.guard_html(e))
        out.append(self.code_html(e))
        out.append(self.graphs_html(e))
        out.append(self.resumes_html(e))
        files = [(e.transformed_file, "transformed code")] if e.transformed_file else []
        if fn.full_code:
            files.append((fn.full_code, "the whole story of %s" % fn.title))
        out.append("<h2 id=\"files\">Files in the dump</h2><ul>%s</ul>" % "".join(
            "<li><a href=\"%s\">%s</a> <span class=\"muted\">%s</span></li>" % (attr(self.raw_link(f)), esc(f), esc(w))
            for f, w in files))
        out.append("</main>")
        return page("%s %s" % (fn.title, e.label), "".join(out), self.code_css)

    def breaks_html(self, fn):
        out = []
        for b in self.dump.breaks_of(fn):
            out.append("<div class=\"break\"><b>Graph break</b> <span class=\"mono\">%s</span><pre>%s</pre></div>"
                       % (esc(b.get("location") or ""), esc(b.get("reason"))))
        return "".join(out)

    def guard_html(self, e):
        differing, groups = group_guards(e, e.fn.entries)
        out = ["<h2 id=\"guard\">Guard (%s)</h2>" % plural(len(e.guard), "condition")]
        if not e.guard:
            out.append("<p class=\"muted\">No guard recorded.</p>")
            return "".join(out)
        if len(e.fn.entries) > 1:
            out.append("<h3>What sets it apart from the other entries of %s</h3>" % esc(e.fn.title))
            if differing:
                out.append("<ul class=\"guards differs\" id=\"guard-differs\">%s</ul>"
                           % "".join("<li>%s</li>" % esc(self.stack_note(e, g)) for g in differing))
            else:
                out.append("<p class=\"muted\" id=\"guard-differs\">Nothing: every condition is shared with another entry.</p>")
        # a long guard is folded (one click opens it) so the code stays near the top of the page
        out.append("<details%s><summary><b>Every condition, by what it checks</b> (%s)</summary><div id=\"guard-all\">"
                   % (" open" if len(e.guard) <= 8 or len(e.fn.entries) == 1 else "",
                      plural(len(groups), "group")))
        for subject, lines in groups:
            out.append("<h4>%s</h4><ul class=\"guards\">%s</ul>" % (esc(subject), "".join(
                "<li%s>%s</li>" % (" class=\"d\"" if g in differing else "", esc(self.stack_note(e, g)))
                for g in lines)))
        out.append("</div></details>")
        return "".join(out)

    def code_html(self, e):
        fn = e.fn
        links = line_links(self.dump, e)
        back = {}
        for t, origs in links.items():
            for o in origs:
                back.setdefault(o, []).append(t)
        out = ["<h2 id=\"code\">Original source and transformed code</h2>"
               "<p class=\"legend\">Click a line: the lines it corresponds to on the other side are highlighted "
               "(links derived from the graph's source lines and the names each line uses). Torch runs the "
               "code compiled from the transformed file: breakpoints set there are hit.</p><div class=\"sbs\">"]
        if fn.original:
            first, text = fn.original
            label = "original source of %s" % fn.root().title
            if fn.root().source_file:
                label += " (%s)" % os.path.basename(fn.root().source_file)
            out.append(self.code_pane("original", label, text, first, "o", back, "t", self.dump.break_lines(fn)))
        else:
            out.append("<div class=\"pane\" id=\"original\"><h3>original source</h3><p class=\"muted\">"
                       "Not available.</p></div>")
        if e.transformed_text is not None:
            out.append(self.code_pane("transformed", e.transformed_file, e.transformed_text, 1, "t", links, "o"))
        else:
            out.append("<div class=\"pane\" id=\"transformed\"><h3>transformed code</h3><p class=\"muted\">"
                       "No transformed file.</p></div>")
        out.append("</div>")
        return "".join(out)

    def code_pane(self, pane_id, label, text, first, prefix, links, other, breaks=None):
        """A file's lines, each linked to the ``other`` pane's lines ``links`` names; the lines
        in ``breaks`` ({line: graph breaks}) are marked as where the graph broke."""
        body = text[:-1] if text.endswith("\n") else text
        out = ["<div class=\"pane\" id=\"%s\"><h3>%s</h3><div class=\"code\">" % (pane_id, esc(label))]
        for k, frag in enumerate(highlight.lines(body)):
            n = first + k
            targets = links.get(n)
            here = (breaks or {}).get(n)
            cls = "ln" + (" linked" if targets else "") + (" gb" if here else "")
            data = " data-l=\"%s\"" % " ".join("%s%d" % (other, t) for t in targets) if targets else ""
            mark = ""
            if here:
                causes = "; ".join(str(b.get("cause") or b.get("reason") or "").strip().split("\n")[0] for b in here)
                data += " title=\"%s\"" % attr("graph break: " + causes)
                mark = "<span class=\"gbm\">graph break</span>"
            out.append("<div class=\"%s\" id=\"%s%d\"%s><span class=\"lno\">%d</span><span class=\"src\">%s</span>%s</div>"
                       % (cls, prefix, n, data, n, frag, mark))
        out.append("</div></div>")
        return "".join(out)

    def graphs_html(self, e):
        out = ["<h2 id=\"graphs\">Graphs and Inductor code</h2>"]
        if not e.compiled_fns:
            return out[0] + "<p class=\"muted\">This entry calls no compiled graph.</p>"
        out.append("<table><thead><tr><th>graph</th><th>stage</th><th>file</th></tr></thead><tbody>")
        for cf in e.compiled_fns:
            gs = sorted(self.dump.graphs_of.get(cf, []), key=stage_rank)
            if not gs:
                out.append("<tr><td><code>%s</code></td><td colspan=\"2\" class=\"muted\">not captured (compiled "
                           "before the dump started)</td></tr>" % esc(cf))
            for g in gs:
                out.append("<tr><td><code>%s</code></td><td>%s</td><td><a class=\"graph\" href=\"%s\">%s</a></td></tr>"
                           % (esc(cf), esc(stage_label(g)),
                              attr(self.graph_pages.get(g.get("file"), "")), esc(g.get("file"))))
        out.append("</tbody></table>")
        return "".join(out)

    def resumes_html(self, e):
        if not e.resume_functions:
            return ""
        out = ["<h2 id=\"resume\">Resume functions</h2><p>After its graph break this entry calls the rest of the "
               "function, which Dynamo compiles on its own:</p><ul>"]
        for link in self.resume_links(e):
            out.append("<li>%s</li>" % link)
        out.append("</ul>")
        return "".join(out)

    # -- graph page --------------------------------------------------------
    def graph_page(self, g):
        f = g.get("file")
        cf = g.get("compiled_fn")
        text = self.dump.file_text(f)
        users = self.callers.get(cf, [])
        out = ["<header><nav><a href=\"index.html\">report</a> &rsaquo; %s</nav><h1>%s <small class=\"muted\">%s</small>"
               "</h1><div class=\"meta\">%s &middot; <a href=\"%s\">%s</a></div></header><main>"
               % (esc(cf), esc(cf), esc(stage_label(g)),
                  "called by " + (", ".join("<a class=\"cid\" href=\"%s\">%s</a> %s" % (attr(e.page), esc(e.label),
                                                                                          esc(e.fn.title))
                                            for e in users) or "no entry in the dump"),
                  attr(self.raw_link(f)), esc(f))]
        others = sorted((x for x in self.dump.graphs_of.get(cf, []) if x.get("file") != f), key=stage_rank)
        if others:
            out.append("<p>Other stages: %s</p>" % ", ".join(
                "<a href=\"%s\">%s</a>" % (attr(self.graph_pages.get(x.get("file"), "")),
                                           esc(stage_label(x))) for x in others))
        if text is None:
            out.append("<p class=\"err\">The file is missing from the dump.</p>")
        else:
            if not highlight.highlighted(text):
                out.append("<p class=\"muted\">Shown without colours: %s (%d KB; colouring files this large "
                           "would make the report slow to write).</p>" % (esc(f), len(text) // 1000)
                           if highlight.available() else "<p class=\"muted\">Shown without colours "
                           "(pip install 'unveil[report]' for Pygments).</p>")
            out.append("<div class=\"pane\" id=\"graph\" style=\"max-height:none\"><h3>%s</h3>%s</div>"
                       % (esc(f), self.plain_code(text)))
        out.append("</main>")
        return page("%s %s" % (cf, g.get("stage")), "".join(out), self.code_css)

    def plain_code(self, text):
        """A whole file: a gutter of line numbers beside one <pre> (graphs run to thousands of
        lines; three elements per line would make their pages slow to open)."""
        body = text[:-1] if text.endswith("\n") else text
        frags = highlight.lines(body)
        return ("<div class=\"code whole\"><pre class=\"gutter\">%s</pre><pre class=\"body\">%s</pre></div>"
                % ("\n".join(str(k) for k in range(1, len(frags) + 1)), "\n".join(frags)))
