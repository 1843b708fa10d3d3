// The win picker: tap the concealed tiles, the melds and the winning tile; say how it was won; see what booking
// would do (from the server's scoring core) and book it.
import { post } from "./api.js";
import { choices, h, tap } from "./dom.js";
import { tileFace, tilesOf } from "./tiles.js";

const MELD_SIZE = { peng: 3, zhigang: 4, xugang: 4, angang: 4 };

export class Picker {
  constructor(app) {
    this.app = app;
    const table = app.board.table;
    this.tableId = table?.id ?? null;
    this.winner = app.board.me.seat || table?.seats[0]?.name || null;
    this.mode = "hand";
    this.reset();
  }

  reset() {
    this.concealed = [];
    this.melds = [];
    this.winTile = null;
    this.method = "self_draw";
    this.from = null;
    this.situations = [];
    this.answer = null;
    this.asked = 0;
  }

  get count() {
    return this.concealed.length + 3 * this.melds.length + (this.winTile ? 1 : 0);
  }

  copies(code) {
    const inMelds = this.melds.filter((m) => m.tile === code).reduce((n, m) => n + MELD_SIZE[m.kind], 0);
    return this.concealed.filter((t) => t === code).length + inMelds + (this.winTile === code ? 1 : 0);
  }

  add(code) {
    tap();
    if (this.mode === "hand") {
      if (this.count >= 14 || this.copies(code) >= 4) return;
      if (this.count === 13) this.winTile = code;
      else this.concealed.push(code);
    } else {
      if (this.count + 3 > 14 || this.winTile || this.copies(code) + MELD_SIZE[this.mode] > 4 || this.melds.length >= 4) return;
      this.melds.push({ kind: this.mode, tile: code });
      this.mode = "hand";
    }
    this.changed();
  }

  body() {
    return {
      winner: this.winner, concealed: this.concealed, melds: this.melds, win_tile: this.winTile,
      method: this.method, from: this.method === "self_draw" ? null : this.from, situations: this.situations,
      table_id: this.tableId,
    };
  }

  changed() {
    this.answer = null;
    this.app.render();
    const asked = ++this.asked;
    clearTimeout(this.timer);
    if (!this.concealed.length && !this.melds.length) return;
    this.timer = setTimeout(async () => {
      try {
        const answer = await post("api/preview", this.body());
        if (asked === this.asked) { this.answer = answer; this.app.render(); }
      } catch (err) {
        if (asked === this.asked) { this.answer = { ok: false, complete: true, error: err.message }; this.app.render(); }
      }
    }, 120);
  }

