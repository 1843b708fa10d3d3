// Small DOM helpers: elements are built with textContent only, so no player-typed name is ever parsed as HTML.

/** h("button", {class: "on", onclick}, "text", child …) */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The class of a signed amount: green when positive, red when negative. */
export function sign(amount) {
  return amount > 0 ? "plus" : amount < 0 ? "minus" : "";
}

/** A text with {name} fields filled. */
export function fill(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (_, key) => (key in params ? String(params[key]) : `{${key}}`));
}

let toastTimer = 0;
export function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 3000);
}

/** A bottom sheet with `content`; returns a function that closes it. */
export function sheet(content) {
  const box = document.getElementById("sheet");
  const close = () => { box.hidden = true; box.replaceChildren(); };
  box.replaceChildren(h("div", { class: "panel", onclick: (e) => e.stopPropagation() }, content));
  box.onclick = close;
  box.hidden = false;
  return close;
}

/** A row of choice buttons (the row's id names the question); `chosen` is marked, a press calls `choose(value)`. */
export function choices(id, options, chosen, choose) {
  return h("div", { class: "row", id }, options.map(([value, label]) =>
    h("button", { class: value === chosen ? "on" : "", onclick: () => choose(value), dataset: { value } }, label)));
}

export function tap() {
  window.Telegram?.WebApp?.HapticFeedback?.selectionChanged?.();
}
