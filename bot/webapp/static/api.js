// The API client: every request carries Telegram's initData and the table's start parameter (when the page was
// opened from a private chat's web_app button, the parameter is in the page's own address).
const webApp = window.Telegram?.WebApp;
const initData = webApp?.initData || "";
const start = new URLSearchParams(location.search).get("start") || "";

export class ApiError extends Error {
  constructor(status, answer) {
    super(answer?.message || `HTTP ${status}`);
    this.status = status;
    this.code = answer?.error || "";
    this.answer = answer;
  }
}

async function call(path, options = {}) {
  const headers = { "X-Telegram-Init-Data": initData, ...(options.body ? { "Content-Type": "application/json" } : {}) };
  if (start) headers["X-Paiju-Start"] = start;
  const response = await fetch(path, { ...options, headers, cache: "no-store" });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

export const get = (path) => call(path);
export const post = (path, body) => call(path, { method: "POST", body: JSON.stringify(body) });

/** A fresh id for one booking: a retry of the same request sends the same id and books once. */
export function requestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
