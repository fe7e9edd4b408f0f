// Small helpers for building the page's elements.

export const $ = (selector) => document.querySelector(selector);

export function el(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") made.className = value;
    else if (key.startsWith("on")) made.addEventListener(key.slice(2), value);
    else made.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    made.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return made;
}

/** Replace an element's children, skipping the absent ones (replaceChildren would write "null"). */
export function fill(parent, ...children) {
  parent.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

/** Show a notice over the board: a refusal, a lost connection. ``sticky`` keeps it until replaced. */
let noticeTimer = 0;
export function notice(text, { kind = "refusal", sticky = false, action = null } = {}) {
  const box = $("#notice");
  clearTimeout(noticeTimer);
  if (!text) {
    box.hidden = true;
    return;
  }
  box.className = kind;
  fill(box, el("span", {}, text), action);
  box.hidden = false;
  if (!sticky) noticeTimer = setTimeout(() => (box.hidden = true), 6000);
}
