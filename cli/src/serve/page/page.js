// The page of `statespace serve` (see cli/src/serve/page.rs): plays the puzzle through the
// server's JSON API. Every position shown comes from POST /api/moves (its board as SVG, its
// moves with their boards, changed cells and distances); nothing of the space is held here but
// the positions visited.
"use strict";

const body = document.body;
const el = (id) => document.getElementById(id);
/** The position shown: the answer of /api/moves. */
let here = null;
/** The boards before each move played, for undo. */
const history = [];
let puzzle = null;
let busy = 0;
/** Positions visited: board text -> node; moves between them. */
const nodes = new Map();
const links = [];
const MAX_GRAPH_NODES = 400;
/** Milliseconds between the steps of a solution shown (`?step=20` for a quicker one). */
const STEP_MS = Number(new URLSearchParams(location.search).get("step") || 350);
let histogram = null;

async function api(path, request) {
  const init = request === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request),
  };
  const response = await fetch(path, init);
  let answer;
  try {
    answer = await response.json();
  } catch (e) {
    answer = { error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok) {
    throw new Error(answer.error || `${response.status}`);
  }
  return answer;
}

function setBusy(delta) {
  busy += delta;
  body.dataset.busy = busy > 0 ? "1" : "0";
  for (const id of ["scramble", "undo", "solve", "restart", "set"]) {
    el(id).disabled = busy > 0;
  }
}

function say(text) {
  el("status").textContent = text;
}

/** Shows a limit a request stopped on (or clears it). */
function showLimit(text) {
  const box = el("limit");
  box.hidden = !text;
  box.textContent = text ? `Stopped on a limit: ${text}` : "";
}

function distanceText(d) {
  if (!d) return "";
  if (d.unsolvable) return "unsolvable";
  if (d.moves === null || d.moves === undefined) return d.limit ? "?" : "";
  return d.at_least ? `at least ${d.moves}` : `${d.moves}`;
}

/** Goes to `position` ({board} or {scramble}); `push` keeps the board left for undo. */
async function goTo(position, { push = false, hints = true, label = null } = {}) {
  const request = Object.assign({}, position, hints ? {} : { hints: false });
  const next = await api("/api/moves", request);
  if (push && here) history.push(here.board);
  const before = here;
  here = next;
  visit(before, here, label);
  draw();
  return here;
}

function draw() {
  el("board").innerHTML = here.svg;
  const d = distanceText(here.distance);
  el("here").textContent = here.goal ? "solved: a goal"
    : d ? `${d} move${d === "1" ? "" : "s"} from the goal` : "";
  const list = el("moves");
  list.textContent = "";
  here.moves.forEach((m, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.move = m.move;
    const dist = distanceText(m.distance);
    button.textContent = dist ? `${m.move} \u2192 ${dist}` : m.move;
    const now = here.distance && !here.distance.at_least ? here.distance.moves : null;
    if (m.goal || (now !== null && !m.distance.at_least && m.distance.moves !== null
        && m.distance.moves < now)) {
      button.classList.add("closer");
    }
    button.title = i < 9 ? `key ${i + 1}` : "";
    button.addEventListener("click", () => play(i));
    item.appendChild(button);
    list.appendChild(item);
  });
  if (here.cut) say(here.cut);
  const hintLimit = here.moves.map((m) => m.distance && m.distance.limit).find((l) => l);
  el("hint-note").textContent = hintLimit
    ? `Hints stopped on a limit (${hintLimit}): "at least" is a lower bound.` : "";
  body.dataset.moves = String(history.length);
  body.dataset.goal = here.goal ? "true" : "false";
  body.dataset.board = here.board;
  body.dataset.rendered = String(Number(body.dataset.rendered || 0) + 1);
  drawGraph();
  drawHistogram();
}

async function run(work) {
  if (busy) return;
  setBusy(1);
  try {
    showLimit("");
    await work();
  } catch (e) {
    say(e.message);
  } finally {
    setBusy(-1);
  }
}

function play(index) {
  run(async () => {
    const m = here.moves[index];
    if (!m) return;
    say("");
    await goTo({ board: m.board }, { push: true, label: m.move });
  });
}

