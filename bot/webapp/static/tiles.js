// Tile faces drawn by the project as SVG: dots for 筒, sticks for 条, numerals for 万, and the three dragons.
const NS = "http://www.w3.org/2000/svg";
const NUMERALS = "一二三四五六七八九";
// where the dots (筒) or sticks (条) of each rank sit on a 40×54 face
const LAYOUT = {
  1: [[20, 27]],
  2: [[20, 15], [20, 39]],
  3: [[11, 12], [20, 27], [29, 42]],
  4: [[12, 15], [28, 15], [12, 39], [28, 39]],
  5: [[11, 12], [29, 12], [20, 27], [11, 42], [29, 42]],
  6: [[13, 11], [27, 11], [13, 27], [27, 27], [13, 43], [27, 43]],
  7: [[10, 9], [20, 15], [30, 21], [13, 34], [27, 34], [13, 45], [27, 45]],
  8: [[13, 9], [27, 9], [13, 21], [27, 21], [13, 33], [27, 33], [13, 45], [27, 45]],
  9: [[10, 11], [20, 11], [30, 11], [10, 27], [20, 27], [30, 27], [10, 43], [20, 43], [30, 43]],
};
const RADIUS = { 1: 11, 2: 7.5, 3: 6, 4: 6.5, 5: 5.5, 6: 5.5, 7: 4.6, 8: 4.6, 9: 4.6 };
const DOT_COLOURS = ["#1d5fa7", "#1a7f37", "#b42318"];

function el(name, attrs, children = []) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

function glyph(x, y, size, colour, text) {
  const node = el("text", { x, y, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central", fill: colour, "font-weight": 700 });
  node.textContent = text;
  return node;
}

function dots(rank) {
  return LAYOUT[rank].flatMap(([x, y], i) => {
    const colour = rank === 1 ? DOT_COLOURS[2] : DOT_COLOURS[(i + rank) % 3];
    const r = RADIUS[rank];
    return [
      el("circle", { cx: x, cy: y, r, fill: "none", stroke: colour, "stroke-width": r > 6 ? 2 : 1.4 }),
      el("circle", { cx: x, cy: y, r: r * 0.42, fill: colour }),
    ];
  });
}

function sticks(rank) {
  return LAYOUT[rank].map(([x, y], i) => {
    const colour = rank === 1 || (rank >= 5 && i === Math.floor(rank / 2)) ? "#b42318" : "#1a7f37";
    const h = rank === 1 ? 30 : rank <= 6 ? 14 : 10;
    return el("rect", { x: x - 2.2, y: y - h / 2, width: 4.4, height: h, rx: 2, fill: colour });
  });
}

/** An <svg> face for a tile in tenhou notation (`5p`, `9s`, `3m`, `5z` 白, `6z` 发, `7z` 中). */
export function tileFace(code, label = "") {
  const rank = Number(code[0]);
  const suit = code[1];
  const face = [el("rect", { x: 1, y: 1, width: 38, height: 52, rx: 5, fill: "var(--tile)", stroke: "var(--tile-edge)", "stroke-width": 1.5 })];
  if (suit === "p") face.push(...dots(rank));
  else if (suit === "s") face.push(...sticks(rank));
  else if (suit === "m") face.push(glyph(20, 16, 17, "#1f2328", NUMERALS[rank - 1]), glyph(20, 38, 19, "#b42318", "萬"));
  else if (rank === 5) face.push(el("rect", { x: 8, y: 9, width: 24, height: 36, rx: 3, fill: "none", stroke: "#1d5fa7", "stroke-width": 2.5 }));
  else if (rank === 6) face.push(glyph(20, 27, 24, "#1a7f37", "發"));
  else face.push(glyph(20, 27, 26, "#b42318", "中"));
  const svg = el("svg", { viewBox: "0 0 40 54", role: "img", "aria-label": label || code }, face);
  const box = document.createElement("span");
  box.className = "tile";
  box.dataset.tile = code;
  box.append(svg);
  return box;
}

/** The tiles of a table: its two suits 1–9, then 白 发 中. */
export function tilesOf(suits) {
  const out = [];
  for (const suit of suits) for (let rank = 1; rank <= 9; rank += 1) out.push(`${rank}${suit}`);
  return [...out, "5z", "6z", "7z"];
}
