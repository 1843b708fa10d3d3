// The board: seats (dealer, 亮倒, tonight's balance), the hand's number and events, and the recording buttons.
import { choices, h, sheet, sign, tap } from "./dom.js";
import { tileFace, tilesOf } from "./tiles.js";

export function renderBoard(app) {
  const { table, night, me, group } = app.board;
  const out = [];
  if (!table) {
    out.push(h("p", { class: "card hint" }, app.t("no_table")));
  } else {
    if (me.old_link) out.push(h("p", { class: "hint", id: "old-link" }, app.t("old_link")));
    out.push(h("div", { class: "spread" },
      h("h2", {}, `${app.t("hand_no", { number: table.hand })} · ${group.game_name}`),
      h("span", { class: "hint" }, app.t("base", { base: table.base }))));
    if (table.rules) out.push(h("div", { class: "hint" }, table.rules));
    out.push(h("div", { class: "seats" }, table.seats.map((seat) =>
      h("div", { class: "seat", dataset: { seat: seat.name } },
        h("div", { class: "name" }, seat.name),
        h("div", {},
          seat.dealer && h("span", { class: "badge" }, app.t("dealer")),
          seat.liangdao && h("span", { class: "badge ld" }, app.t("liangdao")),
          seat.name === me.seat && h("span", { class: "badge me" }, app.t("me"))),
        h("div", { class: `money ${sign(seat.night.amount)}` }, seat.night.shown || "0")))));
    out.push(h("h2", {}, app.t("this_hand")));
    out.push(h("div", { class: "card", id: "events" }, table.events.length
      ? h("ul", { class: "plain" }, table.events.map((event) => h("li", {}, event.text)))
      : h("span", { class: "hint" }, app.t("hand_empty"))));
    if (table.game !== "kawuxing") out.push(h("p", { class: "hint" }, app.t("not_kawuxing")));
    else if (!me.may_record) out.push(h("p", { class: "hint" }, app.t("read_only")));
    else out.push(actions(app, table));
  }
  if (night) {
    out.push(h("h2", {}, app.t("tonight")));
    out.push(h("div", { class: "card" }, h("ul", { class: "plain", id: "tonight" }, night.balances.map((line) =>
      h("li", { class: "spread" }, h("span", {}, line.name), h("span", { class: sign(line.amount) }, line.shown))))));
  }
  return h("div", {}, out);
}

function actions(app, table) {
  const button = (label, onclick, cls = "") => h("button", { class: cls, onclick, dataset: { action: label } }, label);
  return h("div", { class: "actions" },
    button(app.t("btn_win"), () => app.show("win"), "primary"),
    button(app.t("btn_kong"), () => kongSheet(app, table)),
    button(app.t("btn_liangdao"), () => liangdaoSheet(app, table)),
    button(app.t("btn_draw"), () => confirmSheet(app, app.t("confirm_draw"), { action: "draw" })),
    button(app.t("btn_undo"), () => confirmSheet(app, app.t("confirm_undo"), { action: "undo" })));
}

function seatsOf(table) {
  return table.seats.map((seat) => [seat.name, seat.name]);
}

function bookButton(app, body, ready, close) {
  return h("button", {
    class: "primary big", disabled: !ready, dataset: { action: "book" },
    onclick: async (event) => {
      event.target.disabled = true;
      try { await app.record(body()); close(); } catch { event.target.disabled = false; }
    },
  }, app.t("btn_book"));
}

function kongSheet(app, table) {
  const kong = { player: app.board.me.seat || table.seats[0].name, kind: "angang", tile: null, from: null, chain: false };
  let close = () => {};
  const draw = () => {
    const parts = [
      h("h2", {}, app.t("who_kong")), choices("kong-player", seatsOf(table), kong.player, (v) => { kong.player = v; tap(); draw(); }),
      h("h2", {}, app.t("kong_kind")),
      choices("kong-kind", ["angang", "xugang", "zhigang"].map((k) => [k, app.t(`kong_${k}`)]), kong.kind, (v) => { kong.kind = v; tap(); draw(); }),
    ];
    if (kong.kind === "zhigang") {
      const others = seatsOf(table).filter(([name]) => name !== kong.player);
      parts.push(h("h2", {}, app.t("kong_from")), choices("kong-from", others, kong.from, (v) => { kong.from = v; tap(); draw(); }));
      if (table.last_is_kong) {
        parts.push(h("div", { class: "row" }, h("button", { class: kong.chain ? "on" : "", onclick: () => { kong.chain = !kong.chain; draw(); } }, app.t("kong_chain"))));
      }
    }
    parts.push(h("h2", {}, app.t("kong_tile")), h("div", { class: "palette" }, tilesOf(table.suits).map((code) =>
      h("button", { class: kong.tile === code ? "on" : "", onclick: () => { kong.tile = kong.tile === code ? null : code; tap(); draw(); } },
        tileFace(code, app.session.tile_names[code])))));
    const ready = kong.kind !== "zhigang" || (kong.from && kong.from !== kong.player);
    const body = () => ({ action: "gang", player: kong.player, kind: kong.kind, tile: kong.tile,
      from: kong.kind === "zhigang" ? kong.from : null, chain: kong.kind === "zhigang" && kong.chain });
    parts.push(bookButton(app, body, ready, () => close()));
    close = sheet(h("div", { id: "kong" }, parts));
  };
  draw();
}

function liangdaoSheet(app, table) {
  let player = app.board.me.seat || table.seats[0].name;
  let close = () => {};
  const draw = () => {
    close = sheet(h("div", { id: "liangdao" },
      h("h2", {}, app.t("who_liangdao")),
      choices("liangdao-player", seatsOf(table).filter(([name]) => !table.seats.find((s) => s.name === name).liangdao), player, (v) => { player = v; draw(); }),
      bookButton(app, () => ({ action: "liangdao", player }), Boolean(player), () => close())));
  };
  draw();
}

export function confirmSheet(app, question, body) {
  let close = () => {};
  close = sheet(h("div", { id: "confirm" },
    h("p", {}, question),
    bookButton(app, () => body, true, () => close()),
    h("button", { class: "big", onclick: () => close() }, app.t("btn_cancel"))));
}
