// The Mini App: three pages (the board, the win picker, the night) over one live board.
import { ApiError, get, post, requestId } from "./api.js";
import { renderBoard } from "./board.js";
import { h, toast } from "./dom.js";
import { renderNight } from "./night.js";
import { Picker } from "./picker.js";

const webApp = window.Telegram?.WebApp;

export const app = {
  texts: {},
  session: null,
  board: null,
  night: null,
  tab: "board",
  picker: null,
  t(key, params = {}) {
    const template = this.texts[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
  },
  show(tab) {
    this.tab = tab;
    render();
    if (tab === "night") loadNight();
  },
  /** Book one action through the chat's command layer; a lost connection is retried with the same id. */
  async record(body) {
    const request = { ...body, request_id: requestId(), table_id: this.board?.table?.id ?? null };
    for (let attempt = 0; ; attempt += 1) {
      try {
        const answer = await post("api/record", request);
        webApp?.HapticFeedback?.notificationOccurred?.("success");
        toast(this.t(answer.asked ? "asked" : "booked"));
        return answer;
      } catch (err) {
        const retry = !(err instanceof ApiError) || err.status >= 500;
        if (retry && attempt < 3) { await sleep(700 * (attempt + 1)); continue; }
        webApp?.HapticFeedback?.notificationOccurred?.("error");
        toast(err instanceof ApiError ? err.message : this.t("network"));
        throw err;
      }
    }
  },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function applyTheme() {
  const params = webApp?.themeParams || {};
  for (const [key, value] of Object.entries(params)) {
    document.documentElement.style.setProperty(`--tg-theme-${key.replace(/_/g, "-")}`, value);
  }
  document.documentElement.classList.toggle("dark", webApp?.colorScheme === "dark");
}

function render() {
  const title = app.board?.group?.title || app.t("title");
  document.getElementById("title").textContent = title;
  // who the page acts as, named as the bot's replies name them (a 名片, 老王#2, a seat's name), never Telegram's
  document.getElementById("me").textContent = app.board?.me ? app.t("me_as", { name: app.board.me.name }) : "";
  document.getElementById("tabs").replaceChildren(
    ...["board", "win", "night"].map((tab) =>
      h("button", { class: app.tab === tab ? "on" : "", onclick: () => app.show(tab), dataset: { tab } }, app.t(`tab_${tab}`))));
  const page = document.getElementById("page");
  if (!app.board) { page.replaceChildren(h("p", { class: "hint" }, app.t("loading"))); return; }
  if (app.tab === "board") page.replaceChildren(renderBoard(app));
  else if (app.tab === "win") {
    if (!app.picker || app.picker.tableId !== app.board.table?.id) app.picker = new Picker(app);
    page.replaceChildren(app.picker.render());
  } else page.replaceChildren(renderNight(app));
}
app.render = render;

function fail(err) {
  const message = err instanceof ApiError ? err.message : app.t("network");
  document.getElementById("page").replaceChildren(h("p", { class: "card error", id: "fatal" }, message));
  document.getElementById("status").textContent = "";
}

async function loadNight() {
  try {
    app.night = await get("api/night");
    if (app.tab === "night") render();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) fail(err);
  }
}
app.loadNight = loadNight;

/** The live board: ask for the board "since" the version we have; the server answers when it changes. */
async function follow() {
  const status = document.getElementById("status");
  for (;;) {
    try {
      const since = app.board?.version || "";
      const board = await get(`api/board?since=${encodeURIComponent(since)}`);
      status.textContent = app.t("live");
      status.className = "live";
      if (board.version !== since) {
        app.board = board;
        if (app.tab === "night") loadNight();
        else render();
      }
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) { fail(err); return; }
      status.textContent = app.t("offline");
      status.className = "";
      await sleep(2000);
    }
  }
}

async function boot() {
  webApp?.ready?.();
  webApp?.expand?.();
  applyTheme();
  webApp?.onEvent?.("themeChanged", applyTheme);
  try {
    app.session = await get("api/session");
  } catch (err) {
    fail(err);
    return;
  }
  app.texts = app.session.texts;
  document.documentElement.lang = app.session.lang === "en" ? "en" : "zh-CN";
  document.title = app.t("title");
  render();
  follow();
}

boot();
