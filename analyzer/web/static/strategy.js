// The strategy page: the answers kept in results/, in a player's words, and each kept
// answer's chart as plotly figures (one per panel) under its title and caption (as text,
// which wraps on a phone).
"use strict";
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A figure fitted to a plot this wide (pixels), and its plotly config.  On a narrow
// screen the mode bar (which would cover the top cells) and a heatmap's legend (its
// subtitle says what the line is) are left out and the colour bar goes under the chart;
// a heatmap whose columns are too narrow for their numbers is turned on its side when
// that makes them wide enough (the knock charts: 10 deadwoods across instead of 20
// turns), and otherwise shows its numbers only in the hover.
const WIDE_PX = 700;
const CELL_PX = 28;  // the narrowest column a cell's number fits in ("+10.5" at 9 px)
const ROW_PX = 22;
function fitted(figure, width) {
  const config = { responsive: true, displaylogo: false };
  const heatmap = figure.data.find(trace => trace.type === "heatmap");
  if (width >= WIDE_PX) return { key: "wide", data: figure.data, layout: figure.layout, config };
  config.displayModeBar = false;
  if (!heatmap) return { key: "narrow", data: figure.data, layout: figure.layout, config };
  // the colour bar goes under the chart here, so the right margin kept for it goes too
  const margin = { ...figure.layout.margin, r: 10 };
  const across = width - (margin.l || 80) - margin.r;
  const [columns, rows] = [new Set(heatmap.x).size, new Set(heatmap.y).size];
  const turn = across / columns < CELL_PX && across / rows >= CELL_PX;
  const shown = turn ? transposed(figure) : figure;
  const numbers = across / (turn ? rows : columns) >= CELL_PX;
  const plotHeight = Math.max(300, ROW_PX * (turn ? columns : rows));
  // the colour bar below the axis title (rotated category labels take more room)
  const below = (figure.layout.xaxis || {}).type === "category" && !turn ? 110 : 70;
  // (a heatmap of categories, the knock answer's, has no colour bar)
  const data = shown.data.map(trace => trace.type !== "heatmap" ? { ...trace, showlegend: false } : {
    ...trace, texttemplate: numbers ? trace.texttemplate : "",
    ...(trace.colorbar && { colorbar: { ...trace.colorbar, orientation: "h", thickness: 12,
      len: 1, yanchor: "top", y: -below / plotHeight,
      title: { ...trace.colorbar.title, side: "top" } } }) });
  const bottom = below + 60;
  const layout = { ...shown.layout, showlegend: false, height: plotHeight + (margin.t || 10) + bottom,
    margin: { ...margin, b: bottom } };
  return { key: `narrow-${turn}-${numbers}`, data, layout, config };
}

// A heatmap figure on its side: x and y swapped in its traces, hovers, shapes and axes
// (the former x axis read downwards, first value on top, as a table's rows).
function transposed(figure) {
  const flip = rows => rows && rows[0].map((_, j) => rows.map(row => row[j]));
  const swapTokens = text => text && text.replace(/%\{([xy])/g, (_, axis) => "%{" + (axis === "x" ? "y" : "x"));
  const data = figure.data.map(trace => ({ ...trace, x: trace.y, y: trace.x,
    ...(trace.type === "heatmap" ? { z: flip(trace.z), customdata: flip(trace.customdata),
      hovertemplate: swapTokens(trace.hovertemplate) } : {}) }));
  const shapes = (figure.layout.shapes || []).map(shape => ({ ...shape, x0: shape.y0, y0: shape.x0,
    x1: shape.y1, y1: shape.x1 }));
  return { data, layout: { ...figure.layout, shapes, xaxis: figure.layout.yaxis,
    yaxis: { ...figure.layout.xaxis, autorange: "reversed" } } };
}

// Every chart drawn, by element id: its figure and the fit it is drawn with.
const drawn = new Map();

async function draw(plot, figure) {
  const fit = fitted(figure, plot.clientWidth);
  drawn.set(plot.id, { figure, key: fit.key });
  await Plotly.react(plot, fit.data, fit.layout, fit.config);
}

// A phone turned or a window resized past a fit's bounds: the charts are fitted anew.
let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => {
    for (const [id, { figure, key }] of drawn) {
      const plot = document.getElementById(id);
      if (fitted(figure, plot.clientWidth).key !== key) draw(plot, figure);
    }
  }, 150);
});

