// The strategy page: plotly figures built by the server from results/*.csv.
"use strict";
async function init() {
  const data = await api("/api/strategy");
  document.getElementById("results").textContent = data.results;
  const notes = document.getElementById("notes");
  for (const text of data.notes) {
    const li = document.createElement("li");
    li.textContent = text;
    notes.appendChild(li);
  }
  const holder = document.getElementById("charts");
  for (const chart of data.charts) {
    const div = document.createElement("div");
    div.className = "chart";
    div.id = chart.id;
    holder.appendChild(div);
    const source = document.createElement("p");
    source.className = "muted";
    source.textContent = "Source: results/" + chart.source;
    holder.appendChild(source);
    await Plotly.newPlot(div, chart.figure.data, chart.figure.layout,
      { responsive: true, displaylogo: false });
  }
  document.body.dataset.ready = "1";
}
init().catch(error => { document.getElementById("error").textContent = error.message; });
