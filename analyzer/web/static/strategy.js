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

async function init() {
  await showCharts();
  document.body.dataset.ready = "1";
}
init().catch(error => { document.getElementById("error").textContent = error.message; });
