// The strategy page: plotly figures built by the server from results/*.csv, each under
// its title and subtitle (as text, which wraps on a phone).
"use strict";
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A figure fitted to a plot this wide (pixels): on a narrow screen the colour bar goes
// under the chart, and a heatmap whose cells are too narrow for their numbers shows them
// only in the hover.
function fitted(figure, width) {
  if (width >= 700) return [figure.data, figure.layout];
  const data = figure.data.map(trace => {
    if (trace.type !== "heatmap") return trace;
    const cells = new Set(trace.x).size;
    return { ...trace, texttemplate: width / cells < 38 ? "" : trace.texttemplate,
      colorbar: { ...trace.colorbar, orientation: "h", y: -0.45, title: { ...trace.colorbar.title, side: "top" } } };
  });
  return [data, { ...figure.layout, height: 520, margin: { ...figure.layout.margin, b: 150 } }];
}

async function showCharts() {
  const data = await api("/api/strategy");
  document.getElementById("found").textContent = data.found;
  const notes = document.getElementById("notes");
  for (const text of data.notes) notes.appendChild(element("li", "", text));
  const holder = document.getElementById("charts");
  for (const chart of data.charts) {
    const block = element("section", "chart-block");
    const plot = element("div", "chart");
    plot.id = chart.id;
    block.append(element("h3", "", chart.title), element("p", "muted", chart.subtitle), plot,
      element("p", "muted", "Source: " + chart.source));
    holder.appendChild(block);
    await Plotly.newPlot(plot, ...fitted(chart.figure, plot.clientWidth),
      { responsive: true, displaylogo: false });
  }
}

// The written knock answer (GET /api/when-to-knock, read from the committed report):
// the rule, a chart by own turn and cards left in the stock, the result and the worst
// case; or, when the report does not hold it, why not.
// The text into the node, its backquoted names (policies, commands) as code.
function withCode(node, text) {
  node.replaceChildren(...text.split("`").map((part, i) => i % 2 ? element("code", "", part) :
    document.createTextNode(part)));
}

async function showAnswer() {
  const rules = document.getElementById("answer-rules").value;
  const opponent = document.getElementById("answer-opponent").value;
  const data = await api("/api/when-to-knock?" + new URLSearchParams({ rules, opponent }));
  const body = document.getElementById("answer-body");
  const missing = document.getElementById("answer-missing");
  body.hidden = !data.answer;
  missing.hidden = Boolean(data.answer);
  if (!data.answer) {
    missing.textContent = "No written answer for these rules and this opponent in the " +
      "committed report. " + data.missing;
    return;
  }
  const answer = data.answer;
  document.getElementById("answer-title").textContent = answer.title;
  document.getElementById("answer-rule").textContent = answer.rule;
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
  withCode(document.getElementById("answer-worst"), "Worst case: " + answer.worst_text + ".");
  withCode(document.getElementById("answer-source"),
    `Everything but the knock is played as \`${answer.base}\`; ` +
    `${answer.deals.toLocaleString()} deals per comparison, seats swapped; ${answer.source}.`);
}

async function initAnswer() {
  const [presets, first] = await Promise.all([api("/api/presets"), api("/api/when-to-knock")]);
  fillSelect(document.getElementById("answer-rules"), presets.rules, first.rules);
  const opponents = document.getElementById("answer-opponent");
  for (const [key, words] of Object.entries(first.families)) {
    const option = element("option", "", `${key}: ${words}`);
    option.value = key;
    opponents.appendChild(option);
  }
  opponents.value = first.opponent;
  for (const id of ["answer-rules", "answer-opponent"]) {
    document.getElementById(id).addEventListener("change", () => showAnswer().catch(error => {
      document.getElementById("error").textContent = error.message;
    }));
  }
  await showAnswer();
}

// The charts come from other files than the answer: a damaged answer file leaves them shown.
async function init() {
  await initAnswer().catch(error => { document.getElementById("error").textContent = error.message; });
  await showCharts();
  document.body.dataset.ready = "1";
}
init().catch(error => { document.getElementById("error").textContent = error.message; });
