// The state-graph page (see src/graph/html.rs): draws the graph embedded in #graph-data on a
// canvas, with d3-zoom for pan and zoom and d3-force for the force layout. Boards are drawn from
// their text by the instance's BoardStyle, as src/picture.rs draws them in SVG.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("graph-data").textContent);
  const style = data.style;
  const N = data.boards.length;
  const links = data.links; // flat: source, target, label index, ...
  const E = links.length / 3;
  const depth = data.depth;
  const goalDistance = data.goal_distance;
  const isGoal = new Uint8Array(N);
  for (const g of data.goals) isGoal[g] = 1;

  // ---- adjacency (compressed rows): moves out of a node; both ways when undirected ----
  function adjacency(forward, backward) {
    const start = new Uint32Array(N + 1);
    for (let e = 0; e < E; e++) {
      if (forward) start[links[3 * e] + 1]++;
      if (backward) start[links[3 * e + 1] + 1]++;
    }
    for (let i = 0; i < N; i++) start[i + 1] += start[i];
    const fill = start.slice(0, N);
    const to = new Uint32Array(start[N]);
    const label = new Uint32Array(start[N]);
    for (let e = 0; e < E; e++) {
      const s = links[3 * e], t = links[3 * e + 1], l = links[3 * e + 2];
      if (forward) { to[fill[s]] = t; label[fill[s]++] = l; }
      if (backward) { to[fill[t]] = s; label[fill[t]++] = l; }
    }
    return { start, to, label };
  }
  const out = adjacency(true, !data.directed);
  const into = data.directed ? adjacency(false, true) : out;

  // ---- boards: parsed once into cells ----
  function grid(text) {
    if (style.kind === "text") {
      const lines = text.split("\n").map((l) => l.replace(/\s+$/, ""));
      while (lines.length && !lines[0]) lines.shift();
      while (lines.length && !lines[lines.length - 1]) lines.pop();
      return lines.map((l) => [l]);
    }
    const rows = text.split("\n").map((l) => l.trim()).filter((l) => l.length);
    const chars = style.kind === "cells" || style.kind === "blocks";
    return chars ? rows.map((r) => Array.from(r)) : rows.map((r) => r.split(/\s+/));
  }
  const palette = style.kind === "cells" ? style.colours.map((c) => c[1]) : [];
  const UNKNOWN = palette.length; // grey, with the character drawn
  palette.push("#bbbbbb");
  function colourIndex(ch) {
    let i = style.colours.findIndex((c) => c[0] === ch);
    if (i < 0) i = style.colours.findIndex((c) => c[0].toLowerCase() === ch.toLowerCase());
    return i < 0 ? UNKNOWN : i;
  }
  const BOX = 24; // world units a cell board's longer side takes
  const TEXT_FONT = 4;
  const grids = data.boards.map(grid);
  const shape = grids.map((g) => {
    const rows = g.length;
    const cols = g.reduce((m, r) => Math.max(m, style.kind === "text" ? r[0].length : r.length), 0);
    if (style.kind === "text") {
      return { rows, cols, cell: TEXT_FONT, w: cols * TEXT_FONT * 0.6 + 2, h: rows * TEXT_FONT * 1.25 + 2 };
    }
    const cell = BOX / Math.max(rows, cols, 1);
    return { rows, cols, cell, w: cols * cell, h: rows * cell };
  });
  let maxW = 1, maxH = 1;
  for (const s of shape) { maxW = Math.max(maxW, s.w); maxH = Math.max(maxH, s.h); }
  // Cells boards as colour indices, row-major (255: no cell), and each board's commonest colour,
  // which stands for the board when it is drawn smaller than a few pixels.
  const cellColours = [];
  const dominant = new Uint8Array(N);
  if (style.kind === "cells") {
    for (let i = 0; i < N; i++) {
      const { rows, cols } = shape[i];
      const c = new Uint8Array(rows * cols).fill(255);
      const count = new Uint32Array(palette.length);
      grids[i].forEach((row, r) => row.forEach((ch, k) => { const x = colourIndex(ch); c[r * cols + k] = x; count[x]++; }));
      let best = 0;
      for (let x = 1; x < count.length; x++) if (count[x] > count[best]) best = x;
      dominant[i] = best;
      cellColours.push(c);
    }
  }
  const SMALL_COLOUR = style.kind === "tiles" ? "#f2d49b" : "#dddddd";

  // Blocks boards: each piece one rectangle, cut from the letters as src/picture.rs's `blocks`
  // cuts them (row by row, the first cell of a letter not yet cut is a piece's top-left corner).
  const blockColours = style.kind === "blocks" ? style.pieces.map((b) => b.colour).concat(["#bbbbbb"]) : [];
  function cutBlocks(g) {
    const taken = g.map((row) => row.map(() => false));
    const out = [];
    g.forEach((row, r) => row.forEach((ch, c) => {
      if (taken[r][c] || ch === "." || ch === "#") return;
      const b = style.pieces.findIndex((p) => p.letter === ch);
      let rows = b < 0 ? 1 : style.pieces[b].rows, cols = b < 0 ? 1 : style.pieces[b].cols;
      let whole = true;
      for (let dr = 0; dr < rows; dr++) {
        for (let dc = 0; dc < cols; dc++) {
          if (!g[r + dr] || g[r + dr][c + dc] !== ch || taken[r + dr][c + dc]) whole = false;
        }
      }
      if (!whole) { rows = 1; cols = 1; }
      for (let dr = 0; dr < rows; dr++) for (let dc = 0; dc < cols; dc++) taken[r + dr][c + dc] = true;
      out.push({ r, c, rows, cols, colour: whole && b >= 0 ? b : blockColours.length - 1 });
    }));
    return out;
  }
  const blockCuts = style.kind === "blocks" ? grids.map(cutBlocks) : [];
  // A blocks board's floor, walls and pieces into paths (one per colour), at `left`, `top`.
  function blockPaths(i, left, top, cell, floor, walls, paths) {
    const s = shape[i];
    floor.rect(left, top, s.cols * cell, s.rows * cell);
    grids[i].forEach((row, r) => row.forEach((t, q) => { if (t === "#") walls.rect(left + q * cell, top + r * cell, cell, cell); }));
    const inset = cell * 0.06;
    for (const p of blockCuts[i]) {
      paths[p.colour].rect(left + p.c * cell + inset, top + p.r * cell + inset, p.cols * cell - 2 * inset, p.rows * cell - 2 * inset);
    }
  }

  // ---- layouts ----
  const nodes = Array.from({ length: N }, (_, i) => ({ index: i, x: 0, y: 0 }));
  const maxDepth = depth.reduce((m, d) => Math.max(m, d), 0);
  const layers = Array.from({ length: maxDepth + 1 }, () => []);
  for (let i = 0; i < N; i++) layers[depth[i]].push(i);
  const rowY = new Float64Array(maxDepth + 1); // where each depth's rows start (depth layout)
  const SPACE_X = maxW * 1.6, SPACE_Y = maxH * 1.9;
  let depthPositions = null, forcePositions = null, simulation = null, layout = "depth";

  // Rows by depth, as Graphviz draws the DOT export: each depth's nodes ordered by where their
  // parents are (one barycentre sweep), wide depths wrapped onto several rows: as many boards a
  // row as make the picture's shape closest to the window's, so that it fills the window.
  function rowLength() {
    const widest = layers.reduce((m, l) => Math.max(m, l.length), 1);
    const aspect = cssW / cssH;
    let best = widest, bestError = Infinity;
    for (let p = 1; p <= widest; p++) {
      let rows = 0;
      for (const l of layers) rows += Math.ceil(l.length / p);
      const height = rows * SPACE_Y + layers.length * SPACE_Y * 0.5;
      const error = Math.abs(Math.log((p * SPACE_X) / height / aspect));
      if (error < bestError) { best = p; bestError = error; }
    }
    return best;
  }

  function depthLayout() {
    const perRow = rowLength();
    const order = new Float64Array(N);
    const key = new Float64Array(N);
    const pos = new Float64Array(2 * N);
    let y = 0;
    for (let d = 0; d <= maxDepth; d++) {
      const layer = layers[d];
      if (d > 0) {
        for (const v of layer) {
          let sum = 0, n = 0;
          for (let k = into.start[v]; k < into.start[v + 1]; k++) {
            const u = into.to[k];
            if (depth[u] === d - 1) { sum += order[u]; n++; }
          }
          key[v] = n ? sum / n : 0;
        }
        layer.sort((a, b) => key[a] - key[b] || a - b);
      }
      layer.forEach((v, i) => { order[v] = i / Math.max(1, layer.length - 1); });
      const rows = Math.ceil(layer.length / perRow);
      rowY[d] = y;
      layer.forEach((v, i) => {
        const r = Math.floor(i / perRow), c = i % perRow;
        const inRow = r < rows - 1 ? perRow : layer.length - r * perRow;
        pos[2 * v] = (c - (inRow - 1) / 2) * SPACE_X;
        pos[2 * v + 1] = y + r * SPACE_Y;
      });
      y += rows * SPACE_Y + SPACE_Y * 0.5;
    }
    return pos;
  }

  function place(pos) { for (let i = 0; i < N; i++) { nodes[i].x = pos[2 * i]; nodes[i].y = pos[2 * i + 1]; } }
  function save() { const pos = new Float64Array(2 * N); for (let i = 0; i < N; i++) { pos[2 * i] = nodes[i].x; pos[2 * i + 1] = nodes[i].y; } return pos; }

  function useDepth() {
    if (simulation) { simulation.stop(); forcePositions = save(); }
    if (!depthPositions) depthPositions = depthLayout();
    place(depthPositions);
    setLayout("depth");
  }

  function useForce() {
    if (layout === "force") return;
    setLayout("force");
    if (forcePositions) { place(forcePositions); fit(); return; }
    // d3 places unplaced nodes on a phyllotaxis spiral in index (BFS) order: the start at the
    // centre and depths in rings, which the forces then only untangle.
    for (const n of nodes) { n.x = NaN; n.y = NaN; n.vx = 0; n.vy = 0; }
    userMoved = false;
    const forceStart = performance.now();
    const edges = [];
    for (let e = 0; e < E; e++) edges.push({ source: links[3 * e], target: links[3 * e + 1] });
    simulation = d3.forceSimulation(nodes)
      .force("link", d3.forceLink(edges).distance(SPACE_X))
      .force("charge", d3.forceManyBody().strength(-maxW * 6).theta(0.9).distanceMax(SPACE_X * 30))
      .force("center", d3.forceCenter(0, 0))
      // Follow the layout as it spreads (fit is one pass over the nodes) until the reader moves.
      .on("tick", () => { if (!userMoved) fit(); schedule(); })
      .on("end", () => {
        forcePositions = save();
        if (!userMoved) fit();
        // How long the layout took, for measurements (README's figures).
        document.body.dataset.forceMs = String(Math.round(performance.now() - forceStart));
      });
    fit();
  }

  function setLayout(name) {
    layout = name;
    document.body.dataset.layout = name;
    document.getElementById("depth-layout").setAttribute("aria-pressed", String(name === "depth"));
    document.getElementById("force-layout").setAttribute("aria-pressed", String(name === "force"));
  }

  // ---- canvas, pan and zoom ----
  const canvas = document.getElementById("view");
  const ctx = canvas.getContext("2d");
  const dpr = window.devicePixelRatio || 1;
  let cssW = 1, cssH = 1;
  let transform = d3.zoomIdentity;
  // userMoved: the reader panned or zoomed, so the running force layout stops refitting the view.
  let userMoved = false;
  const zoom = d3.zoom().scaleExtent([1e-4, 64]).on("zoom", (event) => {
    transform = event.transform;
    if (event.sourceEvent) userMoved = true;
    schedule();
  });
  const selection = d3.select(canvas).call(zoom).on("dblclick.zoom", null);

  function resize() {
    const box = canvas.getBoundingClientRect();
    cssW = Math.max(1, box.width); cssH = Math.max(1, box.height);
    canvas.width = Math.round(cssW * dpr); canvas.height = Math.round(cssH * dpr);
    schedule();
  }

  function fit() {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const n of nodes) { x0 = Math.min(x0, n.x); x1 = Math.max(x1, n.x); y0 = Math.min(y0, n.y); y1 = Math.max(y1, n.y); }
    const w = x1 - x0 + SPACE_X * 2, h = y1 - y0 + SPACE_Y * 2;
    const margin = layout === "depth" ? 56 : 0; // room for the depth labels on the left
    const k = Math.min((cssW - margin) / w, cssH / h, 8);
    const t = d3.zoomIdentity.translate(margin + (cssW - margin) / 2 - k * (x0 + x1) / 2, cssH / 2 - k * (y0 + y1) / 2).scale(k);
    selection.call(zoom.transform, t);
  }

  function centreOn(i) {
    const k = Math.max(transform.k, 120 / Math.max(maxW, maxH));
    const t = d3.zoomIdentity.translate(cssW / 2 - k * nodes[i].x, cssH / 2 - k * nodes[i].y).scale(k);
    selection.call(zoom.transform, t);
  }

  let pending = false;
  function schedule() { if (!pending) { pending = true; requestAnimationFrame(draw); } }

  // ---- the path to a goal ----
  let selected = -1, hovered = -1;
  let pathNodes = new Set(), pathEdges = []; // pathEdges: [from, to, from, to, ...]

  // The fewest moves from `from` to a goal: by goal distances when the graph is the whole
  // component (they are exact), else by a breadth-first search inside the page toward the goal
  // nodes (the shortest within this graph: a shorter way may leave it).
  function pathToGoal(from) {
    const path = [from], moves = [];
    if (data.complete) {
      if (goalDistance[from] === null) return null;
      let u = from;
      while (goalDistance[u] > 0) {
        let next = -1, label = 0;
        for (let k = out.start[u]; k < out.start[u + 1]; k++) {
          if (goalDistance[out.to[k]] === goalDistance[u] - 1) { next = out.to[k]; label = out.label[k]; break; }
        }
        if (next < 0) return null; // cannot happen with exact distances
        path.push(next); moves.push(data.labels[label]); u = next;
      }
      return { path, moves };
    }
    const parent = new Int32Array(N).fill(-1), via = new Uint32Array(N);
    parent[from] = from;
    const queue = [from];
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head];
      if (isGoal[u]) {
        const back = [];
        for (let v = u; v !== from; v = parent[v]) back.push(v);
        back.reverse();
        for (const v of back) { path.push(v); moves.push(data.labels[via[v]]); }
        return { path, moves };
      }
      for (let k = out.start[u]; k < out.start[u + 1]; k++) {
        const v = out.to[k];
        if (parent[v] < 0) { parent[v] = u; via[v] = out.label[k]; queue.push(v); }
      }
    }
    return null;
  }

  function distanceText(i) {
    if (!data.complete) return "unknown (the graph was cut)";
    return goalDistance[i] === null ? "none: no goal is reachable" : String(goalDistance[i]);
  }

  function select(i) {
    selected = i;
    pathNodes = new Set(); pathEdges = [];
    const info = document.getElementById("info");
    if (i < 0) { info.textContent = ""; schedule(); return; }
    const found = pathToGoal(i);
    let text = `board #${i}: depth ${depth[i]}, goal distance ${distanceText(i)}. `;
    if (found) {
      found.path.forEach((v, k) => { pathNodes.add(v); if (k) pathEdges.push(found.path[k - 1], v); });
      text += isGoal[i] ? "It is a goal." : `Shortest path to a goal${data.complete ? "" : " inside this graph (found in the page: the graph was cut)"}: ${found.moves.length} moves: `;
    } else {
      text += data.complete ? "No goal is reachable from it." : "No goal inside this graph is reachable from it.";
    }
    info.textContent = text;
    if (found && !isGoal[i]) {
      const code = document.createElement("code");
      code.textContent = found.moves.join(" ");
      info.appendChild(code);
    }
    schedule();
  }

  // ---- drawing ----
  let firstDraw = true;
  function draw() {
    pending = false;
    const k = transform.k;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, cssW, cssH);
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * transform.x, dpr * transform.y);
    const x0 = -transform.x / k, y0 = -transform.y / k;
    const x1 = (cssW - transform.x) / k, y1 = (cssH - transform.y) / k;
    const hw = maxW / 2 + 4 / k, hh = maxH / 2 + 4 / k;
    const visible = [];
    for (let i = 0; i < N; i++) {
      const n = nodes[i];
      if (n.x + hw >= x0 && n.x - hw <= x1 && n.y + hh >= y0 && n.y - hh <= y1) visible.push(i);
    }
    const px = Math.max(maxW, maxH) * k; // a board's size on screen, in CSS pixels

    // Moves, in one path (one stroke call whatever their number).
    ctx.beginPath();
    for (let e = 0; e < E; e++) {
      const a = nodes[links[3 * e]], b = nodes[links[3 * e + 1]];
      if ((a.x < x0 && b.x < x0) || (a.x > x1 && b.x > x1) || (a.y < y0 && b.y < y0) || (a.y > y1 && b.y > y1)) continue;
      ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y);
    }
    ctx.lineWidth = 1 / k;
    ctx.strokeStyle = E > 20000 ? "rgba(90,90,90,0.18)" : "rgba(90,90,90,0.4)";
    ctx.stroke();
    if (data.directed && px >= 12) arrowheads(x0, y0, x1, y1, k);
    if (pathEdges.length) {
      ctx.beginPath();
      for (let p = 0; p < pathEdges.length; p += 2) {
        const a = nodes[pathEdges[p]], b = nodes[pathEdges[p + 1]];
        ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y);
      }
      ctx.lineWidth = 3 / k; ctx.strokeStyle = "#e6550d"; ctx.stroke();
    }

    // Start and goals as in the DOT export (start filled blue, goals green with a double
    // border), and the path's boards orange: pads behind the boards, never under 3 pixels.
    const pad = Math.max(maxW * 0.15, 3 / k);
    const pads = (colour, test) => {
      ctx.beginPath();
      for (const i of visible) if (test(i)) { const s = shape[i]; ctx.rect(nodes[i].x - s.w / 2 - pad, nodes[i].y - s.h / 2 - pad, s.w + 2 * pad, s.h + 2 * pad); }
      ctx.fillStyle = colour; ctx.fill();
    };
    pads("#fdae6b", (i) => pathNodes.has(i));
    pads("#a1d99b", (i) => isGoal[i] === 1);
    pads("#9ecae1", (i) => i === 0);
    ctx.beginPath();
    for (const i of visible) if (isGoal[i]) { const s = shape[i]; const p2 = pad * 0.45; ctx.rect(nodes[i].x - s.w / 2 - p2, nodes[i].y - s.h / 2 - p2, s.w + 2 * p2, s.h + 2 * p2); ctx.rect(nodes[i].x - s.w / 2 - pad, nodes[i].y - s.h / 2 - pad, s.w + 2 * pad, s.h + 2 * pad); }
    ctx.lineWidth = Math.max(1 / k, pad * 0.15); ctx.strokeStyle = "#31a354"; ctx.stroke();

    if (px < 4) drawSmall(visible); else drawBoards(visible, px, k);

    // Frames: every board thin grey; the hovered one black, the selected one red.
    if (px >= 4) {
      ctx.beginPath();
      for (const i of visible) { const s = shape[i]; ctx.rect(nodes[i].x - s.w / 2, nodes[i].y - s.h / 2, s.w, s.h); }
      ctx.lineWidth = 1 / k; ctx.strokeStyle = "#555555"; ctx.stroke();
    }
    for (const [i, colour] of [[hovered, "#000000"], [selected, "#d62728"]]) {
      if (i < 0) continue;
      const s = shape[i];
      ctx.lineWidth = 2.5 / k; ctx.strokeStyle = colour;
      ctx.strokeRect(nodes[i].x - s.w / 2 - pad, nodes[i].y - s.h / 2 - pad, s.w + 2 * pad, s.h + 2 * pad);
    }

    // Depth labels beside the rows, in screen space.
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (layout === "depth" && SPACE_Y * k > 14) {
      ctx.font = "11px sans-serif"; ctx.fillStyle = "#555555"; ctx.textBaseline = "middle";
      for (let d = 0; d <= maxDepth; d++) {
        const y = transform.y + k * rowY[d];
        if (y > -10 && y < cssH + 10) ctx.fillText(`depth ${d}`, 4, y);
      }
    }
    document.body.dataset.rendered = String(visible.length);
    if (firstDraw) {
      firstDraw = false;
      document.body.dataset.renderMs = String(Math.round(performance.now()));
    }
  }

  // Boards smaller than 4 pixels: one rectangle each in the board's commonest colour.
  function drawSmall(visible) {
    const groups = new Map();
    for (const i of visible) {
      const colour = style.kind === "cells" ? palette[dominant[i]] : SMALL_COLOUR;
      if (!groups.has(colour)) groups.set(colour, new Path2D());
      const s = shape[i];
      groups.get(colour).rect(nodes[i].x - s.w / 2, nodes[i].y - s.h / 2, s.w, s.h);
    }
    for (const [colour, path] of groups) { ctx.fillStyle = colour; ctx.fill(path); }
    ctx.lineWidth = 0.5 / transform.k; ctx.strokeStyle = "#777777";
    for (const path of groups.values()) ctx.stroke(path);
  }

  // Boards as pictures: one path per colour over all visible boards (a few fill calls for
  // thousands of boards); text only when it is large enough to read.
  function drawBoards(visible, px, k) {
    if (style.kind === "cells") {
      const paths = palette.map(() => new Path2D());
      for (const i of visible) {
        const s = shape[i], c = cellColours[i];
        const left = nodes[i].x - s.w / 2, top = nodes[i].y - s.h / 2;
        for (let r = 0; r < s.rows; r++) {
          for (let q = 0; q < s.cols; q++) {
            const x = c[r * s.cols + q];
            if (x !== 255) paths[x].rect(left + q * s.cell, top + r * s.cell, s.cell, s.cell);
          }
        }
      }
      paths.forEach((p, x) => { ctx.fillStyle = palette[x]; ctx.fill(p); });
      if (px >= 60) {
        ctx.lineWidth = 0.5 / k; ctx.strokeStyle = "#999999";
        paths.forEach((p) => ctx.stroke(p));
      }
      if (px >= 40) cellText(visible, (i, r, q) => cellColours[i][r * shape[i].cols + q] === UNKNOWN, "#333333");
    } else if (style.kind === "blocks") {
      const floor = new Path2D(), walls = new Path2D(), paths = blockColours.map(() => new Path2D());
      for (const i of visible) {
        const s = shape[i];
        blockPaths(i, nodes[i].x - s.w / 2, nodes[i].y - s.h / 2, s.cell, floor, walls, paths);
      }
      ctx.fillStyle = "#f4f1ea"; ctx.fill(floor);
      ctx.fillStyle = "#444444"; ctx.fill(walls);
      paths.forEach((p, x) => { ctx.fillStyle = blockColours[x]; ctx.fill(p); });
      if (px >= 20) { ctx.lineWidth = 0.5 / k; ctx.strokeStyle = "#333333"; paths.forEach((p) => ctx.stroke(p)); }
    } else if (style.kind === "tiles") {
      const blank = new Path2D(), tile = new Path2D();
      for (const i of visible) {
        const s = shape[i];
        const left = nodes[i].x - s.w / 2, top = nodes[i].y - s.h / 2;
        grids[i].forEach((row, r) => row.forEach((t, q) => {
          (t === "_" ? blank : tile).rect(left + q * s.cell, top + r * s.cell, s.cell, s.cell);
        }));
      }
      ctx.fillStyle = "#e0e0e0"; ctx.fill(blank);
      ctx.fillStyle = "#f2d49b"; ctx.fill(tile);
      if (px >= 20) { ctx.lineWidth = 1 / k; ctx.strokeStyle = "#8a6d3b"; ctx.stroke(tile); }
      if (px >= 30) cellText(visible, (i, r, q) => grids[i][r][q] !== "_", "#3b2a10");
    } else {
      const boxes = new Path2D();
      for (const i of visible) { const s = shape[i]; boxes.rect(nodes[i].x - s.w / 2, nodes[i].y - s.h / 2, s.w, s.h); }
      ctx.fillStyle = "#f7f7f7"; ctx.fill(boxes);
      if (px >= 30) {
        ctx.fillStyle = "#222222"; ctx.font = `${TEXT_FONT}px monospace`; ctx.textBaseline = "top"; ctx.textAlign = "left";
        for (const i of visible) {
          const s = shape[i];
          grids[i].forEach((line, r) => ctx.fillText(line[0], nodes[i].x - s.w / 2 + 1, nodes[i].y - s.h / 2 + 1 + r * TEXT_FONT * 1.25));
        }
      }
    }
  }

  function cellText(visible, wanted, colour) {
    ctx.fillStyle = colour; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (const i of visible) {
      const s = shape[i];
      ctx.font = `${s.cell * 0.5}px sans-serif`;
      const left = nodes[i].x - s.w / 2, top = nodes[i].y - s.h / 2;
      grids[i].forEach((row, r) => row.forEach((t, q) => {
        if (wanted(i, r, q)) ctx.fillText(t, left + (q + 0.5) * s.cell, top + (r + 0.5) * s.cell);
      }));
    }
  }

  // Directed graphs: a small arrowhead where each visible move meets its target's board.
  function arrowheads(x0, y0, x1, y1, k) {
    ctx.beginPath();
    const size = Math.max(maxW * 0.25, 4 / k), reach = Math.max(maxW, maxH) * 0.5 + maxW * 0.15;
    for (let e = 0; e < E; e++) {
      const a = nodes[links[3 * e]], b = nodes[links[3 * e + 1]];
      if (b.x < x0 || b.x > x1 || b.y < y0 || b.y > y1) continue;
      const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy);
      if (len <= reach) continue;
      const ux = dx / len, uy = dy / len;
      const tx = b.x - ux * reach, ty = b.y - uy * reach;
      ctx.moveTo(tx, ty);
      ctx.lineTo(tx - ux * size - uy * size * 0.5, ty - uy * size + ux * size * 0.5);
      ctx.lineTo(tx - ux * size + uy * size * 0.5, ty - uy * size - ux * size * 0.5);
      ctx.closePath();
    }
    ctx.fillStyle = "#777777"; ctx.fill();
  }

  // One board, large, for the hover card.
  function drawCard(i) {
    const s = shape[i];
    const scale = Math.max(1, Math.min(8, 160 / Math.max(s.w, s.h)));
    const c = document.createElement("canvas");
    c.width = Math.ceil(s.w * scale * dpr) + 2; c.height = Math.ceil(s.h * scale * dpr) + 2;
    c.style.width = `${c.width / dpr}px`; c.style.height = `${c.height / dpr}px`;
    const g = c.getContext("2d");
    g.setTransform(scale * dpr, 0, 0, scale * dpr, 1, 1);
    const cell = s.cell;
    g.textAlign = "center"; g.textBaseline = "middle";
    grids[i].forEach((row, r) => row.forEach((t, q) => {
      const x = q * cell, y = r * cell;
      if (style.kind === "cells") {
        const x2 = cellColours[i][r * s.cols + q];
        g.fillStyle = palette[x2]; g.fillRect(x, y, cell, cell);
        g.lineWidth = 0.5 / scale; g.strokeStyle = "#999999"; g.strokeRect(x, y, cell, cell);
        if (x2 === UNKNOWN) { g.fillStyle = "#333333"; g.font = `${cell * 0.5}px sans-serif`; g.fillText(t, x + cell / 2, y + cell / 2); }
      } else if (style.kind === "tiles") {
        g.fillStyle = t === "_" ? "#e0e0e0" : "#f2d49b"; g.fillRect(x, y, cell, cell);
        if (t !== "_") {
          g.lineWidth = 1 / scale; g.strokeStyle = "#8a6d3b"; g.strokeRect(x, y, cell, cell);
          g.fillStyle = "#3b2a10"; g.font = `${cell * 0.5}px sans-serif`; g.fillText(t, x + cell / 2, y + cell / 2);
        }
      }
    }));
    if (style.kind === "blocks") {
      const floor = new Path2D(), walls = new Path2D(), paths = blockColours.map(() => new Path2D());
      blockPaths(i, 0, 0, cell, floor, walls, paths);
      g.fillStyle = "#f4f1ea"; g.fill(floor);
      g.fillStyle = "#444444"; g.fill(walls);
      g.lineWidth = 1 / scale; g.strokeStyle = "#333333";
      paths.forEach((p, x) => { g.fillStyle = blockColours[x]; g.fill(p); g.stroke(p); });
      g.fillStyle = "#ffffff"; g.font = `${cell * 0.5}px sans-serif`;
      for (const p of blockCuts[i]) g.fillText(grids[i][p.r][p.c], (p.c + p.cols / 2) * cell, (p.r + p.rows / 2) * cell);
    }
    if (style.kind === "text") return null; // the text itself is on the card
    g.lineWidth = 1 / scale; g.strokeStyle = "#555555"; g.strokeRect(0, 0, s.w, s.h);
    return c;
  }

  // ---- hover, click, search ----
  function nodeAt(clientX, clientY) {
    const box = canvas.getBoundingClientRect();
    const [wx, wy] = transform.invert([clientX - box.left, clientY - box.top]);
    const slack = 3 / transform.k;
    let best = -1, bestDistance = Infinity;
    for (let i = 0; i < N; i++) {
      const dx = Math.abs(nodes[i].x - wx), dy = Math.abs(nodes[i].y - wy);
      if (dx <= shape[i].w / 2 + slack && dy <= shape[i].h / 2 + slack && dx + dy < bestDistance) { best = i; bestDistance = dx + dy; }
    }
    return best;
  }

  const tip = document.getElementById("tip");
  canvas.addEventListener("mousemove", (event) => {
    const i = nodeAt(event.clientX, event.clientY);
    if (i !== hovered) { hovered = i; schedule(); }
    if (i < 0) { tip.hidden = true; return; }
    tip.replaceChildren();
    const head = document.createElement("div");
    const flags = [i === 0 ? "start" : "", isGoal[i] ? "goal" : ""].filter((f) => f).join(", ");
    head.textContent = `#${i}${flags ? ` (${flags})` : ""}: depth ${depth[i]}, goal distance ${distanceText(i)}`;
    tip.appendChild(head);
    const card = drawCard(i);
    if (card) tip.appendChild(card);
    const pre = document.createElement("pre");
    pre.textContent = data.boards[i];
    tip.appendChild(pre);
    const stage = canvas.parentElement.getBoundingClientRect();
    tip.hidden = false;
    const x = event.clientX - stage.left + 14, y = event.clientY - stage.top + 14;
    tip.style.left = `${Math.min(x, stage.width - tip.offsetWidth - 4)}px`;
    tip.style.top = `${Math.min(y, stage.height - tip.offsetHeight - 4)}px`;
  });
  canvas.addEventListener("mouseleave", () => { tip.hidden = true; hovered = -1; schedule(); });
  canvas.addEventListener("click", (event) => select(nodeAt(event.clientX, event.clientY)));

  // A board by its text: rows may be typed with spaces or `/` between them; letters match in
  // either case when no board matches exactly.
  const squeeze = (t) => t.replace(/[\s/|,;]+/g, " ").trim();
  const bare = (t) => t.replace(/[\s/|,;]+/g, "");
  let matches = [], shown = 0, lastQuery = null;
  function find() {
    const query = document.getElementById("find").value;
    const report = document.getElementById("found");
    if (query !== lastQuery) {
      lastQuery = query; shown = 0;
      const q = squeeze(query), b = bare(query);
      const hit = (fold) => data.boards.flatMap((text, i) => {
        const t = fold ? text.toLowerCase() : text;
        const [qq, bb] = fold ? [q.toLowerCase(), b.toLowerCase()] : [q, b];
        return squeeze(t) === qq || (style.kind !== "tiles" && bare(t) === bb) ? [i] : [];
      });
      matches = q ? hit(false) : [];
      if (q && !matches.length) matches = hit(true);
    } else if (matches.length) {
      shown = (shown + 1) % matches.length;
    }
    if (!matches.length) { report.textContent = query.trim() ? "no board matches" : ""; return; }
    const i = matches[shown];
    report.textContent = matches.length > 1 ? `#${i} (${shown + 1} of ${matches.length}; Enter for the next)` : `#${i}`;
    select(i);
    centreOn(i);
  }

  // ---- start ----
  document.getElementById("depth-layout").addEventListener("click", () => { useDepth(); fit(); });
  document.getElementById("force-layout").addEventListener("click", useForce);
  document.getElementById("fit").addEventListener("click", fit);
  document.getElementById("find").addEventListener("keydown", (event) => { if (event.key === "Enter") find(); });
  document.getElementById("find-button").addEventListener("click", find);
  window.addEventListener("resize", () => { resize(); });
  resize();
  useDepth();
  fit();
  draw(); // at once, not on the next frame: the page reports what it drew as soon as it loads
  // A view can be named in the address: #layout=force&select=12 or #find=bwb/wbw/bwb (links to
  // a view; the README's screenshots are made this way).
  const wanted = new URLSearchParams(location.hash.slice(1));
  if (wanted.get("layout") === "force") useForce();
  if (wanted.has("select")) { const i = Number(wanted.get("select")); if (i >= 0 && i < N) select(i); }
  if (wanted.has("find")) { document.getElementById("find").value = wanted.get("find"); find(); }
})();