async function showCharts() {
  const data = await api("/api/strategy");
  document.getElementById("found").textContent = data.found;
  const notes = document.getElementById("notes");
  for (const text of data.notes) notes.appendChild(element("li", "", text));
  const holder = document.getElementById("charts");
  for (const chart of data.charts) {
    const block = element("section", "chart-block");
    block.id = chart.id;
    block.append(element("h3", "", chart.title), element("p", "muted", chart.subtitle));
    const plots = chart.panels.map(panel => {
      const plot = element("div", "chart");
      plot.id = panel.id;
      return plot;
    });
    const source = element("p", "muted");
    withCode(source, "Source: " + chart.source);
    block.append(...plots, source);
    holder.appendChild(block);
    for (const [index, panel] of chart.panels.entries()) await draw(plots[index], panel.figure);
  }
}

// The text into the node, its backquoted names (policies, commands) as code.
function withCode(node, text) {
  node.replaceChildren(...text.split("`").map((part, i) => i % 2 ? element("code", "", part) :
    document.createTextNode(part)));
}

// The written answer chosen in the menus of `prefix` (ids `${prefix}-rules`,
// `${prefix}-opponent`), read from `route`: its body shown with its title and rule, or,
// when the committed files do not hold it, `${prefix}-missing` saying `absent` and why
// (then null). Both answers are read so; only what else they show differs.
async function readAnswer(prefix, route, absent) {
  const rules = document.getElementById(`${prefix}-rules`).value;
  const opponent = document.getElementById(`${prefix}-opponent`).value;
  const data = await api(route + "?" + new URLSearchParams({ rules, opponent }));
  const body = document.getElementById(`${prefix}-body`);
  const missing = document.getElementById(`${prefix}-missing`);
  body.hidden = !data.answer;
  missing.hidden = Boolean(data.answer);
  if (!data.answer) {
    missing.textContent = absent + " " + data.missing;
    return null;
  }
  document.getElementById(`${prefix}-title`).textContent = data.answer.title;
  document.getElementById(`${prefix}-rule`).textContent = data.answer.rule;
  return data.answer;
}

// The written knock answer (GET /api/when-to-knock, read from the committed report):
// the rule, a chart by own turn and cards left in the stock, the result and the worst
// case; or, when the report does not hold it, why not.
async function showAnswer() {
  const answer = await readAnswer("answer", "/api/when-to-knock",
    "No written answer for these rules and this opponent in the committed report.");
  if (!answer) return;
  const table = document.getElementById("answer-chart");
  const row = (label, cells, header) => {
    const tr = element("tr");
    tr.appendChild(element("th", "", label));
    for (const cell of cells) {
      const td = element(header ? "th" : "td", header ? "" : cell.replace(" ", "-"), cell);
      tr.appendChild(td);
    }
    return tr;
  };
  table.replaceChildren(row("your turn", answer.chart.turns, true),
    row("cards left in the stock", answer.chart.stock, true),
    ...answer.chart.rows.map(r => row(r.deadwood, r.cells, false)));
  withCode(document.getElementById("answer-result"), "Result: " + answer.result_text + ".");
  withCode(document.getElementById("answer-naive"), "Gain: " + answer.naive_text + ".");
  withCode(document.getElementById("answer-worst"), "Worst case: " + answer.worst_text + ".");
  withCode(document.getElementById("answer-source"),
    `Everything but the knock is played as \`${answer.base}\`; ` +
    `${answer.deals.toLocaleString()} deals per comparison, seats swapped; ${answer.source}.`);
}