  render() {
    const app = this.app;
    const table = app.board.table;
    if (!table) return h("p", { class: "card hint" }, app.t("no_table"));
    if (table.game !== "kawuxing") return h("p", { class: "card hint" }, app.t("not_kawuxing"));
    const seats = table.seats.map((s) => [s.name, s.name]);
    const names = app.session.tile_names;
    const face = (code) => tileFace(code, names[code]);
    const parts = [
      h("h2", {}, app.t("who_won")),
      choices("winner", seats, this.winner, (v) => { this.winner = v; if (this.from === v) this.from = null; this.changed(); }),
      h("div", { class: "spread" }, h("h2", {}, app.t("hand_tiles")),
        h("span", { class: "hint", id: "count" }, app.t("tiles_count", { count: this.count }))),
      h("div", { class: "card hand", id: "hand" },
        this.melds.map((meld, i) => h("button", { class: "meld", title: app.t(`meld_${meld.kind}`),
          onclick: () => { this.melds.splice(i, 1); this.winTile = null; this.changed(); } },
          Array.from({ length: MELD_SIZE[meld.kind] }, () => face(meld.tile)))),
        this.concealed.map((code, i) => h("button", { onclick: () => { this.concealed.splice(i, 1); this.winTile = null; this.changed(); } }, face(code))),
        this.winTile
          ? h("button", { class: "win", onclick: () => { this.winTile = null; this.changed(); } }, face(this.winTile))
          : h("span", { class: "slot", title: app.t("win_tile") })),
      h("div", { class: "row" }, h("span", { class: "hint" }, app.t("tap_adds")),
        choices("mode", [["hand", app.t("meld_none")], ...Object.keys(MELD_SIZE).map((k) => [k, app.t(`meld_${k}`)])], this.mode,
          (v) => { this.mode = v; app.render(); })),
      h("div", { class: "palette", id: "palette" }, tilesOf(table.suits).map((code) =>
        h("button", { disabled: this.copies(code) >= 4 || this.count >= 14, onclick: () => this.add(code), dataset: { tile: code } }, face(code)))),
      h("h2", {}, app.t("how")),
      choices("method", ["self_draw", "discard", "rob_kong"].map((m) => [m, app.t(`method_${m}`)]), this.method,
        (v) => { this.method = v; this.situations = []; this.changed(); }),
    ];
    if (this.method !== "self_draw") {
      parts.push(h("h2", {}, app.t(this.method === "discard" ? "who_discarded" : "who_robbed")),
        choices("from", seats.filter(([name]) => name !== this.winner), this.from, (v) => { this.from = v; this.changed(); }));
    }
    const offered = app.session.situations[this.method] || [];
    if (offered.length) {
      parts.push(h("h2", {}, app.t("situations")), h("div", { class: "row", id: "situations" }, offered.map((s) => h("button", {
        class: this.situations.includes(s.key) ? "on" : "",
        onclick: () => {
          this.situations = this.situations.includes(s.key) ? this.situations.filter((k) => k !== s.key) : [...this.situations, s.key];
          this.changed();
        },
      }, s.name))));
    }
    parts.push(this.renderPreview());
    return h("div", { id: "picker" }, parts);
  }

  renderPreview() {
    const app = this.app;
    const answer = this.answer;
    const box = [h("h2", {}, app.t("preview"))];
    if (!answer) return h("div", { id: "preview" }, box);
    if (!answer.complete) {
      box.push(h("div", { class: "card" }, app.t("missing", { missing: answer.missing }),
        answer.waits && h("div", { id: "waits" }, answer.waits.length
          ? [app.t("waits", { tiles: "" }), h("span", { class: "row" }, answer.waits.map((code) => tileFace(code, app.session.tile_names[code])))]
          : app.t("no_waits"))));
      return h("div", { id: "preview" }, box);
    }
    if (!answer.ok) {
      box.push(h("div", { class: "card error", id: "refusal" }, answer.error));
      return h("div", { id: "preview" }, box);
    }
    const capped = answer.multiplier !== answer.final_multiplier ? app.t("capped", { raw: answer.multiplier }) : "";
    box.push(h("div", { class: "card", id: "verdict" },
      h("div", { class: "spread" }, h("span", {}, answer.summary),
        h("span", { class: "multiple", id: "multiple" }, app.t("multiple", { final: answer.final_multiplier }), h("small", { class: "hint" }, capped))),
      answer.baohu && h("div", { class: "hint" }, app.t("baohu", { name: answer.baohu })),
      h("h2", {}, app.t("payments")),
      h("ul", { class: "plain", id: "payments" }, answer.payments.map((p) => h("li", { class: "spread" }, h("span", {}, `${p.from} → ${p.to}`), h("b", {}, p.shown)))),
      h("div", { class: "hint" }, app.t("same_as")), h("div", { class: "line", id: "line" }, answer.line)));
    if (app.board.me.may_record) {
      box.push(h("button", {
        class: "primary big", id: "book",
        onclick: async (event) => {
          event.target.disabled = true;
          try {
            await app.record({ action: "hu", ...this.body() });
            this.reset();
            app.show("board");
          } catch { event.target.disabled = false; }
        },
      }, app.t("btn_book")));
    } else box.push(h("p", { class: "hint" }, app.t("read_only")));
    return h("div", { id: "preview" }, box);
  }
}
