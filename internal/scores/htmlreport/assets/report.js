"use strict";
// BFCL report: renders the embedded data on demand. Routes (URL fragment):
//   #leaderboard                     every model, overall and group scores, cost, latency
//   #compare/<A>/<B>                 two models side by side
//   #model/<M>                       accuracy chart and error types per category
//   #list/<M>?cat=&group=&et=&cls=&st=&q=   filtered entry list
//   #entry/<M>/<id>                  one entry
(function () {
  var D = null;          // the payload
  var S = null;          // summary.json (or null)
  var catByIdx = [];     // category index -> info
  var catByName = {};
  var modelByName = {};
  var lastList = {};     // model -> last list query (j/k context)
  var fnCache = {};

  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      var v = attrs[k];
      if (v == null || v === false) continue;
      if (k === "text") el.textContent = v;
      else if (k === "cls") el.className = v;
      else if (k.slice(0, 2) === "on") el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v);
    }
    for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
    return el;
  }
  function add(el, c) {
    if (c == null || c === false) return;
    if (Array.isArray(c)) { c.forEach(function (x) { add(el, x); }); return; }
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  function enc(s) { return encodeURIComponent(s); }
  function pct(a) { return (a * 100).toFixed(2) + "%"; }
  function num(v, d) { return v == null ? "N/A" : (+v).toFixed(d == null ? 2 : d); }
  function js(v) { return typeof v === "string" ? v : JSON.stringify(v); }
  function parse(s) { if (typeof s !== "string") return s; try { return JSON.parse(s); } catch (e) { return s; } }

  // ---------- data ----------
  function b64bytes(s) {
    var bin = atob(s), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function load() {
    var node = document.getElementById("bfcl-data");
    var bytes = b64bytes(node.textContent.trim());
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser has no DecompressionStream (needed to read the embedded data)"));
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }
  function init(p) {
    D = p; S = p.summary;
    p.cats.forEach(function (c, i) { catByIdx[i] = c; catByName[c.name] = c; });
    p.models.forEach(function (m) {
      modelByName[m.name] = m;
      m.byId = {};
      m.rows.forEach(function (r, i) { m.byId[r[0]] = i; });
    });
    document.title = p.title;
  }
  function summaryOf(model) {
    if (!S || !S.models) return null;
    for (var i = 0; i < S.models.length; i++) if (S.models[i].model === model) return S.models[i];
    return null;
  }
  function groupOf(sm, name) {
    if (!sm) return null;
    for (var i = 0; i < sm.groups.length; i++) if (sm.groups[i].name === name) return sm.groups[i];
    return null;
  }
  function catSummary(sm, cat) {
    if (!sm) return null;
    for (var i = 0; i < sm.categories.length; i++) if (sm.categories[i].category === cat) return sm.categories[i];
    return null;
  }
  function failOf(m, r) { return r[4] >= 0 ? D.fails[r[4]] : null; }
  function resultOf(r) { return r[5] >= 0 ? parse(D.results[r[5]]) : null; }
  function scoreLine(f) { if (!f._s) f._s = f.s; return f._s; }

  // ---------- accuracy cells (numbers from summary.json, never recomputed) ----------
  function ciOf(a) {
    var c = a && (a.ci95 || a.ci);
    if (!c || c.length !== 2) return null;
    var lo = +c[0], hi = +c[1];
    if (hi > 1.0000001) { lo /= 100; hi /= 100; }
    return [lo, hi];
  }
  function accCell(a, cls, noBar) {
    var td = h("td", { cls: "num " + (cls || "") });
    if (!a) { td.textContent = "—"; return td; }
    if (a.evaluated === false) { td.textContent = a.display || "N/A"; td.className += " muted"; return td; }
    var ci = ciOf(a);
    if (!noBar) {
      var bar = h("span", { cls: "bar" }, h("i", { style: "width:" + (a.accuracy * 100).toFixed(2) + "%" }));
      if (ci) bar.appendChild(h("b", { style: "left:" + (ci[0] * 100).toFixed(2) + "%;width:" + ((ci[1] - ci[0]) * 100).toFixed(2) + "%" }));
      td.appendChild(bar);
    }
    td.appendChild(h("span", { cls: "v", text: a.display }));
    if (ci) add(td, h("div", { cls: "ci", title: "95% interval", text: noBar ? pct(ci[0]) + " – " + pct(ci[1]) : "95% CI " + pct(ci[0]) + " – " + pct(ci[1]) }));
    td.dataset.sort = a.accuracy;
    return td;
  }

  // ---------- navigation ----------
  function nav(active) {
    var n = document.getElementById("nav");
    n.textContent = "";
    var items = [["Leaderboard", "#leaderboard", "leaderboard"]];
    D.models.forEach(function (m) { items.push([m.name, "#model/" + enc(m.name), "model/" + m.name]); });
    if (D.models.length > 1) items.push(["Compare", "#compare/" + enc(D.models[0].name) + "/" + enc(D.models[1].name), "compare"]);
    items.forEach(function (it) { n.appendChild(h("a", { href: it[1], cls: active === it[2] ? "on" : "" , text: it[0]})); });
  }
  function setWhere(t) { document.getElementById("where").textContent = t || ""; }

  function route() {
    var hash = location.hash.slice(1) || "leaderboard";
    var q = {}, qi = hash.indexOf("?");
    if (qi >= 0) {
      hash.slice(qi + 1).split("&").forEach(function (kv) {
        if (!kv) return; var i = kv.indexOf("=");
        var k = kv.slice(0, i < 0 ? kv.length : i), v = i < 0 ? "" : kv.slice(i + 1);
        q[decodeURIComponent(k)] = decodeURIComponent(v.replace(/\+/g, " "));
      });
      hash = hash.slice(0, qi);
    }
    var parts = hash.split("/").map(function (x) { return decodeURIComponent(x); });
    var main = document.getElementById("main");
    main.textContent = "";
    activeList = null;
    window.scrollTo(0, 0);
    try {
      switch (parts[0]) {
        case "compare": viewCompare(main, parts[1], parts[2]); break;
        case "model": viewModel(main, parts[1]); break;
        case "list": viewList(main, parts[1], q); break;
        case "entry": viewEntry(main, parts[1], parts.slice(2).join("/")); break;
        default: viewLeaderboard(main);
      }
    } catch (e) {
      main.appendChild(h("p", { cls: "error", text: "Cannot show " + location.hash + ": " + e.message }));
      main.appendChild(h("p", { id: "way-back" }, h("a", { href: "#leaderboard", text: "← back to the leaderboard" }),
        history.length > 1 ? " · " : null,
        history.length > 1 ? h("a", { href: "#", onclick: function (ev) { ev.preventDefault(); history.back(); }, text: "back to the previous page" }) : null));
    }
  }

  // ---------- leaderboard ----------
  var GROUPS = [
    ["non_live", "Non-Live"], ["live", "Live"], ["irrelevance", "Irrelevance"], ["multi_turn", "Multi Turn"],
    ["agentic", "Agentic"], ["web_search", "Web Search"], ["memory", "Memory"], ["relevance", "Relevance"]
  ];
  function sortable(table) {
    var ths = table.querySelectorAll("th");
    ths.forEach(function (th, col) {
      if (!th.classList.contains("sort")) return;
      th.addEventListener("click", function () {
        var asc = th.classList.contains("sorted") && !th.classList.contains("asc");
        ths.forEach(function (x) { x.classList.remove("sorted", "asc"); });
        th.classList.add("sorted"); if (asc) th.classList.add("asc");
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col].dataset.sort, y = b.cells[col].dataset.sort;
          var nx = x == null || x === "" ? -Infinity : +x, ny = y == null || y === "" ? -Infinity : +y;
          if (isNaN(nx) || isNaN(ny)) { x = a.cells[col].textContent; y = b.cells[col].textContent; return asc ? x.localeCompare(y) : y.localeCompare(x); }
          return asc ? nx - ny : ny - nx;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }
  function viewLeaderboard(main) {
    nav("leaderboard"); setWhere(D.score_dir);
    add(main, h("h1", { text: "Leaderboard" }));
    if (!S) add(main, h("p", { cls: "error", text: "summary.json is missing in the score folder: group and overall scores are not shown (they are never recomputed here)." }));
    var head = h("tr", null, h("th", { cls: "num", text: "#" }), h("th", { cls: "sort", text: "Model" }),
      h("th", { cls: "sort num", text: "Overall", title: "Overall Acc (upstream's weighted mean)" }));
    GROUPS.forEach(function (g) {
      var gs = S && S.models && S.models[0] ? groupOf(S.models[0], g[0]) : null;
      head.appendChild(h("th", { cls: "sort num", text: g[1], title: gs ? gs.column : g[0] }));
    });
    [["Cost $", "Total Cost ($)"], ["Latency s", "Latency Mean (s)"], ["± std", "Latency Standard Deviation (s)"], ["p95 s", "Latency 95th Percentile (s)"]].forEach(function (t) { head.appendChild(h("th", { cls: "sort num", text: t[0], title: t[1] })); });
    var hasFS = S && S.models && S.models.some(function (m) { return m.format_sensitivity; });
    if (hasFS) [["FS max Δ", "Format Sensitivity Max Delta"], ["FS std", "Format Sensitivity Standard Deviation"]].forEach(function (t) { head.appendChild(h("th", { cls: "sort num", text: t[0], title: t[1] })); });
    var body = h("tbody");
    var models = D.models.slice();
    // A run that scored part of the leaderboard's entries is not ranked
    // beside full runs: it is listed after them, marked partial.
    var full = 0;
    D.cats.forEach(function (c) { if (c.group) full += c.size; });
    function coverage(m) {
      var n = 0;
      D.cats.forEach(function (c) { var s = m.scores[c.name]; if (c.group && s) n += Math.min(s.t, c.size); });
      return n;
    }
    models.sort(function (a, b) {
      var pa = coverage(a) < full, pb = coverage(b) < full;
      if (pa !== pb) return pa ? 1 : -1;
      var sa = summaryOf(a.name), sb = summaryOf(b.name);
      return (sb ? sb.overall.accuracy : -1) - (sa ? sa.overall.accuracy : -1);
    });
    var rank = 0;
    models.forEach(function (m, i) {
      var sm = summaryOf(m.name);
      var n = coverage(m), partial = n < full;
      var unofficial = sm && sm.notes && sm.notes.not_official;
      var tr = h("tr", { "data-model": m.name, "data-partial": partial ? "1" : "0" },
        h("td", { cls: "num", text: partial ? "–" : String(++rank), title: partial ? "not ranked: a partial run" : "" }),
        h("td", { cls: "model" }, h("a", { href: "#model/" + enc(m.name), text: sm && sm.display_name ? sm.display_name : m.name }),
          partial ? h("span", { cls: "badge warn partial", title: "scored " + n + " of the leaderboard's " + full + " entries: its group and overall scores count the rest as 0", text: "partial: " + n + " of " + full }) : null,
          unofficial ? h("span", { cls: "badge bad unofficial", title: unofficial, text: "not official" }) : null,
          sm && sm.display_name && sm.display_name !== m.name ? h("div", { cls: "small muted mono", text: m.name }) : null,
          correctionsNote(sm)),
        accCell(sm && sm.overall, "overall"));
      GROUPS.forEach(function (g) { var c = accCell(groupOf(sm, g[0]), "g-" + g[0], true); tr.appendChild(c); });
      [sm && sm.total_cost_usd, sm && sm.latency_mean_s, sm && sm.latency_std_s, sm && sm.latency_p95_s].forEach(function (v) {
        var td = h("td", { cls: "num", text: v == null ? "N/A" : num(v) }); td.dataset.sort = v == null ? "" : v; tr.appendChild(td);
      });
      if (hasFS) {
        var fs = sm && sm.format_sensitivity;
        [fs && fs.MaxDelta, fs && fs.Std].forEach(function (v) {
          var td = h("td", { cls: "num", text: v == null ? "N/A" : num(v) }); td.dataset.sort = v == null ? "" : v; tr.appendChild(td);
        });
      }
      body.appendChild(tr);
    });
    var t = h("table", { id: "leaderboard" }, h("thead", null, head), body);
    add(main, h("div", { cls: "scroll-x" }, t));
    sortable(t);

    add(main, h("h2", { text: "Categories" }));
    var ch = h("tr", null, h("th", { cls: "sort", text: "Category" }), h("th", { cls: "sort", text: "Group" }));
    D.models.forEach(function (m) { ch.appendChild(h("th", { cls: "sort num", text: m.name })); });
    var cb = h("tbody");
    D.cats.forEach(function (c) {
      var any = D.models.some(function (m) { return m.scores[c.name]; });
      if (!any) return;
      var tr = h("tr", null, h("td", { cls: "mono", text: c.name }), h("td", { cls: "muted", text: c.label }));
      D.models.forEach(function (m) {
        var cs = catSummary(summaryOf(m.name), c.name), s = m.scores[c.name];
        var a = cs || (s ? { accuracy: s.a, display: pct(s.a), evaluated: true } : null);
        var td = accCell(a);
        if (s) {
          td.insertBefore(h("span", { cls: "small fails" }, s.t === s.c ? h("span", { cls: "muted", text: "all " + s.t + " passed" }) : [h("a", { href: "#list/" + enc(m.name) + "?cat=" + enc(c.name) + "&st=fail", text: (s.t - s.c) + " failed" }), " of " + s.t]), td.firstChild);
        }
        tr.appendChild(td);
      });
      cb.appendChild(tr);
    });
    var ct = h("table", { id: "categories", cls: "compact" }, h("thead", null, ch), cb);
    add(main, h("div", { cls: "scroll-x" }, ct));
    sortable(ct);
    if (D.models.length > 1) {
      add(main, h("p", null, h("a", { href: "#compare/" + enc(D.models[0].name) + "/" + enc(D.models[1].name), text: "Compare two models →" })));
    }
  }

  // ---------- compare ----------
  function viewCompare(main, a, b) {
    nav("compare");
    var names = D.models.map(function (m) { return m.name; });
    if (!modelByName[a]) a = names[0];
    if (!modelByName[b]) b = names[1] || names[0];
    setWhere(a + " vs " + b);
    add(main, h("h1", { text: "Compare" }));
    function sel(v, other) {
      var s = h("select", { onchange: function () { location.hash = other ? "#compare/" + enc(sa.value) + "/" + enc(s.value) : "#compare/" + enc(s.value) + "/" + enc(sb.value); } });
      names.forEach(function (n) { s.appendChild(h("option", { value: n, text: n, selected: n === v ? "selected" : null })); });
      return s;
    }
    var sa = sel(a, false), sb = sel(b, true);
    add(main, h("div", { cls: "controls" }, h("label", null, "A ", sa), h("label", null, "B ", sb)));
    var ma = modelByName[a], mb = modelByName[b], A = summaryOf(a), B = summaryOf(b);
    var head = h("tr", null, h("th", { text: "Score" }), h("th", { cls: "num", text: "A: " + a }), h("th", { cls: "num", text: "B: " + b }), h("th", { cls: "num", text: "B − A" }));
    var body = h("tbody");
    function line(label, x, y) {
      var d = x && y && x.evaluated !== false && y.evaluated !== false ? (y.accuracy - x.accuracy) * 100 : null;
      var td = h("td", { cls: "num", text: d == null ? "—" : (d >= 0 ? "+" : "") + d.toFixed(2) + " pp" });
      if (d != null) td.style.color = d > 0 ? "var(--ok)" : d < 0 ? "var(--bad)" : "";
      body.appendChild(h("tr", null, h("td", { text: label }), accCell(x), accCell(y), td));
    }
    line("Overall", A && A.overall, B && B.overall);
    GROUPS.forEach(function (g) { line(g[1], groupOf(A, g[0]), groupOf(B, g[0])); });
    D.cats.forEach(function (c) {
      if (!ma.scores[c.name] && !mb.scores[c.name]) return;
      line(c.name, catSummary(A, c.name) || sc(ma, c.name), catSummary(B, c.name) || sc(mb, c.name));
    });
    add(main, h("table", { id: "compare" }, h("thead", null, head), body));
    statsTable(main, a, b);
    // entries whose outcome differs
    var diff = [];
    ma.rows.forEach(function (r) {
      var j = mb.byId[r[0]]; if (j == null) return;
      var rb = mb.rows[j]; if (rb[2] !== r[2]) diff.push([r, rb]);
    });
    add(main, h("h2", { id: "compare-diff", "data-count": diff.length, text: diff.length + " entries passed by one model and failed by the other" }));
    var items = diff.map(function (p) {
      return { id: p[0][0], a: p[0], b: p[1] };
    });
    add(main, vlist(items, function (it) {
      var r = h("div", { cls: "row" },
        h("span", { cls: "id", text: it.id }),
        h("span", null, badge(it.a), " A"), h("span", null, badge(it.b), " B"),
        h("a", { href: "#entry/" + enc(a) + "/" + enc(it.id), text: "A's entry" }),
        h("a", { href: "#entry/" + enc(b) + "/" + enc(it.id), text: "B's entry" }));
      return r;
    }, function (it) { location.hash = "#entry/" + enc(it.a[2] ? b : a) + "/" + enc(it.id); }));
  }
  // The paired statistics of `bfcl compare A B`, computed when the page was
  // written (D.compare): McNemar p-values per category, bootstrap intervals
  // for groups and overall, verdicts; for B, A the signs and verdicts swap.
  function statsTable(main, a, b) {
    var pair = null, swap = false;
    (D.compare || []).forEach(function (p) {
      if (p.a === a && p.b === b) pair = p;
      else if (p.a === b && p.b === a) { pair = p; swap = true; }
    });
    add(main, h("h2", { text: "Is B better than A? (as bfcl compare prints it)" }));
    if (a === b) { add(main, h("p", { text: "Pick two different models." })); return; }
    if (!pair) { add(main, h("p", { id: "compare-stats-none", text: "No paired statistics in this page for these two models (the page carries them for its first " + 8 + " models): run bfcl compare " + a + " " + b + "." })); return; }
    if (pair.error) { add(main, h("p", { id: "compare-stats-error", text: pair.error })); return; }
    function sg(x) { return (x >= 0 ? "+" : "") + (100 * x).toFixed(2); }
    function verdict(v) {
      if (!swap) return v;
      return v === "A better" ? "B better" : v === "B better" ? "A better" : v;
    }
    var head = h("tr", null, ["Category", "N", "A %", "B %", "B − A", "95% CI of B − A", "p (McNemar)", "A only", "B only", "Verdict"].map(function (t, i) { return h("th", { cls: i ? "num" : null, text: t }); }));
    var body = h("tbody");
    pair.rows.forEach(function (r) {
      var x = swap ? r.b : r.a, y = swap ? r.a : r.b, d = y - x;
      var ci = r.ci95 ? (swap ? "[" + sg(-r.ci95[1]) + ", " + sg(-r.ci95[0]) + "]" : "[" + sg(r.ci95[0]) + ", " + sg(r.ci95[1]) + "]") : "";
      var p = r.p_value == null ? "" : r.p_value < 0.0001 ? r.p_value.toExponential(1) : r.p_value.toFixed(4);
      var ao = r.scope === "category" ? String((swap ? r.b_only : r.a_only).length) : "";
      var bo = r.scope === "category" ? String((swap ? r.a_only : r.b_only).length) : "";
      var v = verdict(r.verdict);
      var tr = h("tr", { cls: r.scope === "category" ? null : "group", "data-verdict": v },
        h("td", { text: r.category }), h("td", { cls: "num", text: String(r.n) }),
        h("td", { cls: "num", text: (100 * x).toFixed(2) }), h("td", { cls: "num", text: (100 * y).toFixed(2) }),
        h("td", { cls: "num", text: sg(d) }), h("td", { cls: "num", text: ci }), h("td", { cls: "num", text: p }),
        h("td", { cls: "num", text: ao }), h("td", { cls: "num", text: bo }), h("td", { cls: "num", text: v }));
      if (v === "B better") tr.lastChild.style.color = "var(--ok)";
      if (v === "A better") tr.lastChild.style.color = "var(--bad)";
      body.appendChild(tr);
    });
    add(main, h("div", { cls: "scroll" }, h("table", { id: "compare-stats" }, h("thead", null, head), body)));
    (pair.skipped || []).length && add(main, h("p", { text: "Not compared: " + pair.skipped.join(", ") }));
    (pair.notes || []).forEach(function (n) { add(main, h("p", { cls: "note", text: "Note: " + n })); });
    add(main, h("p", { cls: "note", text: "Categories: exact McNemar test on the entries only one side passes (p < 0.05); groups and overall: paired stratified bootstrap, " + pair.resamples + " resamples, seed " + pair.seed + " (interval excluding 0). Not corrected for multiple rows." }));
  }
  function sc(m, cat) { var s = m.scores[cat]; return s ? { accuracy: s.a, display: pct(s.a), evaluated: true } : null; }
  function badge(r) { return h("span", { cls: "badge " + (r[2] ? "ok" : "bad"), text: r[2] ? "pass" : "fail" }); }

  // ---------- model: chart + error types ----------
  // The opt-in corrections a model's results were made with (summary.json's
  // "corrections"): not the official score, said beside it.
  function correctionsNote(sm) {
    if (!sm || !sm.corrections || !sm.corrections.length) return null;
    return h("div", { cls: "small corrections", title: "opt-in corrections of upstream defects (bfcl --correction); not the official score",
      text: "NOT official: corrections " + sm.corrections.join(", ") });
  }

  function viewModel(main, name) {
    var m = modelByName[name];
    if (!m) throw new Error("no model " + name);
    nav("model/" + name); setWhere(name);
    var sm = summaryOf(name);
    add(main, h("div", { cls: "entry-head" }, h("h1", { text: sm && sm.display_name ? sm.display_name : name }),
      sm ? h("span", { cls: "badge info", text: "overall " + sm.overall.display }) : null,
      correctionsNote(sm),
      h("a", { href: "#list/" + enc(name) + "?st=fail", text: "all failures →" })));
    var cats = D.cats.filter(function (c) { return m.scores[c.name]; });
    add(main, h("h2", { text: "Accuracy per category" }));
    add(main, chart(m, sm, cats));
    add(main, h("h2", { text: "Error types per category" }));
    var body = h("tbody");
    cats.forEach(function (c) {
      var s = m.scores[c.name], counts = {};
      m.rows.forEach(function (r) { if (catByIdx[r[1]].name === c.name && !r[2]) counts[r[3]] = (counts[r[3]] || 0) + 1; });
      var keys = Object.keys(counts).sort(function (x, y) { return counts[y] - counts[x]; });
      var et = h("td", { cls: "etypes" });
      if (!keys.length) et.appendChild(h("span", { cls: "muted", text: "no failures" }));
      keys.forEach(function (k) {
        et.appendChild(h("a", { href: "#list/" + enc(name) + "?cat=" + enc(c.name) + "&et=" + enc(k), "data-et": k },
          h("span", { cls: "mono", text: k }), " ", h("b", { text: counts[k] })));
      });
      var miss = m.missed && m.missed[c.name];
      body.appendChild(h("tr", { "data-cat": c.name },
        h("td", null, h("a", { cls: "mono", href: "#list/" + enc(name) + "?cat=" + enc(c.name), text: c.name })),
        h("td", { cls: "num", text: s.c + " / " + s.t }), accCell(catSummary(sm, c.name) || sc(m, c.name)), et,
        h("td", { cls: "small muted", text: miss ? "passed entries unknown (no result folder)" : "" })));
    });
    add(main, h("table", { id: "errtypes" }, h("thead", null, h("tr", null, h("th", { text: "Category" }), h("th", { cls: "num", text: "Correct" }),
      h("th", { cls: "num", text: "Accuracy" }), h("th", { text: "Error types (count → entries)" }), h("th", { text: "" }))), body));
  }
  function chart(m, sm, cats) {
    var NS = "http://www.w3.org/2000/svg";
    function s(tag, at) { var e = document.createElementNS(NS, tag); for (var k in at) e.setAttribute(k, at[k]); return e; }
    var rowH = 20, left = 210, width = 900, barW = width - left - 80;
    var svg = s("svg", { "class": "chart", viewBox: "0 0 " + width + " " + (cats.length * rowH + 24), role: "img" });
    [0, 0.25, 0.5, 0.75, 1].forEach(function (x) {
      svg.appendChild(s("line", { x1: left + x * barW, x2: left + x * barW, y1: 0, y2: cats.length * rowH, stroke: "#e3e7ed" }));
      var t = s("text", { x: left + x * barW, y: cats.length * rowH + 16, "text-anchor": "middle", "class": "lbl" }); t.textContent = (x * 100) + "%"; svg.appendChild(t);
    });
    cats.forEach(function (c, i) {
      var sc2 = catSummary(sm, c.name), acc = sc2 ? sc2.accuracy : m.scores[c.name].a, y = i * rowH;
      var a = s("a", { href: "#list/" + enc(m.name) + "?cat=" + enc(c.name) });
      var lab = s("text", { x: left - 8, y: y + 14, "text-anchor": "end" }); lab.textContent = c.name; a.appendChild(lab);
      a.appendChild(s("rect", { x: left, y: y + 4, width: Math.max(0.5, acc * barW), height: rowH - 8, fill: "#5b83d6", rx: 2 }));
      var ci = ciOf(sc2);
      if (ci) {
        a.appendChild(s("line", { x1: left + ci[0] * barW, x2: left + ci[1] * barW, y1: y + rowH / 2, y2: y + rowH / 2, stroke: "#1d2430", "stroke-width": 1.5 }));
        [ci[0], ci[1]].forEach(function (v) { a.appendChild(s("line", { x1: left + v * barW, x2: left + v * barW, y1: y + 5, y2: y + rowH - 5, stroke: "#1d2430", "stroke-width": 1.5 })); });
      }
      var v = s("text", { x: left + barW + 8, y: y + 14 }); v.textContent = pct(acc); a.appendChild(v);
      svg.appendChild(a);
    });
    return svg;
  }

  // ---------- entry list ----------
  function entText(id) {
    var e = D.entries[id];
    if (!e) return "";
    if (e._t == null) {
      var parts = [];
      (e.q || []).forEach(function (turn) { (turn || []).forEach(function (msg) { if (msg.role !== "system") parts.push(typeof msg.content === "string" ? msg.content : js(msg.content)); }); });
      e._t = parts.join(" ");
    }
    return e._t;
  }
  function filterRows(m, q) {
    var cat = q.cat || "", grp = q.group || "", et = q.et || "", cls = q.cls || "", st = q.st || "", text = (q.q || "").toLowerCase();
    return m.rows.filter(function (r) {
      var c = catByIdx[r[1]];
      if (cat && c.name !== cat) return false;
      if (grp && c.label !== grp && c.group !== grp) return false;
      if (et && r[3] !== et) return false;
      if (st === "fail" && r[2]) return false;
      if (st === "pass" && !r[2]) return false;
      if (cls) { var e = D.entries[r[0]]; if (!e || !e.cls || e.cls.indexOf(cls) < 0) return false; }
      if (text) {
        if (r[0].toLowerCase().indexOf(text) >= 0) return true;
        return entText(r[0]).toLowerCase().indexOf(text) >= 0;
      }
      return true;
    });
  }
  function listHash(name, q) {
    var parts = [];
    ["cat", "group", "et", "cls", "st", "q"].forEach(function (k) { if (q[k]) parts.push(k + "=" + enc(q[k])); });
    return "#list/" + enc(name) + (parts.length ? "?" + parts.join("&") : "");
  }
  function viewList(main, name, q) {
    var m = modelByName[name];
    if (!m) throw new Error("no model " + name);
    nav("model/" + name); setWhere(name + " · entries");
    lastList[name] = q;
    var rows = filterRows(m, q);
    function select(key, label, options) {
      var s = h("select", { "data-filter": key, onchange: function () { var nq = Object.assign({}, q); nq[key] = s.value; location.hash = listHash(name, nq); } });
      s.appendChild(h("option", { value: "", text: "any " + label }));
      options.forEach(function (o) { s.appendChild(h("option", { value: o[0], text: o[1], selected: (q[key] || "") === o[0] ? "selected" : null })); });
      return h("label", null, label, s);
    }
    var cats = D.cats.filter(function (c) { return m.scores[c.name]; }).map(function (c) { return [c.name, c.name]; });
    var groups = {}, ets = {}, classes = {};
    m.rows.forEach(function (r) {
      var c = catByIdx[r[1]]; groups[c.label] = 1; if (c.group) groups[c.group] = 1;
      if (!r[2]) ets[r[3]] = (ets[r[3]] || 0) + 1;
      var e = D.entries[r[0]]; if (e && e.cls) e.cls.forEach(function (k) { classes[k] = 1; });
    });
    var search = h("input", { type: "search", id: "search", placeholder: "search id or question text", value: q.q || "" });
    var timer = null;
    search.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { var nq = Object.assign({}, q); nq.q = search.value; history.replaceState(null, "", listHash(name, nq)); q = nq; lastList[name] = nq; redraw(); }, 200);
    });
    add(main, h("h1", null, h("a", { href: "#model/" + enc(name), text: name }), " · entries"));
    add(main, h("div", { cls: "controls noprint" },
      select("cat", "category", cats),
      select("group", "group", Object.keys(groups).sort().map(function (g) { return [g, g]; })),
      select("et", "error type", Object.keys(ets).sort().map(function (k) { return [k, k + " (" + ets[k] + ")"]; })),
      select("cls", "backend class", Object.keys(classes).sort().map(function (k) { return [k, k]; })),
      select("st", "outcome", [["fail", "failed"], ["pass", "passed"]]),
      search));
    var count = h("p", { cls: "muted small", id: "count" });
    add(main, count);
    var holder = h("div");
    add(main, holder);
    function redraw() {
      rows = filterRows(m, q);
      var nf = rows.filter(function (r) { return !r[2]; }).length;
      count.textContent = rows.length + " entries, " + nf + " failed" + (m.missed && Object.keys(m.missed).length ? " (passed entries of some categories are unknown without the result folder)" : "");
      holder.textContent = "";
      holder.appendChild(vlist(rows, function (r) {
        return h("div", { cls: "row", "data-id": r[0] }, badge(r),
          h("a", { cls: "id", href: "#entry/" + enc(name) + "/" + enc(r[0]), text: r[0] }),
          h("span", { cls: "et", text: r[3] || "" }),
          h("span", { cls: "txt", text: entText(r[0]).slice(0, 200) }));
      }, function (r) { location.hash = "#entry/" + enc(name) + "/" + enc(r[0]); }));
    }
    redraw();
  }

  // A virtualised list: only the visible rows exist in the DOM.
  var activeList = null;
  function vlist(items, renderRow, open) {
    var RH = 30;
    var box = h("div", { cls: "vlist", tabindex: "0" });
    var inner = h("div", { style: "position:relative;height:" + (items.length * RH) + "px" });
    box.appendChild(inner);
    var sel = -1, drawn = {};
    function draw() {
      var top = box.scrollTop, hgt = box.clientHeight || 600;
      var a = Math.max(0, Math.floor(top / RH) - 10), b = Math.min(items.length, Math.ceil((top + hgt) / RH) + 10);
      for (var k in drawn) if (k < a || k >= b) { inner.removeChild(drawn[k]); delete drawn[k]; }
      for (var i = a; i < b; i++) {
        if (drawn[i]) continue;
        var el = renderRow(items[i]);
        el.style.top = (i * RH) + "px";
        if (i === sel) el.classList.add("sel");
        (function (i) { el.addEventListener("click", function (ev) { if (ev.target.tagName !== "A") open(items[i]); }); })(i);
        inner.appendChild(el); drawn[i] = el;
      }
    }
    if (items.length < 18) box.style.height = Math.max(60, items.length * RH + 4) + "px";
    box.addEventListener("scroll", draw);
    if (!items.length) box.appendChild(h("p", { cls: "empty", style: "padding:12px", text: "No entries match." }));
    requestAnimationFrame(draw);
    setTimeout(draw, 0);
    activeList = {
      move: function (d) {
        if (!items.length) return;
        sel = Math.max(0, Math.min(items.length - 1, sel + d));
        for (var k in drawn) drawn[k].classList.toggle("sel", +k === sel);
        var y = sel * RH;
        if (y < box.scrollTop || y > box.scrollTop + box.clientHeight - RH) box.scrollTop = y - box.clientHeight / 2;
        draw();
      },
      open: function () { if (sel >= 0) open(items[sel]); }
    };
    return box;
  }

  // ---------- entry view ----------
  function viewEntry(main, name, id) {
    var m = modelByName[name];
    if (!m) throw new Error("no model " + name);
    var ri = m.byId[id];
    var e = D.entries[id];
    if (ri == null && !e) throw new Error("no entry " + id + " for model " + name);
    var r = ri != null ? m.rows[ri] : null;
    var f = r ? failOf(m, r) : null, x = f ? f.x : null;
    var line = f ? parse(f.s) : null;
    var res = r ? resultOf(r) : null;
    nav("model/" + name); setWhere(name + " · " + id);
    var cat = catByName[e ? e.c : x ? x.category : ""] || (r ? catByIdx[r[1]] : null);
    var ctx = failureContext(m);
    var pos = ctx.indexOf(ri);
    var head = h("div", { cls: "entry-head" },
      h("h1", { id: "entry-id", text: id }),
      r ? badge(r) : h("span", { cls: "badge warn", text: "not run" }),
      cat ? h("a", { cls: "badge info", href: "#list/" + enc(name) + "?cat=" + enc(cat.name), text: cat.name }) : null,
      h("span", { cls: "small muted noprint", text: pos >= 0 ? "failure " + (pos + 1) + " of " + ctx.length + " (j/k)" : "" }));
    add(main, head);
    var links = h("div", { cls: "links" });
    if (e) links.appendChild(h("span", null, "data set: ", h("code", { text: e.file + ":" + e.line })));
    if (f) links.appendChild(h("span", null, "score line: ", h("code", { text: f.file + ":" + f.n })));
    add(main, links);
    if (x) {
      add(main, h("div", { cls: "errmsg", id: "error" }, h("div", { cls: "type", text: x.error_type }),
        (x.messages || []).map(function (t) { return h("pre", { cls: "message", text: t }); }),
        x.multi_turn && x.failing_turn >= 0 ? h("a", { cls: "small noprint", href: "#", onclick: function (ev) {
          ev.preventDefault(); var el = document.getElementById("turn-" + x.failing_turn); if (el) { el.scrollIntoView({ block: "start" }); window.scrollBy(0, -48); }
        }, text: "↓ first failing turn (" + x.failing_turn + ")" }) : null));
    }
    if ((cat && /multi_turn/.test(cat.name)) || (x && x.multi_turn)) multiTurnView(main, m, id, e, x, line, res);
    else singleTurnView(main, e, x, line, res);
    if (f) add(main, h("details", { cls: "noprint", id: "score-line" }, h("summary", { text: "the score-file line (" + f.file + ":" + f.n + ")" }), h("pre", { cls: "state", text: JSON.stringify(line, null, 1) })));
  }

  function failureContext(m) {
    var q = Object.assign({}, lastList[m.name] || {}); q.st = "fail";
    var rows = filterRows(m, q), out = [];
    rows.forEach(function (r) { out.push(m.byId[r[0]]); });
    return out;
  }
  function stepFailure(d) {
    var parts = decodeURIComponent(location.hash.slice(1)).split("/");
    if (parts[0] !== "entry") return;
    var m = modelByName[parts[1]]; if (!m) return;
    var ctx = failureContext(m); if (!ctx.length) return;
    var i = ctx.indexOf(m.byId[parts.slice(2).join("/")]);
    i = i < 0 ? (d > 0 ? 0 : ctx.length - 1) : Math.max(0, Math.min(ctx.length - 1, i + d));
    location.hash = "#entry/" + enc(m.name) + "/" + enc(m.rows[ctx[i]][0]);
  }

  // --- calls ---
  function callEl(s, cls) {
    var t = typeof s === "string" ? s : js(s);
    var i = t.indexOf("(");
    var el = h("div", { cls: "call " + (cls || "") });
    if (i > 0 && typeof s === "string") add(el, [h("span", { cls: "fn", text: t.slice(0, i) }), t.slice(i)]);
    else el.textContent = t;
    return el;
  }
  function resEl(s) {
    var t = typeof s === "string" ? s : js(s);
    var el = h("div", { cls: "res" + (t.length > 360 ? " long" : ""), text: t, title: t.length > 360 ? "click to expand" : null });
    if (t.length > 360) el.addEventListener("click", function () { el.classList.toggle("open"); });
    return el;
  }
  // An FC call {name: json-args} as name(k=v, ...), values in JSON.
  function fcCall(name, args) {
    var a = typeof args === "string" ? parse(args) : args;
    if (a && typeof a === "object" && !Array.isArray(a)) {
      return name + "(" + Object.keys(a).map(function (k) { return k + "=" + JSON.stringify(a[k]); }).join(", ") + ")";
    }
    return name + "(" + (typeof args === "string" ? args : js(args)) + ")";
  }
  function assistantContent(c) {
    // FC: a list of {name: json-args}; prompt mode: a string
    if (Array.isArray(c)) {
      if (!c.length) return h("div", { cls: "log", text: "(no call)" });
      return c.map(function (call) {
        if (call && typeof call === "object") {
          return Object.keys(call).map(function (k) { return callEl(fcCall(k, call[k])); });
        }
        return callEl(js(call));
      });
    }
    if (c == null || c === "") return h("div", { cls: "log", text: "(empty)" });
    return h("div", { cls: "text", text: typeof c === "string" ? c : js(c) });
  }
  function msgEl(msg, holdout) {
    var role = msg.role || "?";
    var cls = role === "user" ? (holdout ? "msg holdout" : "msg user") : role === "system" ? "msg sys" : "msg";
    return h("div", { cls: cls }, h("span", { cls: "role", text: holdout ? "user · held-out functions arrive" : role }),
      h("span", { cls: "text", text: typeof msg.content === "string" ? msg.content : js(msg.content) }));
  }

  // Split upstream's inference_log: a list of state_info lists and turn objects.
  function splitLog(log) {
    var turns = [], states = [];
    if (!Array.isArray(log)) return null;
    log.forEach(function (item) {
      if (Array.isArray(item)) states[turns.length] = item; // state before turn len(turns) (after the previous one)
      else if (item && typeof item === "object") turns.push(item);
    });
    return { turns: turns, states: states };
  }
  function stepsOf(turn) {
    return Object.keys(turn).filter(function (k) { return /^step_\d+$/.test(k); })
      .sort(function (a, b) { return +a.slice(5) - +b.slice(5); }).map(function (k) { return { n: +k.slice(5), msgs: turn[k] }; });
  }

  function multiTurnView(main, m, id, e, x, line, res) {
    var log = (line && line.inference_log) || (res && res.inference_log);
    var split = splitLog(typeof log === "string" ? parse(log) : log);
    var gt = e && e.gt ? e.gt : (line && line.possible_answer) || [];
    var nTurns = Math.max(gt.length, split ? split.turns.length : 0, x ? x.turns.length : 0, e && e.q ? e.q.length : 0);
    var failing = x ? x.failing_turn : -1;
    var forceQuit = x && /force_terminated/.test(x.error_type);
    if (e && e.cls) add(main, h("p", { cls: "small muted" }, "backends: ", e.cls.join(", ")));
    if (x && x.state_diff && x.state_diff.length) add(main, stateDiffEl(x, line));
    if (x && x.missing && x.missing.length) {
      add(main, h("div", { cls: "panel", id: "missing" }, h("h3", { text: "Ground-truth results missing from the model's results (turn " + failing + ")" }),
        x.missing.map(function (s) { return resEl(s); })));
    }
    // one chip per turn: passed (before the failure), the failing turn, not reached
    var strip = h("div", { cls: "turn-strip noprint", id: "turn-strip" }, h("span", { cls: "small muted", text: "turns " }));
    for (var k = 0; k < nTurns; k++) (function (k) {
      var st = !x ? "ok" : failing < 0 ? "na" : k < failing ? "ok" : k === failing ? "bad" : "na";
      var mk = e && e.miss && e.miss[k];
      strip.appendChild(h("a", { href: "#", cls: "chip " + st, title: st === "ok" ? "checked, passed" : st === "bad" ? "first failing turn" : "not checked (after the failure)" + (mk ? "; held-out functions arrive" : ""),
        onclick: function (ev) { ev.preventDefault(); var el = document.getElementById("turn-" + k); if (el) { el.scrollIntoView({ block: "start" }); window.scrollBy(0, -48); } } },
        String(k), mk ? h("sup", { text: "+fn" }) : null));
    })(k);
    add(main, strip);
    if (!split && !res && !x) add(main, h("p", { cls: "empty", text: "No transcript: the entry passed and no result folder was given (bfcl report --result-dir)." }));
    else if (!split) add(main, h("p", { cls: "small muted", text: "No inference_log in the result: the model's steps are shown from the result's raw output." }));
    for (var t = 0; t < nTurns; t++) {
      var isFail = t === failing;
      var box = h("section", { cls: "turn" + (isFail ? " failing" : ""), id: "turn-" + t, "data-turn": t });
      var missed = e && e.miss && e.miss[t];
      var unchecked = x && failing >= 0 && t > failing;
      if (unchecked) box.className += " unchecked";
      box.appendChild(h("div", { cls: "th" }, "Turn " + t,
        isFail ? h("span", { cls: "badge bad", text: "first failing turn" }) : null,
        unchecked ? h("span", { cls: "badge info not-checked", title: "upstream's checker stops at the first failing turn: the calls below were run but not compared with the ground truth", text: "not checked (after the first failing turn)" }) : null,
        missed ? h("span", { cls: "badge warn", text: "held-out functions arrive: " + missed.join(", ") }) : null));
      var left = h("div", { cls: "side model" }, h("h4", { text: "Model" }));
      var right = h("div", { cls: "side gt" }, h("h4", { text: "Ground truth" }));
      box.appendChild(left); box.appendChild(right);
      var lt = split && split.turns[t];
      if (lt) {
        (lt.begin_of_turn_query || []).forEach(function (msg) { left.appendChild(msgEl(msg, !!missed)); });
        stepsOf(lt).forEach(function (st) { left.appendChild(stepEl(st)); });
      } else {
        if (e && e.q && e.q[t]) e.q[t].forEach(function (msg) { left.appendChild(msgEl(msg, false)); });
        if (missed && e && e.q && (!e.q[t] || !e.q[t].length)) left.appendChild(h("div", { cls: "msg holdout", text: "held-out functions arrive: " + missed.join(", ") }));
        var xt = x && x.turns[t];
        var rawTurn = res && Array.isArray(res.result) ? res.result[t] : null;
        if (xt && xt.model_steps.length) {
          xt.model_steps.forEach(function (st, i) {
            var s = h("div", { cls: "step", "data-step": i }, h("div", { cls: "sn", text: "step " + i + " (decoded)" }));
            st.calls.forEach(function (c, k) { s.appendChild(callEl(c)); if (st.results && k < st.results.length) s.appendChild(resEl(st.results[k])); });
            left.appendChild(s);
          });
        } else if (Array.isArray(rawTurn)) {
          rawTurn.forEach(function (step, i) {
            left.appendChild(h("div", { cls: "step", "data-step": i }, h("div", { cls: "sn", text: "step " + i }), assistantContent(step)));
          });
        } else if (x || res) left.appendChild(h("div", { cls: "log", text: "(no model step in this turn)" }));
      }
      var reasoning = res && res.reasoning_content && res.reasoning_content[t];
      if (!lt && reasoning && reasoning.some(function (s) { return s; })) {
        left.appendChild(h("details", { cls: "reasoning" }, h("summary", { text: "reasoning" }), h("pre", { text: reasoning.filter(Boolean).join("\n---\n") })));
      }
      if (split && split.states[t + 1]) left.appendChild(stateFold("state after the turn (model)", split.states[t + 1]));
      // ground truth
      var calls = gt[t] || [], results = (e && e.gtr && e.gtr[t]) || (x && x.turns[t] && x.turns[t].gt_results) || [];
      var modelCalls = {};
      if (x && x.turns[t]) x.turns[t].model_steps.forEach(function (st) { st.calls.forEach(function (c) { modelCalls[c.replace(/\s+/g, "")] = 1; }); });
      if (!calls.length) right.appendChild(h("div", { cls: "log", text: "(no call expected in this turn)" }));
      calls.forEach(function (c, k) {
        var missing = x && x.turns[t] && t <= failing && !modelCalls[c.replace(/\s+/g, "")];
        var ce = callEl(c, missing ? "miss" : "");
        if (missing) ce.title = "the model made no such call in this turn";
        right.appendChild(ce);
        if (k < results.length) right.appendChild(resEl(results[k]));
      });
      main.appendChild(box);
      if (forceQuit && split && t === split.turns.length - 1) box.appendChild(h("div", { cls: "th", style: "grid-column:1/-1", text: "" }, h("span", { cls: "badge bad", text: "force-quit: the model was stopped here" })));
    }
    if (e && e.gterr) add(main, h("p", { cls: "error", text: "ground truth could not be executed: " + e.gterr }));
  }
  // One step of upstream's inference_log: the assistant message (reasoning
  // folded), the decoded calls each with its execution result (tool
  // messages come in call order), the handler's notes.
  function stepEl(st) {
    var s = h("div", { cls: "step", "data-step": st.n }, h("div", { cls: "sn", text: "step " + st.n }));
    var msgs = st.msgs || [], assistant = null, decoded = null, tools = [], notes = [];
    msgs.forEach(function (msg) {
      if (msg.role === "assistant" && !assistant) assistant = msg;
      else if (msg.role === "tool") tools.push(msg.content);
      else if (msg.role === "handler_log" && /^Successfully decoded/.test(msg.content || "")) decoded = msg.model_response_decoded || [];
      else notes.push(msg);
    });
    if (assistant && assistant.reasoning_content) s.appendChild(h("details", { cls: "reasoning" }, h("summary", { text: "reasoning" }), h("pre", { text: assistant.reasoning_content })));
    if (decoded && decoded.length) {
      decoded.forEach(function (c, i) { s.appendChild(callEl(c)); if (i < tools.length) s.appendChild(resEl(tools[i])); });
      for (var i = decoded.length; i < tools.length; i++) s.appendChild(resEl(tools[i]));
      if (assistant && typeof assistant.content === "string") s.appendChild(h("details", { cls: "raw" }, h("summary", { text: "raw output" }), h("pre", { text: assistant.content })));
    } else if (assistant) {
      add(s, assistantContent(assistant.content));
      tools.forEach(function (r) { s.appendChild(resEl(r)); });
    }
    notes.forEach(function (msg) {
      if (msg.role === "handler_log") {
        var quit = /forced to quit/i.test(msg.content || "");
        s.appendChild(h("div", { cls: "log" + (msg.error || quit ? " err" : "") + (quit ? " force-quit" : ""), text: (msg.content || "") + (msg.error ? " (" + msg.error + ")" : "") }));
      } else if (msg.role === "inference_input") {
        s.appendChild(h("details", null, h("summary", { text: "inference input" }), h("pre", { text: js(msg.content) })));
      } else s.appendChild(h("div", { cls: "log", text: js(msg) }));
    });
    return s;
  }
  function stateFold(label, states) {
    return h("details", { cls: "state-info" }, h("summary", { text: label }),
      states.map(function (s) { return h("div", null, h("b", { cls: "small", text: s.class_name }), h("pre", { cls: "state", text: JSON.stringify(s.content, null, 1) })); }));
  }
  function stateDiffEl(x, line) {
    var box = h("div", { cls: "panel diff", id: "state-diff" });
    x.state_diff.forEach(function (cd) {
      box.appendChild(h("h3", { text: "State difference — " + (cd.class || "backend") + " (model vs ground truth, after turn " + x.failing_turn + ")" }));
      var body = h("tbody");
      cd.attrs.forEach(function (a) {
        if (!a.changes.length) body.appendChild(h("tr", { cls: "k-changed", "data-attr": a.attr }, h("td", { text: a.attr }), h("td", { cls: "kind", text: "differs" }), h("td", { cls: "m" }), h("td", { cls: "g" })));
        a.changes.forEach(function (c) {
          var kind = c.kind === "only_model" ? "only in model" : c.kind === "only_gt" ? "only in ground truth" : "changed";
          body.appendChild(h("tr", { cls: "k-" + c.kind, "data-attr": a.attr },
            h("td", { cls: "path", text: a.attr + c.path }), h("td", { cls: "kind", text: kind }),
            h("td", { cls: "m", text: c.model || "" }), h("td", { cls: "g", text: c.ground_truth || "" })));
        });
      });
      box.appendChild(h("table", null, h("thead", null, h("tr", null, h("th", { text: "attribute / path" }), h("th", { text: "" }), h("th", { text: "model" }), h("th", { text: "ground truth" }))), body));
    });
    var det = line && line.error && line.error.details;
    if (det && det.model_instance_state) {
      box.appendChild(h("details", null, h("summary", { text: "full states (model, ground truth)" }),
        h("div", { cls: "grid2" }, h("pre", { cls: "state", text: JSON.stringify(det.model_instance_state, null, 1) }), h("pre", { cls: "state", text: JSON.stringify(det.ground_truth_instance_state, null, 1) }))));
    }
    return box;
  }

  // --- single turn ---
  function jsonEl(v, hl) {
    // pretty JSON with object keys named in hl highlighted
    var out = h("pre", { cls: "json" });
    function w(v, ind, key) {
      if (v === null || typeof v !== "object") {
        var cls = typeof v === "string" ? "s" : "n";
        out.appendChild(h("span", { cls: cls, text: JSON.stringify(v) }));
        return;
      }
      var arr = Array.isArray(v), keys = arr ? v : Object.keys(v);
      if (!keys.length) { out.appendChild(document.createTextNode(arr ? "[]" : "{}")); return; }
      if (arr && v.every(function (y) { return y === null || typeof y !== "object"; }) && JSON.stringify(v).length < 90) {
        out.appendChild(document.createTextNode("["));
        v.forEach(function (y, i) { if (i) out.appendChild(document.createTextNode(", ")); w(y, ind); });
        out.appendChild(document.createTextNode("]"));
        return;
      }
      out.appendChild(document.createTextNode(arr ? "[" : "{"));
      keys.forEach(function (k, i) {
        out.appendChild(document.createTextNode("\n" + ind + "  "));
        if (!arr) {
          var span = h("span", { cls: "k" + (hl && hl[k] ? " hl" : ""), text: JSON.stringify(k) });
          out.appendChild(span); out.appendChild(document.createTextNode(": "));
          w(v[k], ind + "  ", k);
        } else w(k, ind + "  ");
        if (i < keys.length - 1) out.appendChild(document.createTextNode(","));
      });
      out.appendChild(document.createTextNode("\n" + ind + (arr ? "]" : "}")));
    }
    w(v, "");
    return out;
  }
  function fnDoc(i) {
    if (!fnCache[i]) fnCache[i] = parse(D.strs[i]);
    return fnCache[i];
  }
  function singleTurnView(main, e, x, line, res) {
    var hl = {};
    (x && x.params || []).forEach(function (p) { hl[p] = 1; });
    (x && x.functions || []).forEach(function (p) { hl[p] = 1; });
    var grid = h("div", { cls: "grid2" });
    var left = h("div"), right = h("div");
    grid.appendChild(left); grid.appendChild(right);
    left.appendChild(h("h2", { text: "Question" }));
    if (e && e.q) e.q.forEach(function (turn) { (turn || []).forEach(function (msg) { left.appendChild(msgEl(msg)); }); });
    else left.appendChild(h("p", { cls: "empty", text: "data set not embedded" }));
    left.appendChild(h("h2", { text: "Functions offered (" + (e && e.f ? e.f.length : 0) + ")" }));
    (e && e.f || []).forEach(function (i) {
      var d = fnDoc(i), nm = d && d.name ? d.name : "?";
      var named = hl[nm] || (d && d.parameters && d.parameters.properties && Object.keys(d.parameters.properties).some(function (p) { return hl[p]; }));
      var det = h("details", { cls: "fn-doc" + (named ? " named" : ""), open: named ? "open" : null },
        h("summary", null, h("span", { cls: "mono", text: nm }), " ", h("span", { cls: "muted", text: d && d.description ? " — " + String(d.description).slice(0, 140) : "" })),
        jsonEl(d, hl));
      left.appendChild(det);
    });
    // agentic entries run the same loop as multi-turn: show its log when present
    var log = (line && line.inference_log) || (res && res.inference_log);
    var split = splitLog(typeof log === "string" ? parse(log) : log);
    if (split && split.turns.length) {
      left.appendChild(h("h2", { text: "Conversation (inference_log)" }));
      split.turns.forEach(function (lt, t) {
        var box = h("div", { cls: "panel", "data-turn": t }, h("div", { cls: "small muted", text: "turn " + t }));
        (lt.begin_of_turn_query || []).forEach(function (msg) { box.appendChild(msgEl(msg)); });
        stepsOf(lt).forEach(function (st) { box.appendChild(stepEl(st)); });
        left.appendChild(box);
      });
    }
    right.appendChild(h("h2", { text: "Model output" }));
    var decoded = x ? x.decoded : null;
    if (decoded != null) { right.appendChild(h("h3", { text: "decoded calls" })); right.appendChild(jsonEl(decoded, hl)); }
    var raw = x ? x.raw : res ? res.result : null;
    if (decoded == null && Array.isArray(raw) && raw.length && raw.every(function (c) { return c && typeof c === "object" && !Array.isArray(c) && Object.keys(c).length === 1; })) {
      right.appendChild(h("h3", { text: "calls" }));
      raw.forEach(function (c) { var k = Object.keys(c)[0]; right.appendChild(callEl(fcCall(k, c[k]))); });
      decoded = raw;
    }
    if (raw != null) right.appendChild(h("details", { open: decoded == null ? "open" : null }, h("summary", { text: "raw model output" }), typeof raw === "string" ? h("pre", { text: raw }) : jsonEl(raw)));
    if (res && res.reasoning_content) right.appendChild(h("details", { cls: "reasoning" }, h("summary", { text: "reasoning" }), h("pre", { text: js(res.reasoning_content) })));
    if (raw == null && decoded == null) right.appendChild(h("p", { cls: "empty", text: "No model output: the entry passed and no result folder was given." }));
    right.appendChild(h("h2", { text: "Possible answers" }));
    var pa = e && e.gt ? e.gt : x ? x.possible_answer : null;
    if (pa != null) right.appendChild(jsonEl(pa, hl));
    else right.appendChild(h("p", { cls: "empty", text: "This category has no ground truth (relevance / irrelevance: any call / no call)." }));
    if (x && x.params && x.params.length) right.appendChild(h("p", { cls: "small" }, "parameter named by the checker: ", x.params.map(function (p) { return h("code", { cls: "hl", text: p }); })));
    main.appendChild(grid);
  }

  // ---------- keys, print ----------
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { if (ev.key === "Escape") ev.target.blur(); return; }
    var onEntry = /^#entry\//.test(location.hash);
    if (ev.key === "j" || ev.key === "k") {
      if (onEntry) stepFailure(ev.key === "j" ? 1 : -1);
      else if (activeList) activeList.move(ev.key === "j" ? 1 : -1);
      ev.preventDefault();
    } else if (ev.key === "Enter" && !onEntry && activeList) activeList.open();
    else if (ev.key === "/") { var s = document.getElementById("search"); if (s) { s.focus(); ev.preventDefault(); } }
    else if (ev.key === "Escape" && onEntry) {
      var parts = decodeURIComponent(location.hash.slice(1)).split("/");
      location.hash = listHash(parts[1], lastList[parts[1]] || { st: "fail" });
    }
  });

  load().then(function (p) {
    init(p);
    window.addEventListener("hashchange", route);
    route();
    document.body.dataset.ready = "1";
  }).catch(function (err) {
    var main = document.getElementById("main");
    main.textContent = "";
    main.appendChild(h("p", { cls: "error", text: "Cannot read the embedded report data: " + err.message }));
    document.body.dataset.ready = "error";
    throw err;
  });
})();