function undo() {
  run(async () => {
    const board = history.pop();
    if (board === undefined) return;
    await goTo({ board });
    body.dataset.moves = String(history.length);
  });
}

function scramble() {
  run(async () => {
    const steps = 12 + Math.floor(Math.random() * 12);
    for (let i = 0; i < steps; i++) {
      const m = here.moves[Math.floor(Math.random() * here.moves.length)];
      if (!m) break;
      await goTo({ board: m.board }, { push: true, hints: i + 1 === steps, label: m.move });
    }
    say(`scrambled: ${steps} random moves`);
  });
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function solveFromHere() {
  run(async () => {
    say("solving...");
    const answer = await api("/api/solve", { board: here.board });
    if (answer.outcome === "limit-reached") {
      showLimit(`${answer.limit}, after ${answer.stats.elapsed.toFixed(2)} s (${answer.mode})`);
      say("undecided");
      return;
    }
    if (answer.outcome === "unsolvable") {
      say(answer.proof ? `impossible (proven by ${answer.proof})` : "impossible");
      return;
    }
    say(`${answer.moves} move${answer.moves === 1 ? "" : "s"}${answer.optimal ? ", optimal" : ""}`
      + ` (${answer.mode}, ${answer.stats.elapsed.toFixed(3)} s): ${answer.path.join(" ")}`);
    const boards = answer.boards || [];
    for (let i = 0; i < answer.path.length; i++) {
      await sleep(STEP_MS);
      const last = i + 1 === answer.path.length;
      const board = boards[i];
      if (board === undefined) {
        // A solution without its boards (big Flip boards): play its moves by label.
        const m = here.moves.find((x) => x.move === answer.path[i]);
        if (!m) break;
        await goTo({ board: m.board }, { push: true, hints: last, label: m.move });
      } else {
        await goTo({ board }, { push: true, hints: last, label: answer.path[i] });
      }
    }
  });
}

/** Plays typed moves, by their labels, separated by commas (or spaces, for labels with none). */
function playTyped(text) {
  return run(async () => {
    const labels = new Set(here.moves.map((m) => m.move));
    const words = text.includes(",") ? text.split(",") : splitMoves(text, labels);
    for (const word of words.map((w) => w.trim()).filter((w) => w)) {
      const m = here.moves.find((x) => x.move === word);
      if (!m) {
        say(`no move ${JSON.stringify(word)} here; moves: ${[...labels].slice(0, 30).join(", ")}`);
        return;
      }
      await goTo({ board: m.board }, { push: true, label: m.move });
    }
    el("play-moves").value = "";
  });
}

/** Spaces separate moves unless a label has spaces itself (`row 2 left`): then whole labels. */
function splitMoves(text, labels) {
  if (![...labels].some((l) => l.includes(" "))) return text.split(/\s+/);
  const out = [];
  let rest = text.trim();
  while (rest) {
    const hit = [...labels].filter((l) => rest.startsWith(l)).sort((a, b) => b.length - a.length)[0];
    if (!hit) return [rest];
    out.push(hit);
    rest = rest.slice(hit.length).trim();
  }
  return out;
}

function restart() {
  return run(async () => {
    history.length = 0;
    await goTo(puzzle.start || { scramble: "" });
    say("");
  });
}

/** The rows of a board as the picture draws them (picture::grid). */
function grid(text) {
  const rows = text.split("\n").map((r) => r.trim()).filter((r) => r);
  if (puzzle.style.kind === "tiles") return rows.map((r) => r.split(/\s+/));
  return rows.map((r) => [...r]);
}

/** A click on the board plays the move that changes the clicked cell, centred nearest it. */
function clickBoard(event) {
  if (!here || puzzle.style.kind === "text") return;
  const svg = el("board").querySelector("svg");
  if (!svg) return;
  const box = svg.getBoundingClientRect();
  const view = svg.viewBox.baseVal;
  const x = (event.clientX - box.left) * view.width / box.width;
  const y = (event.clientY - box.top) * view.height / box.height;
  const rows = grid(here.board);
  const cols = Math.max(...rows.map((r) => r.length));
  // picture::board_svg: a 12-pixel margin, then square cells.
  const cell = (view.width - 24) / cols;
  const r = Math.floor((y - 12) / cell);
  const c = Math.floor((x - 12) / cell);
  let best = -1;
  let bestDistance = Infinity;
  here.moves.forEach((m, i) => {
    if (!m.changed.some(([a, b]) => a === r && b === c)) return;
    const cr = m.changed.reduce((s, [a]) => s + a, 0) / m.changed.length;
    const cc = m.changed.reduce((s, [, b]) => s + b, 0) / m.changed.length;
    const d = Math.hypot(cr - r, cc - c);
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  });
  if (best >= 0) play(best);
}

function keyDown(event) {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) {
    return;
  }
  const key = event.key;
  if (key === "u" || key === "Backspace") undo();
  else if (key === "s") solveFromHere();
  else if (key === "r") scramble();
  else if (/^[1-9]$/.test(key)) play(Number(key) - 1);
  else if (key.startsWith("Arrow") && here) {
    // A move labelled with the arrow's way (`7 left`), when exactly one is.
    const way = key.slice(5).toLowerCase();
    const matching = here.moves
      .map((m, i) => [m, i])
      .filter(([m]) => m.move.split(/\s+/).includes(way));
    if (matching.length === 1) play(matching[0][1]);
    else return;
  } else return;
  event.preventDefault();
}

