"""The report's style sheet and script, inlined in every page (the report makes no request)."""

CSS = """
:root{--fg:#1d2330;--muted:#5b6475;--line:#dde2ea;--bg:#fff;--soft:#f5f7fa;--acc:#2456c4;--hl:#fff2a8;--bad:#b3261e}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:14px 24px;border-bottom:1px solid var(--line);background:var(--soft)}
header h1{margin:0;font-size:20px}
header .meta,nav{color:var(--muted);font-size:13px}
main{padding:8px 24px 40px;max-width:1600px}
h2{font-size:17px;margin:26px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:16px 0 6px}
h4{font-size:13px;margin:10px 0 4px;color:var(--muted);font-family:ui-monospace,monospace}
a{color:var(--acc);text-decoration:none}a:hover{text-decoration:underline}
code,pre,.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:12.5px}
pre{white-space:pre-wrap;margin:4px 0;background:var(--soft);padding:8px;border-radius:4px;border:1px solid var(--line)}
.cid{font-family:ui-monospace,monospace;font-weight:600;color:#7a3e00}
.totals{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}
.total{border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:90px;background:var(--soft)}
.total b{display:block;font-size:20px}
#search{width:100%;max-width:640px;padding:8px 10px;font-size:15px;border:1px solid #b9c2d0;border-radius:6px;margin:10px 0}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid var(--line)}
th{font-size:12px;color:var(--muted);font-weight:600}
.fn{margin:14px 0 22px}
.fn>h3 small,.muted{color:var(--muted);font-weight:normal}
.resume{margin-left:28px;border-left:3px solid var(--line);padding-left:12px}
.hits{font-family:ui-monospace,monospace;font-size:12px;color:#4a5568}
.hits div{background:var(--hl)}
.hidden{display:none}
.bar{height:10px;background:var(--acc);border-radius:2px;opacity:.75;min-width:2px}
.err{color:var(--bad)}
ul.guards{list-style:none;padding-left:0;margin:4px 0}
ul.guards li{font-family:ui-monospace,monospace;font-size:12.5px;padding:2px 6px;border-bottom:1px solid #eef0f4;word-break:break-word}
.differs li{background:#fff6d6}
.sbs{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:12px}
.pane{position:relative;border:1px solid var(--line);border-radius:4px;overflow:auto;max-height:80vh}
.pane h3{margin:0;padding:6px 10px;background:var(--soft);border-bottom:1px solid var(--line);font-size:13px;position:sticky;top:0}
.code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:12.5px;line-height:1.5}
.ln{display:flex;white-space:pre;min-height:1.5em}
.ln>.lno{flex:0 0 3.6em;text-align:right;padding-right:10px;color:#9aa3b2;user-select:none}
.ln>.src{flex:1;padding-right:10px}
.ln.linked{cursor:pointer}
.ln.linked>.lno{color:var(--acc)}
.ln.hl{background:var(--hl)}
.ln:target{background:var(--hl)}
.ln.gb{background:#fdeceb;box-shadow:inset 3px 0 0 var(--bad)}
.gbm{flex:0 0 auto;margin-left:8px;padding:0 6px;border-radius:3px;font:11px system-ui,sans-serif;color:#fff;background:var(--bad);align-self:center}
summary{cursor:pointer;margin:14px 0 6px;font-size:15px}
.whole{display:flex}
.whole pre{margin:0;border:0;border-radius:0;background:none;white-space:pre;padding:0 10px 0 0;font:inherit}
.whole .gutter{text-align:right;color:#9aa3b2;user-select:none;min-width:3.6em}
.legend{font-size:12px;color:var(--muted)}
"""

#: search on the landing page; line links on entry pages
JS = """
(function(){
  var box=document.getElementById('search');
  if(box){
    var table=document.getElementById('guard-lines');
    var lines=table?JSON.parse(table.textContent):[];
    var run=function(){
      var q=box.value.trim().toLowerCase();
      Array.prototype.slice.call(document.querySelectorAll('[data-fn]')).reverse().forEach(function(fn){
        var own=fn.getAttribute('data-search').toLowerCase().indexOf(q)>=0;
        var any=false;
        fn.querySelectorAll(':scope > table > tbody > tr.entry').forEach(function(tr){
          var hits=tr.querySelector('.hits'); hits.innerHTML='';
          var match=!q||own||tr.getAttribute('data-search').toLowerCase().indexOf(q)>=0;
          var ids=(tr.getAttribute('data-guards')||'').split(' ').filter(function(x){return x!=='';});
          if(q){ids.forEach(function(i){var g=lines[+i]||'';if(g.toLowerCase().indexOf(q)>=0){
            var d=document.createElement('div');d.textContent=g;hits.appendChild(d);match=true;}});}
          tr.classList.toggle('hidden',!match); any=any||match;
        });
        var nested=fn.querySelectorAll(':scope > .fn');
        nested.forEach(function(n){ if(!n.classList.contains('hidden')) any=true; });
        fn.classList.toggle('hidden',!(own||any||!q));
      });
      var shown=document.querySelectorAll('tr.entry:not(.hidden)').length;
      var c=document.getElementById('search-count'); if(c){c.textContent=q?shown+' entries match':'';}
    };
    box.addEventListener('input',run);
  }
  var clear=function(){document.querySelectorAll('.ln.hl').forEach(function(e){e.classList.remove('hl');});};
  var light=function(el){
    clear(); el.classList.add('hl');
    var first=null;
    (el.getAttribute('data-l')||'').split(' ').forEach(function(id){
      var o=document.getElementById(id); if(o){o.classList.add('hl'); first=first||o;}
    });
    if(first){  // bring the first linked line into view inside its own pane
      var pane=first.closest('.pane');
      if(pane&&(first.offsetTop<pane.scrollTop||first.offsetTop>pane.scrollTop+pane.clientHeight-30)){
        pane.scrollTop=Math.max(0,first.offsetTop-pane.clientHeight/3);
      }
    }
  };
  document.querySelectorAll('.ln.linked').forEach(function(el){
    el.addEventListener('click',function(){light(el);});
  });
  if(location.hash){var t=document.getElementById(location.hash.slice(1)); if(t&&t.classList.contains('linked')){light(t);}}
})();
"""