// The rules presets the committed report holds no answer for (against the opponent
// chosen) are marked: this page never computes one, so choosing them shows only the
// command that does.
async function markRules() {
  const opponent = document.getElementById("answer-opponent").value;
  const options = [...document.getElementById("answer-rules").options];
  await Promise.all(options.map(async option => {
    const data = await api("/api/when-to-knock?" + new URLSearchParams({ rules: option.value, opponent }))
      .catch(() => null);  // a damaged answer file: said when its rules are chosen
    const absent = Boolean(data && !data.answer);
    option.textContent = option.value + (absent ? " (not in the report)" : "");
    option.classList.toggle("absent", absent);
  }));
}

// The rules and opponent menus of an answer (ids `${prefix}-rules`, `${prefix}-opponent`),
// filled from the first answer read from `route`, each redrawing it by `show` on change.
async function answerMenus(prefix, route, show) {
  const [presets, first] = await Promise.all([api("/api/presets"), api(route)]);
  fillSelect(document.getElementById(`${prefix}-rules`), presets.rules, first.rules);
  const opponents = document.getElementById(`${prefix}-opponent`);
  for (const [key, words] of Object.entries(first.families)) {
    const option = element("option", "", `${key}: ${words}`);
    option.value = key;
    opponents.appendChild(option);
  }
  opponents.value = first.opponent;
  for (const id of [`${prefix}-rules`, `${prefix}-opponent`]) {
    document.getElementById(id).addEventListener("change", () => show().catch(error => {
      document.getElementById("error").textContent = error.message;
    }));
  }
  return opponents;
}

async function initAnswer() {
  const opponents = await answerMenus("answer", "/api/when-to-knock", showAnswer);
  opponents.addEventListener("change", markRules);
  await Promise.all([showAnswer(), markRules()]);
}

// An interval's mean ± its half-width, two decimals.
function plusMinus(interval) {
  const sign = interval.mean >= 0 ? "+" : "-";
  return `${sign}${Math.abs(interval.mean).toFixed(2)} ± ${((interval.high - interval.low) / 2).toFixed(2)}`;
}

// An answer in principles (GET /api/how-to-discard or /api/how-to-draw, read from the kept
// answers; `prefix` is "discard" or "draw"): the rule, its principles by worth, what it
// gains over the naive rule and the share of the champion's edge; or why it is missing.
async function showPrinciples(prefix, route, others) {
  const answer = await readAnswer(prefix, route, "No kept answer for these rules in the results folder.");
  if (!answer) return;
  document.getElementById(`${prefix}-principles`).replaceChildren(...answer.principles.map(line => {
    const item = element("li", "", line.words + " ");
    const close = line.low <= 0 && line.high >= 0 ? ", not shown to matter" : "";
    item.appendChild(element("b", "", `Worth ${plusMinus(line)}${close}.`));
    return item;
  }));
  document.getElementById(`${prefix}-share`).textContent = `Result: ${answer.result_text}.`;
  withCode(document.getElementById(`${prefix}-source`),
    `Played with the champion's ${others}, so only this decision differs; ` +
    `${answer.deals.toLocaleString()} deals per player and opponent, seats swapped, seed ` +
    `${answer.seed}; ${answer.source}.`);
}

async function initPrinciples(prefix, route, others) {
  const show = () => showPrinciples(prefix, route, others);
  await answerMenus(prefix, route, show);
  await show();
}

// The charts come from other files than the answers: a damaged answer file leaves them shown.
async function init() {
  await initAnswer().catch(error => { document.getElementById("error").textContent = error.message; });
  for (const [prefix, route, others] of [["discard", "/api/how-to-discard", "draw and knock"],
    ["draw", "/api/how-to-draw", "discard and knock"]]) {
    await initPrinciples(prefix, route, others)
      .catch(error => { document.getElementById("error").textContent = error.message; });
  }
  await showCharts();
  document.body.dataset.ready = "1";
}
init().catch(error => { document.getElementById("error").textContent = error.message; });