// The graph of the positions visited, coloured by distance (exact or a lower bound).
const colour = d3.scaleSequential(d3.interpolateViridis);
const graphSvg = d3.select("#graph");
const linkLayer = graphSvg.append("g").attr("stroke", "#999");
const nodeLayer = graphSvg.append("g");
const simulation = d3.forceSimulation()
  .force("charge", d3.forceManyBody().strength(-40))
  .force("link", d3.forceLink().id((n) => n.id).distance(24))
  .force("x", d3.forceX(210).strength(0.05))
  .force("y", d3.forceY(160).strength(0.05))
  .on("tick", () => {
    linkLayer.selectAll("line")
      .attr("x1", (l) => l.source.x).attr("y1", (l) => l.source.y)
      .attr("x2", (l) => l.target.x).attr("y2", (l) => l.target.y);
    nodeLayer.selectAll("circle").attr("cx", (n) => n.x).attr("cy", (n) => n.y);
  });

function node(board) {
  let n = nodes.get(board);
  if (!n && nodes.size < MAX_GRAPH_NODES) {
    n = { id: board, x: 210 + Math.random(), y: 160 + Math.random(), distance: null };
    nodes.set(board, n);
  }
  return n;
}

function visit(before, after, label) {
  const n = node(after.board);
  if (n && after.distance && after.distance.moves !== null) n.distance = after.distance;
  if (n && after.goal) n.distance = { moves: 0, at_least: false };
  if (!before) return;
  const m = nodes.get(before.board);
  if (m && n && m !== n && !links.some((l) => l.key === `${m.id}\u0000${n.id}`
      || l.key === `${n.id}\u0000${m.id}`)) {
    links.push({ key: `${m.id}\u0000${n.id}`, source: m, target: n, label });
  }
}

function drawGraph() {
  const known = [...nodes.values()].map((n) => n.distance && n.distance.moves).filter(
    (d) => d !== null && d !== undefined);
  // One scale for the graph and the histogram: the largest distance there is, when known.
  const deepest = histogram && histogram.histogram ? histogram.histogram.length - 1 : 0;
  colour.domain([0, Math.max(1, deepest, ...known)]);
  linkLayer.selectAll("line").data(links, (l) => l.key).join("line").attr("stroke-width", 1.5);
  nodeLayer.selectAll("circle")
    .data([...nodes.values()], (n) => n.id)
    .join((enter) => enter.append("circle").attr("r", 6).call((c) => c.append("title")))
    .attr("fill", (n) => (n.distance && n.distance.moves !== null ? colour(n.distance.moves) : "#ccc"))
    .attr("stroke", (n) => (here && n.id === here.board ? "#e6550d" : "#333"))
    .attr("stroke-width", (n) => (here && n.id === here.board ? 3 : 1))
    .attr("class", "position")
    .on("click", (event, n) => run(async () => {
      await goTo({ board: n.id }, { push: true });
    }))
    .select("title")
    .text((n) => `${n.id}\n${distanceText(n.distance) || "distance unknown"}`);
  simulation.nodes([...nodes.values()]);
  simulation.force("link").links(links);
  simulation.alpha(0.6).restart();
  el("graph-note").textContent = nodes.size >= MAX_GRAPH_NODES
    ? `the first ${MAX_GRAPH_NODES} positions` : `${nodes.size} position${nodes.size === 1 ? "" : "s"}`;
}

