// podsim chart: draws the run embedded in #data on a canvas. Lanes are
// grouped by node or by workload; a group and a pod open on a click; the
// wheel scrolls, ctrl/alt+wheel zooms, a drag pans; hovering shows details.
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) {
    errors.push(String(e.message));
    document.body.setAttribute("data-errors", String(errors.length));
    var el = document.getElementById("errors");
    el.textContent = "script error: " + errors.join("; ");
    el.hidden = false;
  });

  var D = JSON.parse(document.getElementById("data").textContent);
  var S = D.str;
  var COLORS = { taint: D.colors[0], normal: D.colors[1], warn: D.colors[2], count: D.colors[3], dip: D.colors[4], served: D.colors[5], failed: D.colors[6] };

  // HorizontalPodAutoscalers: a lane each, above the others.
  var hpas = D.hpas || [], HPA = { desired: D.hpaColors[0], current: D.hpaColors[1], metric: D.hpaColors[2] };

  // Layout constants (CSS pixels).
  var LABEL = 250, AXIS = 26, GROUP_H = 30, NODE_H = 28, POD_H = 24, CONT_H = 13, GAP = 4, HPA_H = 92;

  // ---- time formatting: the scenario's units (0s, 45s, 1m30s, 2h0m5s) ----
  function fmt(t) {
    if (t === 0) return "0s";
    var neg = t < 0;
    if (neg) t = -t;
    var s;
    if (t < 1e-6) s = round(t * 1e9) + "ns";
    else if (t < 1e-3) s = round(t * 1e6) + "µs";
    else if (t < 1) s = round(t * 1e3) + "ms";
    else {
      var h = Math.floor(t / 3600), m = Math.floor((t - h * 3600) / 60), sec = t - h * 3600 - m * 60;
      sec = round(sec);
      if (sec >= 60) { sec -= 60; m++; }
      if (m >= 60) { m -= 60; h++; }
      s = "";
      if (h > 0) s += h + "h";
      if (h > 0 || m > 0) s += m + "m";
      if (sec !== 0 || (h === 0 && m === 0)) s += sec + "s";
      if (h > 0 && m === 0 && sec === 0) s = h + "h";
    }
    return (neg ? "-" : "") + s;
  }
  function round(x) { return Math.round(x * 1000) / 1000; }

  // Tick steps in seconds: 1ns ... 1 day.
  var STEPS = [];
  [1e-9, 1e-6, 1e-3].forEach(function (u) { [1, 2, 5, 10, 20, 50, 100, 200, 500].forEach(function (k) { STEPS.push(k * u); }); });
  [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800].forEach(function (k) { STEPS.push(k); });
  function tickStep(span, px) {
    var want = span / Math.max(1, px / 90);
    for (var i = 0; i < STEPS.length; i++) if (STEPS[i] >= want) return STEPS[i];
    return STEPS[STEPS.length - 1] * Math.ceil(want / STEPS[STEPS.length - 1]);
  }

  // ---- derived data ----
  var pods = D.pods, nodes = D.nodes, wls = D.wls, svcs = D.svcs || [];
  var END = D.end > 0 ? D.end : 1;
  var byNode = nodes.map(function () { return []; }), unscheduled = [];
  var byWl = wls.map(function () { return []; }), bare = [];
  pods.forEach(function (p, i) {
    (p.node >= 0 ? byNode[p.node] : unscheduled).push(i);
    (p.wl >= 0 ? byWl[p.wl] : bare).push(i);
  });

  var wlCounts = wls.map(function (w) { return w.r; });

  // ---- state ----
  var many = pods.length > 200;
  var state = {
    mode: many ? "wl" : "node",
    open: {},            // group key -> open
    podOpen: {},         // pod index -> open
    t0: 0, t1: END,
    scroll: 0
  };
  var defaultGroupOpen = !many, defaultPodOpen = pods.length <= 24;
  function groupOpen(key) { return key in state.open ? state.open[key] : (key === "nodes" ? nodes.length <= 12 : key === "services" || key === "hpas" || defaultGroupOpen); }
  function podOpen(i) { return i in state.podOpen ? state.podOpen[i] : defaultPodOpen; }

  // rows: the flat list of lanes for the current grouping and openings.
  var rows = [], rowY = [], totalH = 0;
  function podHeight(i) {
    if (!podOpen(i)) return POD_H;
    var cs = pods[i].cs, h = POD_H + cs.length * CONT_H;
    if (cs.some(function (c) { return c.k < 2; }) && cs.some(function (c) { return c.k === 2; })) h += GAP;
    return h + 2;
  }
  function build() {
    rows = [];
    if (hpas.length) {
      rows.push({ type: "section", key: "hpas", label: "autoscalers (" + hpas.length + ")", h: 20 });
      if (groupOpen("hpas")) hpas.forEach(function (a, i) { rows.push({ type: "group", key: "a" + i, label: "hpa/" + a.n, kind: "hpa", idx: i, ids: [], h: HPA_H, leaf: true }); });
    }
    function group(key, label, kind, idx, ids) {
      rows.push({ type: "group", key: key, label: label, kind: kind, idx: idx, ids: ids, h: kind === "node" ? NODE_H : GROUP_H });
      if (groupOpen(key)) ids.forEach(function (i) { rows.push({ type: "pod", pod: i, h: podHeight(i) }); });
    }
    if (state.mode === "node") {
      nodes.forEach(function (n, i) { group("n" + i, n.n, "node", i, byNode[i]); });
      if (unscheduled.length) group("n-", "never scheduled", "none", -1, unscheduled);
    } else {
      if (nodes.length) {
        rows.push({ type: "section", key: "nodes", label: "nodes (" + nodes.length + ")", h: 20 });
        if (groupOpen("nodes")) nodes.forEach(function (n, i) { rows.push({ type: "group", key: "nn" + i, label: n.n, kind: "node", idx: i, ids: [], h: NODE_H, leaf: true }); });
      }
      wls.forEach(function (w, i) { group("w" + i, w.k.toLowerCase() + "/" + w.n, "wl", i, byWl[i]); });
      if (bare.length) group("w-", "pods without a controller", "bare", -1, bare);
    }
    // A lane per Service with traffic: requests served and failed per second.
    if (svcs.length) {
      rows.push({ type: "section", key: "services", label: "requests per second (" + svcs.length + " Service" + (svcs.length > 1 ? "s" : "") + ")", h: 20 });
      if (groupOpen("services")) svcs.forEach(function (s, i) { rows.push({ type: "group", key: "s" + i, label: "service/" + s.n, kind: "svc", idx: i, ids: [], h: GROUP_H + 10, leaf: true }); });
    }
    rowY = []; var y = 0;
    rows.forEach(function (r) { rowY.push(y); y += r.h; });
    totalH = y;
    document.getElementById("spacer").style.height = Math.max(0, totalH + AXIS - H) + "px";
  }

  // ---- canvas ----
  var scroller = document.getElementById("scroller");
  var canvas = document.getElementById("lanes");
  var ctx = canvas.getContext("2d");
  var W = 0, H = 0, dpr = 1;
  function resize() {
    dpr = window.devicePixelRatio || 1;
    W = scroller.clientWidth; H = scroller.clientHeight;
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
    canvas.style.width = W + "px"; canvas.style.height = H + "px";
  }
  function X(t) { return LABEL + (t - state.t0) / (state.t1 - state.t0) * (W - LABEL - 12); }
  function T(x) { return state.t0 + (x - LABEL) / (W - LABEL - 12) * (state.t1 - state.t0); }

  var drawn = 0;
  function draw() {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, H);
    var top = state.scroll;
    // grid lines
    var step = tickStep(state.t1 - state.t0, W - LABEL);
    var first = Math.ceil(state.t0 / step) * step;
    ctx.strokeStyle = "#eceff3"; ctx.lineWidth = 1;
    for (var t = first; t <= state.t1; t += step) {
      var gx = Math.round(X(t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(gx, AXIS); ctx.lineTo(gx, H); ctx.stroke();
    }
    // lanes
    drawn = 0;
    var lo = 0, hi = rows.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (rowY[mid] + rows[mid].h < top) lo = mid + 1; else hi = mid; }
    for (var k = lo; k < rows.length && rowY[k] - top < H; k++) {
      var y = AXIS + rowY[k] - top;
      drawRow(rows[k], y);
      drawn++;
    }
    // the end of the run
    var ex = X(END);
    if (ex > LABEL && ex < W) { ctx.strokeStyle = "#888"; ctx.setLineDash([3, 3]); ctx.beginPath(); ctx.moveTo(ex + 0.5, AXIS); ctx.lineTo(ex + 0.5, H); ctx.stroke(); ctx.setLineDash([]); }
    drawAxis(step, first);
    document.body.setAttribute("data-drawn", String(drawn));
  }

  function drawAxis(step, first) {
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, AXIS);
    ctx.strokeStyle = "#999"; ctx.beginPath(); ctx.moveTo(LABEL, AXIS - 0.5); ctx.lineTo(W, AXIS - 0.5); ctx.stroke();
    ctx.fillStyle = "#333"; ctx.font = "11px sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "alphabetic";
    for (var t = first; t <= state.t1; t += step) {
      var x = X(t);
      ctx.beginPath(); ctx.moveTo(x, AXIS - 6); ctx.lineTo(x, AXIS); ctx.stroke();
      ctx.fillText(fmt(t), x, AXIS - 9);
    }
    ctx.textAlign = "left"; ctx.fillStyle = "#555";
    ctx.fillText("virtual time", 8, AXIS - 9);
  }

  // clip runs fn with drawing clipped to the time area.
  function clip(y, h, fn) {
    ctx.save(); ctx.beginPath(); ctx.rect(LABEL, y, W - LABEL, h); ctx.clip(); fn(); ctx.restore();
  }
  function bar(t0, t1, y, h, color, minW) {
    if (t1 < state.t0 || t0 > state.t1) return;
    var x0 = X(t0), x1 = X(t1);
    if (x1 - x0 < minW) { var c = (x0 + x1) / 2; x0 = c - minW / 2; x1 = c + minW / 2; }
    ctx.fillStyle = color; ctx.fillRect(x0, y, x1 - x0, h);
  }
  // steps draws [[t, v, ...]] as bars coloured by colorOf(v), until end.
  function steps(list, end, y, h, colorOf) {
    for (var i = 0; i < list.length; i++) {
      var c = colorOf(list[i][1]);
      if (c) bar(list[i][0], i + 1 < list.length ? list[i + 1][0] : end, y, h, c, 0);
    }
  }
  function marks(list, y) {
    for (var i = 0; i < list.length; i++) {
      var m = list[i];
      if (m[0] < state.t0 || m[0] > state.t1) continue;
      var x = X(m[0]);
      ctx.fillStyle = m[1] ? COLORS.warn : COLORS.normal;
      ctx.beginPath();
      if (m[1]) { ctx.moveTo(x - 4, y); ctx.lineTo(x + 4, y); ctx.lineTo(x, y + 7); }
      else { ctx.moveTo(x, y); ctx.lineTo(x + 3, y + 3.5); ctx.lineTo(x, y + 7); ctx.lineTo(x - 3, y + 3.5); }
      ctx.closePath(); ctx.fill();
    }
  }
  function label(text, x, y, opts) {
    ctx.font = (opts && opts.font) || "12px sans-serif";
    ctx.fillStyle = (opts && opts.color) || "#222";
    ctx.textAlign = "left"; ctx.textBaseline = "middle";
    var max = LABEL - x - 6;
    if (ctx.measureText(text).width > max) {
      while (text.length > 1 && ctx.measureText(text + "…").width > max) text = text.slice(0, -1);
      text += "…";
    }
    ctx.fillText(text, x, y);
  }

  function drawRow(r, y) {
    if (r.type === "section") {
      ctx.fillStyle = "#f3f5f8"; ctx.fillRect(0, y, W, r.h);
      label((groupOpen(r.key) ? "▾ " : "▸ ") + r.label, 6, y + r.h / 2, { font: "bold 12px sans-serif" });
      return;
    }
    if (r.type === "group" && r.kind === "hpa") return drawHPA(hpas[r.idx], r, y);
    if (r.type === "group") return drawGroup(r, y);
    drawPod(r.pod, y);
  }

  function drawGroup(r, y) {
    ctx.fillStyle = "#f3f5f8"; ctx.fillRect(0, y, W, r.h);
    ctx.strokeStyle = "#d5dae1"; ctx.beginPath(); ctx.moveTo(0, y + 0.5); ctx.lineTo(W, y + 0.5); ctx.stroke();
    var arrow = r.leaf ? "   " : (groupOpen(r.key) ? "▾ " : "▸ ");
    var count = r.leaf ? "" : " (" + r.ids.length + ")";
    label(arrow + r.label + count, r.leaf ? 14 : 6, y + r.h / 2, { font: "bold 12px sans-serif" });
    if (r.kind === "node") {
      var n = nodes[r.idx];
      clip(y, r.h, function () {
        steps(n.r, END, y + 9, 8, function (v) { return D.statusColors[v]; });
        n.f.forEach(function (f) {
          if (f[1] < state.t0 || f[0] > state.t1) return;
          var x0 = X(f[0]), x1 = Math.max(X(f[1]), x0 + 2);
          ctx.fillStyle = D.faultColors[f[2]];
          ctx.save(); ctx.beginPath(); ctx.rect(x0, y + 18, x1 - x0, 5); ctx.clip();
          for (var x = x0; x < x1; x += 4) ctx.fillRect(x, y + 18, 2, 5);
          ctx.restore();
        });
        n.tt.forEach(function (s) { bar(s[0], s[1], y + 24, 3, COLORS.taint, 1); });
        marks(n.ev, y + 1);
      });
    } else if (r.kind === "wl" || r.kind === "bare") {
      var series = r.kind === "wl" ? wlCounts[r.idx] : D.bare;
      var top = Math.max(1, r.kind === "wl" ? wls[r.idx].p : bare.length);
      series.forEach(function (s) { top = Math.max(top, s[1]); });
      var peak = 0;
      series.forEach(function (s) { peak = Math.max(peak, s[1]); });
      clip(y, r.h, function () {
        var h = r.h - 10, base = y + r.h - 2;
        // Below its peak: the lane turns amber, so that one pod of a
        // hundred missing still shows.
        ctx.fillStyle = COLORS.dip;
        for (var d = 0; d < series.length; d++) {
          var de = d + 1 < series.length ? series[d + 1][0] : END;
          if (series[d][1] < peak && de > series[d][0]) bar(series[d][0], de, y + 1, r.h - 2, COLORS.dip, 0);
        }
        ctx.fillStyle = COLORS.count; ctx.globalAlpha = 0.35;
        for (var i = 0; i < series.length; i++) {
          var e = i + 1 < series.length ? series[i + 1][0] : END;
          if (e < state.t0 || series[i][0] > state.t1 || series[i][1] === 0) continue;
          var bh = series[i][1] / top * h;
          ctx.fillRect(X(series[i][0]), base - bh, X(e) - X(series[i][0]), bh);
        }
        ctx.globalAlpha = 1; ctx.strokeStyle = COLORS.count; ctx.beginPath();
        for (i = 0; i < series.length; i++) {
          var x0 = X(series[i][0]), x1 = X(i + 1 < series.length ? series[i + 1][0] : END), yy = base - series[i][1] / top * h;
          if (i === 0) ctx.moveTo(x0, base); ctx.lineTo(x0, yy); ctx.lineTo(x1, yy);
        }
        ctx.stroke();
        if (r.kind === "wl") marks(wls[r.idx].ev, y + 1);
      });
    } else if (r.kind === "svc") {
      drawRequests(svcs[r.idx].r, y, r.h);
    }
  }

  // drawRequests stacks a Service's failed requests per second on its
  // served ones, scaled to the most it was offered.
  function drawRequests(series, y, rh) {
    var top = 1;
    series.forEach(function (s) { top = Math.max(top, s[1] + s[2]); });
    clip(y, rh, function () {
      var h = rh - 6, base = y + rh - 2;
      for (var i = 0; i < series.length; i++) {
        var e = i + 1 < series.length ? series[i + 1][0] : END;
        if (e < state.t0 || series[i][0] > state.t1) continue;
        var x0 = X(series[i][0]), w = Math.max(X(e) - x0, 0.5), hs = series[i][1] / top * h, hf = series[i][2] / top * h;
        ctx.fillStyle = COLORS.served; ctx.fillRect(x0, base - hs, w, hs);
        if (hf > 0) { ctx.fillStyle = COLORS.failed; ctx.fillRect(x0, base - hs - Math.max(hf, 1), w, Math.max(hf, 1)); }
      }
    });
  }

  // drawHPA draws an autoscaler's lane: in its upper band its first
  // metric (a line) against its target (dashed), in its lower band its
  // current replicas (an area) and desired replicas (a line), on a scale
  // up to its maxReplicas; its events as markers.
  function drawHPA(a, r, y) {
    ctx.fillStyle = "#f3f5f8"; ctx.fillRect(0, y, W, r.h);
    ctx.strokeStyle = "#d5dae1"; ctx.beginPath(); ctx.moveTo(0, y + 0.5); ctx.lineTo(W, y + 0.5); ctx.stroke();
    label(r.label, 14, y + 13, { font: "bold 12px sans-serif" });
    label("→ " + a.ref, 14, y + 28, { font: "11px sans-serif", color: "#555" });
    if (a.m) label(a.m + ", target " + a.mt + (a.pct ? "%" : ""), 14, y + 46, { font: "11px sans-serif", color: HPA.metric });
    label("replicas (min " + a.min + ", max " + a.max + ")", 14, y + 72, { font: "11px sans-serif", color: HPA.desired });
    var s = a.s, mTop = y + 10, mH = 36, rTop = mTop + mH + 4, rH = r.h - (rTop - y) - 4;
    var vmax = a.mt * 2;
    s.forEach(function (x) { if (x[3] !== null) vmax = Math.max(vmax, x[3]); });
    var rmax = Math.max(a.max, 1);
    s.forEach(function (x) { rmax = Math.max(rmax, x[1], x[2]); });
    function end(i) { return i + 1 < s.length ? s[i + 1][0] : END; }
    function stepLine(col, yOf, color, dash) {
      ctx.strokeStyle = color; ctx.lineWidth = 1.5; ctx.setLineDash(dash || []); ctx.beginPath();
      var pen = false;
      for (var i = 0; i < s.length; i++) {
        if (s[i][col] === null) { pen = false; continue; }
        var x0 = X(s[i][0]), x1 = X(end(i)), yy = yOf(s[i][col]);
        if (pen) ctx.lineTo(x0, yy); else ctx.moveTo(x0, yy);
        ctx.lineTo(x1, yy); pen = true;
      }
      ctx.stroke(); ctx.setLineDash([]); ctx.lineWidth = 1;
    }
    var mY = function (v) { return mTop + mH - v / vmax * mH; }, rY = function (v) { return rTop + rH - v / rmax * rH; };
    clip(y, r.h, function () {
      ctx.fillStyle = "#fff"; ctx.fillRect(LABEL, mTop, W - LABEL, mH); ctx.fillRect(LABEL, rTop, W - LABEL, rH);
      if (a.m) {
        var ty = Math.round(mY(a.mt)) + 0.5;
        ctx.strokeStyle = HPA.metric; ctx.setLineDash([4, 3]); ctx.beginPath(); ctx.moveTo(LABEL, ty); ctx.lineTo(W, ty); ctx.stroke(); ctx.setLineDash([]);
        stepLine(3, mY, HPA.metric);
      }
      ctx.fillStyle = HPA.current; ctx.globalAlpha = 0.6;
      for (var i = 0; i < s.length; i++) {
        if (end(i) < state.t0 || s[i][0] > state.t1) continue;
        var hh = s[i][2] / rmax * rH;
        ctx.fillRect(X(s[i][0]), rTop + rH - hh, X(end(i)) - X(s[i][0]), hh);
      }
      ctx.globalAlpha = 1;
      stepLine(1, rY, HPA.desired);
      marks(a.ev, y + 1);
    });
  }

  function drawPod(i, y) {
    var p = pods[i], open = podOpen(i), end = p.g !== undefined ? p.g : END;
    var node = p.node >= 0 ? nodes[p.node].n : "";
    label((open ? "▾ " : "▸ ") + p.n, 14, y + 13, {});
    if (state.mode === "wl" && node) {
      ctx.font = "10px sans-serif"; ctx.fillStyle = "#888"; ctx.textAlign = "right";
      ctx.fillText(node, LABEL - 6, y + 13); ctx.textAlign = "left";
    }
    clip(y, POD_H, function () {
      steps(p.ph, end, y + 9, 9, function (v) { return D.phaseColors[v]; });
      steps(p.r, end, y + 19, 3, function (v) { return v === 1 ? D.statusColors[1] : null; });
      if (p.x !== undefined) bar(p.x, p.x, y + 8, 15, "#000", 2);
      marks(p.ev, y + 1);
    });
    if (!open) return;
    var cy = y + POD_H, prevKind = -1;
    p.cs.forEach(function (c) {
      if (prevKind >= 0 && prevKind < 2 && c.k === 2) {
        ctx.strokeStyle = "#c8ced6"; ctx.setLineDash([2, 2]);
        ctx.beginPath(); ctx.moveTo(30, cy + GAP / 2); ctx.lineTo(W, cy + GAP / 2); ctx.stroke(); ctx.setLineDash([]);
        cy += GAP;
      }
      prevKind = c.k;
      var kind = c.k === 0 ? "init " : c.k === 1 ? "sidecar " : "";
      label(kind + c.n, 30, cy + CONT_H / 2, { font: c.k < 2 ? "italic 11px sans-serif" : "11px sans-serif", color: c.k < 2 ? "#666" : "#333" });
      var h = c.k === 2 ? 10 : 7, off = (CONT_H - h) / 2;
      clip(cy, CONT_H, function () {
        // Instants (a termination followed at once by the next state) are
        // drawn last, 3px wide, terminations on top: no longer interval
        // hides them. (Array.sort is stable.)
        var narrow = [];
        c.s.forEach(function (s) { if (X(s[1]) - X(s[0]) < 3) narrow.push(s); else bar(s[0], s[1], cy + off, h, D.styles[s[2]][2], 0); });
        narrow.sort(function (a, b) { return (D.styles[a[2]][0] === "Terminated") - (D.styles[b[2]][0] === "Terminated"); });
        narrow.forEach(function (s) { bar(s[0], s[1], cy + off - 1, h + 2, D.styles[s[2]][2], 3); });
      });
      cy += CONT_H;
    });
  }

  // ---- hit testing and the tooltip ----
  function rowAt(py) {
    var yy = py - AXIS + state.scroll;
    var lo = 0, hi = rows.length - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (yy < rowY[mid]) hi = mid - 1; else if (yy >= rowY[mid] + rows[mid].h) lo = mid + 1; else return { k: mid, dy: yy - rowY[mid] };
    }
    return null;
  }
  function near(list, px, tol) {
    var best = null, bd = tol;
    list.forEach(function (m) { var d = Math.abs(X(m[0]) - px); if (d <= bd) { bd = d; best = m; } });
    return best;
  }
  function stepAt(list, t, end) {
    for (var i = list.length - 1; i >= 0; i--) if (list[i][0] <= t) return (i + 1 < list.length || t <= end) ? { s: list[i], e: i + 1 < list.length ? list[i + 1][0] : end } : null;
    return null;
  }
  function segAt(list, t, px) {
    var hit = null;
    list.forEach(function (s) {
      var x0 = X(s[0]), x1 = X(s[1]);
      if (x1 - x0 < 3) { var c = (x0 + x1) / 2; x0 = c - 2; x1 = c + 2; }
      if (px >= x0 && px <= x1 && (!hit || s[1] - s[0] < hit[1] - hit[0])) hit = s;
    });
    return hit;
  }
  function span(a, b) { return fmt(a) + " – " + fmt(b) + " (" + fmt(b - a) + ")"; }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function line(k, v) { return "<div><b>" + esc(k) + "</b> " + esc(v) + "</div>"; }
  function evTip(who, m) {
    return "<div class=t>" + esc(who) + " event at " + fmt(m[0]) + "</div>" + line(m[1] ? "Warning" : "Normal", S[m[2]]) + (S[m[3]] ? "<div class=msg>" + esc(S[m[3]]) + "</div>" : "");
  }

  function tipAt(px, py) {
    if (py < AXIS) return null;
    var hit = rowAt(py);
    if (!hit) return null;
    var r = rows[hit.k], dy = hit.dy, t = T(px);
    if (px < LABEL) {
      if (r.type === "pod") { var p = pods[r.pod]; return "<div class=t>pod/" + esc(p.n) + "</div>" + line("node", p.node >= 0 ? nodes[p.node].n : "none") + (p.wl >= 0 ? line("owner", wls[p.wl].k + "/" + wls[p.wl].n) : "") + line("created", fmt(p.c)) + (p.g !== undefined ? line("deleted", fmt(p.g)) : "") + "<div class=msg>click to " + (podOpen(r.pod) ? "close" : "open") + "</div>"; }
      if (r.type === "group" && !r.leaf) return "<div class=msg>click to " + (groupOpen(r.key) ? "close" : "open") + "</div>";
      return null;
    }
    if (r.type === "group" && r.kind === "hpa") {
      var a = hpas[r.idx], am = dy < 9 ? near(a.ev, px, 5) : null;
      if (am) return evTip("hpa/" + a.n, am);
      var q = stepAt(a.s, t, END);
      var ho = "<div class=t>hpa/" + esc(a.n) + " at " + fmt(t) + "</div>";
      if (!q) return ho + "<div class=msg>not synced yet</div>";
      var unit = a.pct ? "%" : "";
      ho += line("replicas", q.s[2] + " current, " + q.s[1] + " desired (" + a.min + "–" + a.max + ")");
      if (a.m) ho += line(a.m, (q.s[3] === null ? "<unknown>" : q.s[3] + unit) + " / " + a.mt + unit);
      return ho + line("since", span(q.s[0], q.e));
    }
    if (r.type === "group" && r.kind === "node") {
      var n = nodes[r.idx], m = dy < 9 ? near(n.ev, px, 5) : null;
      if (m) return evTip("node/" + n.n, m);
      var out = "<div class=t>node/" + esc(n.n) + " at " + fmt(t) + "</div>";
      var st = stepAt(n.r, t, END);
      if (st) out += line("Ready", D.status[st.s[1]] + (S[st.s[2]] ? " (" + S[st.s[2]] + ")" : "") + ", " + span(st.s[0], st.e));
      n.f.forEach(function (f) { if (f[0] <= t && t <= f[1]) out += line(D.faults[f[2]], span(f[0], f[1])); });
      n.tt.forEach(function (s) { if (s[0] <= t && t <= s[1]) out += line("taint", S[s[2]] + ", " + span(s[0], s[1])); });
      return out;
    }
    if (r.type === "group" && (r.kind === "wl" || r.kind === "bare")) {
      if (r.kind === "wl" && dy < 9) { var wm = near(wls[r.idx].ev, px, 5); if (wm) return evTip(wls[r.idx].k.toLowerCase() + "/" + wls[r.idx].n, wm); }
      var series = r.kind === "wl" ? wlCounts[r.idx] : D.bare;
      var c = stepAt(series, t, END), total = r.kind === "wl" ? wls[r.idx].p : bare.length, peak = 0;
      series.forEach(function (s) { peak = Math.max(peak, s[1]); });
      return "<div class=t>" + esc(r.label) + " at " + fmt(t) + "</div>" + line("ready pods", (c ? c.s[1] : 0) + " of at most " + peak + " at once (" + total + " created in all)");
    }
    if (r.type === "group" && r.kind === "svc") {
      var sv = svcs[r.idx], q = stepAt(sv.r, t, END), most = 0;
      sv.r.forEach(function (s) { most = Math.max(most, s[1] + s[2]); });
      var served = q ? q.s[1] : 0, failed = q ? q.s[2] : 0;
      return "<div class=t>service/" + esc(sv.n) + " at " + fmt(t) + "</div>" + line("served", served + " requests/s") + line("failed", failed + " requests/s") +
        (q ? line("since", span(q.s[0], q.e)) : "") + line("most offered", most + " requests/s");
    }
    if (r.type !== "pod") return null;
    var pd = pods[r.pod], end = pd.g !== undefined ? pd.g : END;
    if (dy < POD_H) {
      if (dy < 9) { var pm = near(pd.ev, px, 5); if (pm) return evTip("pod/" + pd.n, pm); }
      var ph = stepAt(pd.ph, t, end), rd = stepAt(pd.r, t, end);
      if (!ph) return null;
      var o = "<div class=t>pod/" + esc(pd.n) + " at " + fmt(t) + "</div>" + line("phase", D.phases[ph.s[1]] + ", " + span(ph.s[0], ph.e));
      if (rd) o += line("Ready", D.status[rd.s[1]] + (S[rd.s[2]] ? " (" + S[rd.s[2]] + ")" : "") + ", " + span(rd.s[0], rd.e));
      if (pd.x !== undefined) o += line("terminating since", fmt(pd.x));
      return o;
    }
    if (!podOpen(r.pod)) return null;
    var cy = POD_H, prev = -1;
    for (var i = 0; i < pd.cs.length; i++) {
      var ct = pd.cs[i];
      if (prev >= 0 && prev < 2 && ct.k === 2) cy += GAP;
      prev = ct.k;
      if (dy >= cy && dy < cy + CONT_H) {
        var s = segAt(ct.s, t, px);
        if (!s) return null;
        var sty = D.styles[s[2]];
        var kind = ct.k === 0 ? "init container " : ct.k === 1 ? "sidecar " : "container ";
        var txt = "<div class=t>" + esc(kind + pd.n + "/" + ct.n) + "</div>" + line(sty[0], S[s[3]] || sty[1]) + line("time", span(s[0], s[1])) + line("restartCount", s[5]);
        if (sty[0] === "Terminated") txt += line("exit code", s[4]);
        else if (s[4] !== null) txt += line("last state", "Terminated (" + S[s[6]] + "), exit code " + s[4]);
        return txt;
      }
      cy += CONT_H;
    }
    return null;
  }

  var tip = document.getElementById("tip");
  function showTip(e) {
    var rect = canvas.getBoundingClientRect();
    var html = tipAt(e.clientX - rect.left, e.clientY - rect.top);
    if (!html) { tip.hidden = true; return; }
    tip.innerHTML = html; tip.hidden = false;
    var x = e.clientX + 14, y = e.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth - 4) x = e.clientX - tip.offsetWidth - 10;
    if (y + tip.offsetHeight > window.innerHeight - 4) y = e.clientY - tip.offsetHeight - 10;
    tip.style.left = x + "px"; tip.style.top = y + "px";
  }

  // ---- interaction ----
  function clampView() {
    var span = state.t1 - state.t0, minSpan = Math.max(END * 1e-7, 1e-9), pad = END * 0.02;
    if (span < minSpan) { var c = (state.t0 + state.t1) / 2; state.t0 = c - minSpan / 2; state.t1 = c + minSpan / 2; span = minSpan; }
    if (span > END + 2 * pad) { state.t0 = -pad; state.t1 = END + pad; return; }
    if (state.t0 < -pad) { state.t1 += -pad - state.t0; state.t0 = -pad; }
    if (state.t1 > END + pad) { state.t0 -= state.t1 - END - pad; state.t1 = END + pad; }
  }
  function zoom(f, px) {
    var t = T(px === undefined ? (LABEL + W) / 2 : Math.max(px, LABEL));
    state.t0 = t - (t - state.t0) * f; state.t1 = t + (state.t1 - t) * f;
    clampView(); draw();
  }
  var frame = 0;
  function redraw() { if (!frame) frame = requestAnimationFrame(function () { frame = 0; draw(); }); }

  scroller.addEventListener("scroll", function () { state.scroll = scroller.scrollTop; redraw(); });
  canvas.addEventListener("wheel", function (e) {
    if (e.ctrlKey || e.altKey || e.metaKey) {
      e.preventDefault();
      var rect = canvas.getBoundingClientRect();
      zoom(Math.pow(1.0015, e.deltaY), e.clientX - rect.left);
    } else if (e.shiftKey) {
      e.preventDefault();
      var dt = (e.deltaY || e.deltaX) / (W - LABEL) * (state.t1 - state.t0);
      state.t0 += dt; state.t1 += dt; clampView(); redraw();
    }
  }, { passive: false });
  var drag = null;
  canvas.addEventListener("mousedown", function (e) {
    var rect = canvas.getBoundingClientRect();
    if (e.clientX - rect.left < LABEL) return;
    drag = { x: e.clientX, y: e.clientY, t0: state.t0, t1: state.t1, scroll: scroller.scrollTop, moved: false };
    e.preventDefault();
  });
  window.addEventListener("mousemove", function (e) {
    if (drag) {
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      var dt = dx / (W - LABEL - 12) * (drag.t1 - drag.t0);
      state.t0 = drag.t0 - dt; state.t1 = drag.t1 - dt; clampView();
      scroller.scrollTop = drag.scroll - dy;
      tip.hidden = true; redraw();
      return;
    }
    if (e.target === canvas) showTip(e); else tip.hidden = true;
  });
  window.addEventListener("mouseup", function () { drag = null; });
  canvas.addEventListener("mouseleave", function () { tip.hidden = true; });
  canvas.addEventListener("click", function (e) {
    var rect = canvas.getBoundingClientRect(), px = e.clientX - rect.left, py = e.clientY - rect.top;
    if (px >= LABEL || py < AXIS) return;
    var hit = rowAt(py);
    if (!hit) return;
    var r = rows[hit.k];
    if (r.type === "pod" && hit.dy < POD_H) state.podOpen[r.pod] = !podOpen(r.pod);
    else if ((r.type === "group" && !r.leaf) || r.type === "section") state.open[r.key] = !groupOpen(r.key);
    else return;
    build(); draw(); showTip(e);
  });
  window.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT") return;
    var span = state.t1 - state.t0;
    if (e.key === "+" || e.key === "=" || e.key === "w") zoom(0.8);
    else if (e.key === "-" || e.key === "s") zoom(1.25);
    else if (e.key === "0") reset();
    else if (e.key === "ArrowLeft" || e.key === "a") { state.t0 -= span * 0.1; state.t1 -= span * 0.1; clampView(); draw(); }
    else if (e.key === "ArrowRight" || e.key === "d") { state.t0 += span * 0.1; state.t1 += span * 0.1; clampView(); draw(); }
  });
  function reset() { var pad = END * 0.01; state.t0 = -pad; state.t1 = END + pad; draw(); }
  function on(id, fn) { document.getElementById(id).addEventListener("click", fn); }
  on("zin", function () { zoom(0.5); });
  on("zout", function () { zoom(2); });
  on("zreset", reset);
  on("bynode", function () { state.mode = "node"; mode(); });
  on("bywl", function () { state.mode = "wl"; mode(); });
  on("openall", function () { setAll(true); });
  on("closeall", function () { setAll(false); });
  function setAll(v) {
    rows.forEach(function (r) { if (r.type === "pod") state.podOpen[r.pod] = v; });
    if (v) { state.open = {}; defaultGroupOpen = true; } else { state.open = {}; defaultGroupOpen = false; }
    build(); draw();
  }
  function mode() {
    document.getElementById("bynode").classList.toggle("on", state.mode === "node");
    document.getElementById("bywl").classList.toggle("on", state.mode === "wl");
    scroller.scrollTop = 0; state.scroll = 0;
    build(); draw();
  }

  // ---- header and legend ----
  function text(id, s) { document.getElementById(id).textContent = s; }
  text("title", D.title);
  text("desc", D.desc);
  text("meta", "seed " + D.seed + " · " + fmt(D.end) + " of virtual time · " + pods.length + " pods on " + nodes.length + " nodes · " + wls.length + " workloads");
  function swatch(color, name, cls) {
    var s = document.createElement("span"); s.className = "item";
    var b = document.createElement("i"); b.style.background = color; if (cls) b.className = cls;
    s.appendChild(b); s.appendChild(document.createTextNode(name)); return s;
  }
  function legendRow(title, items) {
    var row = document.createElement("div"); row.className = "lrow";
    var h = document.createElement("b"); h.textContent = title; row.appendChild(h);
    items.forEach(function (it) { row.appendChild(it); });
    document.getElementById("legend").appendChild(row);
  }
  ["Waiting", "Running", "Terminated"].forEach(function (st) {
    legendRow(st, D.styles.filter(function (s) { return s[0] === st; }).map(function (s) { return swatch(s[2], s[1]); }));
  });
  legendRow("Pod", D.phases.map(function (p, i) { return swatch(D.phaseColors[i], p); }).concat([swatch(D.statusColors[1], "Ready (thin line)", "thin"), swatch("#000", "Terminating", "tick")]));
  legendRow("Node", [swatch(D.statusColors[1], "Ready"), swatch(D.statusColors[0], "NotReady"), swatch(D.statusColors[2], "Unknown")]
    .concat(D.faults.map(function (f, i) { return swatch(D.faultColors[i], f, "hatch"); })).concat([swatch(COLORS.taint, "taint", "thin")]));
  if (hpas.length) legendRow("Autoscaler", [swatch(HPA.metric, "metric (dashed: its target)", "thin"), swatch(HPA.current, "current replicas"), swatch(HPA.desired, "desired replicas", "thin")]);
  legendRow("Events", [swatch(COLORS.normal, "Normal", "diamond"), swatch(COLORS.warn, "Warning", "tri"), swatch(COLORS.count, "ready pods of a group"), swatch(COLORS.dip, "fewer ready than its peak")]);
  if (svcs.length) legendRow("Requests", [swatch(COLORS.served, "served per second"), swatch(COLORS.failed, "failed per second")]);

  window.addEventListener("resize", function () { resize(); build(); draw(); });
  resize();
  mode();
  reset();
  document.body.setAttribute("data-rows", String(rows.length));
  document.body.setAttribute("data-pods", String(pods.length));
  document.body.setAttribute("data-rendered", "1");
})();
