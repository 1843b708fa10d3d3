// The night: the fewest transfers that square it (with room for 已付 / 收到 when payments arrive), each player's
// running balance as a chart, tonight's balances and every finished hand.
import { confirmSheet } from "./board.js";
import { h, sign } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#2481cc", "#cf222e", "#1a7f37", "#bf8700", "#8250df", "#0e8a16"];

function svg(name, attrs, text = "") {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text) node.textContent = text;
  return node;
}

function chart(series) {
  const width = 340, height = 170, left = 8, right = 8, top = 12, bottom = 22;
  const values = series.points.flat();
  const lo = Math.min(0, ...values), hi = Math.max(0, ...values), span = hi - lo || 1;
  const x = (i) => left + (i * (width - left - right)) / Math.max(1, series.points.length - 1);
  const y = (v) => top + ((hi - v) * (height - top - bottom)) / span;
  const out = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", id: "chart", role: "img" });
  out.append(svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), class: "axis" }));
  series.names.forEach((name, p) => {
    const colour = COLOURS[p % COLOURS.length];
    const points = series.points.map((row, i) => `${x(i).toFixed(1)},${y(row[p]).toFixed(1)}`).join(" ");
    out.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2, "stroke-linejoin": "round" }));
    out.append(svg("text", { x: left + p * 80, y: height - 6, fill: colour }, name));
  });
  return out;
}

export function renderNight(app) {
  const data = app.night;
  if (!data) return h("p", { class: "hint" }, app.t("loading"));
  const night = data.night;
  if (!night) return h("p", { class: "card hint" }, app.t("history_empty"));
  const out = [];
  if (night.date) out.push(h("div", { class: "hint" }, app.t("night_of", { date: night.date }), night.open ? "" : ` · ${app.t("night_closed")}`));
  out.push(h("h2", {}, app.t("settlement")));
  out.push(h("div", { class: "card", id: "settlement" }, night.settlement.length
    ? h("ul", { class: "plain" }, night.settlement.map((p) => h("li", { class: "spread payment", dataset: { from: p.from, to: p.to } },
        h("span", {}, `${p.from} → ${p.to}`), h("b", {}, p.shown),
        h("span", { class: "pay-actions" }))))  // 已付 / 收到 go here (issue 14)
    : h("span", { class: "hint" }, app.t("settled_even")),
  night.settlement.length ? h("div", { class: "hint" }, app.t("pay_status")) : null));
  if (night.series.points.length > 1) {
    out.push(h("h2", {}, app.t("chart")), h("div", { class: "card" }, chart(night.series)));
  }
  out.push(h("h2", {}, app.t("tonight")));
  out.push(h("div", { class: "card" }, h("ul", { class: "plain" }, night.balances.map((line) =>
    h("li", { class: "spread" }, h("span", {}, line.name), h("span", { class: sign(line.amount) }, line.shown))))));
  out.push(h("h2", {}, app.t("history")));
  out.push(h("div", { class: "card", id: "history" }, night.hands.length
    ? h("ul", { class: "plain" }, [...night.hands].reverse().map((hand) => h("li", { class: hand.status === "voided" ? "hint" : "" },
        h("b", {}, app.t("hand_no", { number: hand.number })), hand.status === "voided" ? ` (${app.t("voided")})` : "",
        hand.lines.map((line) => h("div", {}, line)),
        h("div", { class: "hint" }, hand.net.map((n) => `${n.name} ${n.shown}`).join("  ")))))
    : h("span", { class: "hint" }, app.t("history_empty"))));
  if (night.open && app.board?.me?.may_record) {
    out.push(h("button", { class: "big", id: "settle", onclick: () => confirmSheet(app, app.t("confirm_settle"), { action: "settle" }) }, app.t("btn_settle")));
  }
  return h("div", { id: "night" }, out);
}