async function loadHistogram() {
  for (let tries = 0; tries < 120; tries++) {
    try {
      const answer = await api("/api/histogram");
      if (!answer.pending) {
        histogram = answer;
        drawHistogram();
        drawGraph();
        return;
      }
    } catch (e) {
      el("histogram").textContent = e.message;
      return;
    }
    await sleep(1000);
  }
}

function drawHistogram() {
  const box = el("histogram");
  if (!histogram) {
    box.textContent = "counting...";
    return;
  }
  if (!histogram.histogram) {
    box.textContent = histogram.why;
    return;
  }
  const counts = histogram.histogram;
  const top = Math.max(...counts);
  const at = here && here.distance && !here.distance.at_least ? here.distance.moves : null;
  const width = 420;
  const bar = Math.max(2, Math.floor((width - 20) / counts.length) - 1);
  const height = 120;
  let svg = `<svg width="${width}" height="${height + 20}" role="img" aria-label="states by distance">`;
  counts.forEach((n, d) => {
    const h = Math.max(1, Math.round((height - 4) * Math.log1p(n) / Math.log1p(top)));
    const fill = d === at ? "#e6550d" : d3.interpolateViridis(d / Math.max(1, counts.length - 1));
    svg += `<rect x="${10 + d * (bar + 1)}" y="${height - h}" width="${bar}" height="${h}" fill="${fill}">`
      + `<title>distance ${d}: ${n.toLocaleString()} states</title></rect>`;
  });
  svg += `<text x="10" y="${height + 14}" font-size="11">0</text>`
    + `<text x="${10 + (counts.length - 1) * (bar + 1)}" y="${height + 14}" font-size="11">`
    + `${counts.length - 1}</text></svg>`;
  const total = counts.reduce((a, b) => a + b, 0);
  box.innerHTML = svg;
  const note = document.createElement("p");
  note.textContent = `${total.toLocaleString()} states, ${histogram.direction === "backward"
    ? "by distance to the goal" : "by distance from the start"} (log scale)`
    + (at !== null ? `; this board is at ${at}` : "");
  box.appendChild(note);
}

async function main() {
  body.dataset.busy = "1";
  try {
    puzzle = await api("/api/puzzle");
  } catch (e) {
    say(`the server did not answer: ${e.message}`);
    return;
  }
  el("limits").textContent = `each request: at most ${puzzle.limits.time_limit} s`
    + (puzzle.limits.max_depth !== null ? `, depth ${puzzle.limits.max_depth}` : "")
    + (puzzle.limits.max_states !== null ? `, ${puzzle.limits.max_states} states` : "")
    + `; hints ${puzzle.limits.hint_time} s a position; engine ${puzzle.mode}`;
  el("board").addEventListener("click", clickBoard);
  document.addEventListener("keydown", keyDown);
  el("scramble").addEventListener("click", scramble);
  el("undo").addEventListener("click", undo);
  el("solve").addEventListener("click", solveFromHere);
  el("restart").addEventListener("click", restart);
  el("play-moves").addEventListener("keydown", (event) => {
    if (event.key === "Enter") playTyped(event.target.value);
  });
  el("set").addEventListener("click", () => run(async () => {
    await goTo({ board: el("board-text").value }, { push: true });
  }));
  busy = 0;
  setBusy(0);
  loadHistogram();
  await restart();
  // `?play=M1,M2,...`: moves played once the start is drawn (a link to a position).
  const moves = new URLSearchParams(location.search).get("play");
  if (moves) await playTyped(moves.includes(",") ? moves : `${moves},`);
}

main();
