// The sandbox page: one player's view of the Hexplay Sandbox server. Plain JavaScript, no build step.
"use strict";

const USER = decodeURIComponent(location.pathname.replace(/^\/+/, "").split("/")[0] || "alice");
const $ = (selector) => document.querySelector(selector);
const GUILD = new URLSearchParams(location.search).get("guild") || "";  // the server shown (?guild=id), else the first
const state = { me: null, users: {}, guild: null, guilds: [], channels: [], dm: null, current: null, messages: new Map(), seen: {}, unread: {}, clockOffset: 0 };
const COLORS = ["#5865f2", "#eb459e", "#57f287", "#fee75c", "#ed4245", "#3ba55c", "#faa61a"];

// ------------------------------------------------------------------ helpers

async function api(path, body) {
  const options = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user: USER, ...body }) };
  const response = await fetch(path, options);
  if (!response.ok) throw new Error(await response.text());
  return response.json();
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "html") node.innerHTML = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function colorOf(name) {
  let hash = 0;
  for (const c of name) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return COLORS[hash % COLORS.length];
}

function avatar(name, bot) {
  return el("div", { class: "avatar", style: `background:${bot ? "#5865f2" : colorOf(name)}` }, bot ? "⬢" : name[0].toUpperCase());
}

function channelName(id) {
  const channel = state.channels.find((c) => c.id === id);
  if (channel) return channel.name;
  return state.dm && state.dm.id === id ? "Hexplay" : say("unknown");
}

// The reader's locale for dates and times, as Discord's client uses theirs: British English, or the player's language.
function dateLocale() { return Words.language === "en" ? "en-GB" : Words.language; }

// Discord's timestamps, <t:UNIX:STYLE>, as its client shows them (in the reader's language and time zone). Relative
// ones count from the sandbox clock, which the bot's deadlines follow.
function timestamp(seconds, style) {
  const date = new Date(seconds * 1000);
  const time = { hour: "2-digit", minute: "2-digit" };
  const long = { day: "numeric", month: "long", year: "numeric" };
  const locale = dateLocale();
  switch (style) {
    case "t": return date.toLocaleTimeString(locale, time);
    case "T": return date.toLocaleTimeString(locale, { ...time, second: "2-digit" });
    case "d": return date.toLocaleDateString(locale);
    case "D": return date.toLocaleDateString(locale, long);
    case "F": return date.toLocaleString(locale, { weekday: "long", ...long, ...time });
    case "R": return relativeTime(seconds * 1000 - (Date.now() + state.clockOffset * 1000));
    default: return date.toLocaleString(locale, { ...long, ...time });  // "f", Discord's default
  }
}

function relativeTime(ms) {
  const units = [["year", 365 * 864e5], ["month", 30 * 864e5], ["day", 864e5], ["hour", 36e5], ["minute", 6e4], ["second", 1e3]];
  const [unit, size] = units.find(([, size]) => Math.abs(ms) >= size) || units[units.length - 1];
  return new Intl.RelativeTimeFormat(Words.language, { numeric: "always" }).format(Math.round(ms / size), unit);
}

// Discord's markdown, the parts the bot uses: code, bold, italic, underline, strike, quotes, headings, subtext (-#),
// mentions, links, timestamps, and backslash escapes (`\(` is a plain "(").
function markdown(text) {
  const blocks = [];
  const keep = (html) => { blocks.push(html); return `\u0000${blocks.length - 1}\u0000`; };
  let html = escapeHtml(text).replace(/```(?:\w*\n)?([\s\S]*?)```/g, (_, code) => keep(`<pre><code>${code}</code></pre>`));
  html = html.replace(/`([^`\n]+)`/g, (_, code) => keep(`<code>${code}</code>`));
  html = html.replace(/\\(&lt;|&gt;|&amp;|&quot;|&#39;|[!-\/:-@\[-`{-~])/g, (_, escaped) => keep(escaped));
  html = html.replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, seconds, style) => {
    const full = new Date(Number(seconds) * 1000).toLocaleString(dateLocale(), { dateStyle: "full", timeStyle: "short" });
    return keep(`<time class="timestamp" title="${full}">${escapeHtml(timestamp(Number(seconds), style))}</time>`);
  });
  html = html
    .replace(/^-# (.*)$/gm, '<small class="subtext">$1</small>')  // Discord's subtext: small, grey, its own line
    .replace(/^### (.*)$/gm, "<h3>$1</h3>").replace(/^## (.*)$/gm, "<h2>$1</h2>").replace(/^# (.*)$/gm, "<h1>$1</h1>")
    .replace(/^&gt; (.*)$/gm, "<blockquote>$1</blockquote>")
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>").replace(/__(.+?)__/g, "<u>$1</u>")
    .replace(/(^|[^*])\*([^*\n]+)\*/g, "$1<em>$2</em>").replace(/(^|\W)_([^_\n]+)_(?=\W|$)/g, "$1<em>$2</em>")
    .replace(/~~(.+?)~~/g, "<s>$1</s>")
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention" data-user="${id}">@${escapeHtml(state.users[id]?.name || "unknown")}</span>`)
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => `<span class="mention" data-channel="${id}">#${escapeHtml(channelName(id))}</span>`)
    .replace(/(https?:\/\/[^\s<]+[^\s<.,:;)'"])/g, (url) => `<a href="${url}" data-link="${url}" target="_blank" rel="noreferrer">${url}</a>`);
  return html.replace(/\u0000(\d+)\u0000/g, (_, i) => blocks[Number(i)]);
}

// A discord.com link to a channel or message of this sandbox opens here instead.
function sandboxTarget(url) {
  const match = /^https:\/\/discord\.com\/channels\/[^/]+\/(\d+)(?:\/(\d+))?/.exec(url || "");
  if (!match) return null;
  const link = /^https:\/\/discord\.com\/channels\/([^/]+)\//.exec(url)[1];
  if (!state.channels.some((c) => c.id === match[1]) && state.dm?.id !== match[1]) {
    // a channel of another sandbox server: open that server's page there
    return state.guilds.some((g) => g.id === link) ? { guild: link, channel: match[1], message: match[2] || null } : null;
  }
  return { channel: match[1], message: match[2] || null };
}

// ------------------------------------------------------------------ sidebar

function seenKey() { return `hexplay-sandbox-seen-${USER}`; }
function loadSeen() { try { state.seen = JSON.parse(localStorage.getItem(seenKey()) || "{}"); } catch { state.seen = {}; } }
function markSeen(channelId, messageId) {
  if (!messageId || BigInt(messageId) <= BigInt(state.seen[channelId] || "0")) return;
  state.seen[channelId] = messageId;
  localStorage.setItem(seenKey(), JSON.stringify(state.seen));
}
function isUnread(channel) {
  return channel.id !== state.current && BigInt(channel.last_message_id || "0") > BigInt(state.seen[channel.id] || "0");
}

function renderSidebar() {
  const list = $("#channel-list");
  list.replaceChildren();
  for (const channel of state.channels) {
    if (channel.archived) continue;
    const unread = isUnread(channel);
    list.append(el("a", {
      class: `channel${channel.thread ? " thread" : ""}${channel.id === state.current ? " active" : ""}${unread ? " unread" : ""}`,
      href: `#${channel.id}`, "data-id": channel.id, title: channel.name,
    }, el("span", { class: "icon" }, channel.thread ? "↳" : "#"), el("span", { class: "name" }, channel.name)));
  }
  const dmUnread = state.unread[state.dm.id] || (isUnread(state.dm) ? 1 : 0);
  $("#dm-list").replaceChildren(el("a", {
    id: "dm-link", class: `channel${state.dm.id === state.current ? " active" : ""}${dmUnread ? " unread" : ""}`,
    href: `#${state.dm.id}`, "data-id": state.dm.id,
  }, avatar("Hexplay", true), el("span", { class: "name" }, "Hexplay"), dmUnread ? el("span", { class: "badge" }, dmUnread) : null));
}

function guildUrl(user, guildId) {
  return `/${user}${guildId && guildId !== state.guilds[0]?.id ? `?guild=${guildId}` : ""}`;
}

function renderGuilds() {
  const select = $("#guild-switch");
  $("#guild-pick").hidden = state.guilds.length < 2;
  select.replaceChildren(...state.guilds.map((g) => el("option", { value: g.id, selected: g.id === state.guild.id }, g.name)));
  select.onchange = () => { location.href = guildUrl(USER, select.value); };  // its #games
  const icon = $("#servers .server-icon");
  icon.title = state.guild.name;
  icon.textContent = state.guild.name.split(/\s+/).map((w) => w[0]).join("").slice(0, 3).toUpperCase();
}

// The processes behind the bot (several only with --bot-processes/--workers): connected, and restarted if one died.
function renderProcesses(processes) {
  const panel = $("#process-panel");
  panel.hidden = processes.length < 2;
  panel.replaceChildren(...processes.map((p) => {
    const ids = p.shard_ids;
    const range = ids.length > 1 ? `${ids[0]}–${ids[ids.length - 1]}` : `${ids[0]}`;
    const shards = ids.length ? sayN("shard {range} of {total}", "shards {range} of {total}", ids.length, { range, total: p.shard_count }) : "";
    const last = p.exits[p.exits.length - 1];
    const when = last ? new Date(last.at * 1000).toLocaleTimeString(dateLocale()) : "";
    const status = last ? (last.status === -9 ? say("killed") : say("exit {status}", { status: last.status })) : "";
    return el("div", { class: "process", title: `pid ${p.pid ?? "–"}` },
      el("span", { class: `dot${p.connected ? " on" : ""}` }),
      el("span", {}, p.name),
      el("span", { class: "detail" }, [shards, p.pid ? `pid ${p.pid}` : "", p.connected ? "" : p.alive ? say("connecting…") : say("down")].filter(Boolean).join(" · ")),
      p.restarts ? el("span", { class: "restarted", title: say("{status} at {time}", { status, time: when }) },
        say("restarted {count}× ({status} {time})", { count: p.restarts, status, time: when })) : null);
  }));
}

function renderUserPanel() {
  const others = Object.values(state.users).filter((u) => !u.bot);
  const select = $("#user-switch");
  select.replaceChildren(...others.map((u) => el("option", { value: u.name, selected: u.name === USER }, u.name)));
  select.onchange = () => { location.href = `${guildUrl(select.value, state.guild.id)}${location.hash}`; };  // same channel, if theirs too
  $("#me-avatar").replaceWith(Object.assign(avatar(USER, false), { id: "me-avatar" }));
  const next = others.find((u) => u.name !== USER);
  const link = $("#new-tab");
  link.href = next ? guildUrl(next.name, state.guild.id) : "#";
  link.textContent = next ? say("open {name} ↗", { name: next.name }) : "";
  link.title = next ? say("Play as {name} in a new tab (two players on one machine)", { name: next.name }) : "";
}

// For contributors: the bot broke one of Discord's rules (the emulator refused a request).
function renderViolations(count) {
  const link = $("#violations");
  link.hidden = !count;
  link.textContent = sayN("⚠ the bot broke {count} Discord rule (details)", "⚠ the bot broke {count} Discord rules (details)", count);
}

function renderClock(offset) {
  state.clockOffset = offset || 0;
  const hours = Math.round(offset / 360) / 10;
  const days = Math.round(hours / 2.4) / 10;
  const number = (value) => value.toLocaleString(Words.language);
  $("#clock-offset").textContent = offset > 0
    ? (hours >= 48 ? sayN("+{count} day", "+{count} days", days, { count: number(days) }) : say("+{hours} h", { hours: number(hours) }))
    : say("real time");
  $("#real-time").hidden = !(offset > 0);  // back to the real time: shown only while the clock is ahead
}

// ------------------------------------------------------------------ messages

function renderEmbed(embed, message) {
  const url = (u) => (u || "").startsWith("attachment://")
    ? message.attachments.find((a) => a.filename === u.slice(13))?.url : u;
  const color = embed.color !== undefined && embed.color !== null ? `#${embed.color.toString(16).padStart(6, "0")}` : null;
  const inner = el("div", { class: "inner" },
    embed.author?.name ? el("div", { class: "footer" }, embed.author.name) : null,
    embed.title ? el("div", { class: "title" }, embed.title) : null,
    embed.description ? el("div", { class: "desc content", html: markdown(embed.description) }) : null,
    embed.fields?.length ? el("div", { class: "fields" }, embed.fields.map((f) => el("div", { class: `field${f.inline ? " inline" : ""}` },
      el("div", { class: "field-name" }, f.name), el("div", { class: "content", html: markdown(f.value) })))) : null,
    embed.image?.url ? el("img", { src: url(embed.image.url), alt: "" }) : null,
    embed.thumbnail?.url ? el("img", { src: url(embed.thumbnail.url), alt: "", style: "max-width:80px" }) : null,
    embed.footer?.text ? el("div", { class: "footer" }, embed.footer.text) : null);
  return el("div", { class: "embed" }, el("div", { class: "bar", style: color ? `background:${color}` : null }), inner);
}

function componentAction(message, node, request) {
  return async () => {
    const errorLine = node.closest(".body").querySelector(".action-error");
    errorLine.textContent = "";
    node.classList.add("busy");
    try {
      const answer = await api(request.path, { message: message.id, ...request.body() });
      if (answer.activity) ActivityHost.show(USER, state.me, answer.activity);  // the bot answered LAUNCH_ACTIVITY
      const problem = answer.error || (answer.errors || []).join("; ");
      if (problem) errorLine.textContent = say("This interaction failed: {problem}", { problem });
    } catch (error) {
      errorLine.textContent = say("This interaction failed: {problem}", { problem: error.message });
    } finally {
      node.classList.remove("busy");
    }
  };
}

function renderComponent(component, message) {
  if (component.type === 1) return el("div", { class: "row" }, (component.components || []).map((c) => renderComponent(c, message)));
  if (component.type === 2) {
    const label = [component.emoji?.name, component.label].filter(Boolean).join(" ");
    if (component.style === 5) {
      const target = sandboxTarget(component.url);
      return el("button", { class: "component style-5", type: "button", disabled: component.disabled,
        title: component.url, onclick: () => target ? openChannel(target.channel, target.message) : window.open(component.url, "_blank") }, `${label} ↗`);
    }
    const button = el("button", { class: `component style-${component.style || 2}`, type: "button", disabled: component.disabled,
      "data-custom-id": component.custom_id }, label);
    button.addEventListener("click", componentAction(message, button, { path: "/api/press", body: () => ({ custom_id: component.custom_id }) }));
    return button;
  }
  if ([3, 5, 6, 7, 8].includes(component.type)) return renderSelect(component, message);
  if (component.type === 10) return el("div", { class: "content", html: markdown(component.content || "") });
  if (Array.isArray(component.components)) return el("div", {}, component.components.map((c) => renderComponent(c, message)));
  return null;
}

function renderSelect(component, message) {
  const options = component.type === 3 ? (component.options || [])
    : Object.values(state.users).filter((u) => !u.bot).map((u) => ({ label: u.name, value: u.id }));
  const multiple = (component.max_values || 1) > 1;
  const select = el("select", { class: "component", multiple, disabled: component.disabled, "data-custom-id": component.custom_id,
    size: multiple ? Math.min(options.length, 6) : null },
    multiple ? null : el("option", { value: "", selected: !options.some((o) => o.default), disabled: true }, component.placeholder || say("Make a selection")),
    options.map((o) => el("option", { value: o.value, title: o.description || "", selected: Boolean(o.default) }, [o.emoji?.name, o.label].filter(Boolean).join(" "))));
  const chosen = () => [...select.selectedOptions].map((o) => o.value).filter(Boolean);
  const send = componentAction(message, select, { path: "/api/select", body: () => ({ custom_id: component.custom_id, values: chosen() }) });
  if (!multiple) {
    select.addEventListener("change", send);
    return select;
  }
  const min = component.min_values ?? 1;
  const submit = el("button", { class: "component style-1", type: "button", disabled: component.disabled }, say("Choose"));
  submit.addEventListener("click", () => {
    const count = chosen().length;
    if (count < min || count > component.max_values) {
      select.closest(".body").querySelector(".action-error").textContent = say("Pick between {least} and {most}.", { least: min, most: component.max_values });
      return;
    }
    send();
  });
  return el("div", { class: "row" }, select, submit);
}

function renderMessage(message) {
  const author = message.author;
  const mentionsMe = (message.pinged || []).includes(state.me.id);
  const embedded = new Set(message.embeds.flatMap((e) => [e.image?.url, e.thumbnail?.url]).filter(Boolean));
  const pictures = message.attachments.filter((a) => !embedded.has(`attachment://${a.filename}`));
  const body = el("div", { class: "body" },
    message.used ? el("div", { class: "used" }, say("{user} used ", { user: message.used.user }), el("span", { class: "mention" }, `/${commandName(message.used.command.slice(1)).name}`)) : null,
    el("div", { class: "head" }, el("span", { class: "author" }, author.name), author.bot ? el("span", { class: "tag" }, say("App")) : null,
      el("time", { datetime: message.time, title: new Date(message.time).toLocaleString() },
        new Date(message.time).toLocaleTimeString(dateLocale(), { hour: "2-digit", minute: "2-digit" })),
      message.edited ? el("time", {}, say("(edited)")) : null),
    message.loading ? el("div", { class: "thinking" }, say("{name} is thinking…", { name: author.name })) : null,
    message.content ? el("div", { class: "content", html: markdown(message.content) }) : null,
    message.embeds.map((e) => renderEmbed(e, message)),
    pictures.length ? el("div", { class: "attachments" }, pictures.map((a) => a.type.startsWith("image/")
      ? el("a", { href: a.url, target: "_blank" }, el("img", { src: a.url, loading: "lazy", alt: a.description || a.filename, width: a.width, height: a.height,
        style: a.width ? `aspect-ratio:${a.width}/${a.height};height:auto` : null, onload: keepAtBottom }))
      : el("a", { href: a.url, download: a.filename }, say("Download {file}", { file: a.filename })))) : null,
    message.components.map((c) => renderComponent(c, message)),
    message.thread ? el("div", { class: "thread-link", onclick: () => openChannel(message.thread.id) },
      "↳", el("b", {}, message.thread.name), el("span", {}, say("— open thread"))) : null,
    el("div", { class: "action-error" }),
    message.ephemeral ? el("div", { class: "ephemeral-note" }, say("Only you can see this · "),
      el("a", { onclick: () => { node.remove(); } }, say("Dismiss message"))) : null);
  const node = el("div", { class: `message${message.ephemeral ? " ephemeral" : ""}${mentionsMe ? " mentions-me" : ""}`,
    id: `m${message.id}`, "data-id": message.id, "data-author": author.name }, avatar(author.name, author.bot), body);
  return node;
}

// What a newcomer needs to start, shown where there is nothing yet.
function emptyState(channelId, isDm, channel) {
  const example = (text) => el("code", { class: "example", title: say("Click to put it in the message box"),
    onclick: () => { composer.value = text; composer.focus(); requestSuggestions(); } }, text);
  const other = Object.values(state.users).find((u) => !u.bot && u.name !== USER)?.name || "bob";
  if (isDm) return el("div", { class: "empty" }, say("Direct messages from the bot arrive here: turn reminders, when a match has waited a day for your move. The sandbox clock (bottom left) makes a day pass at once."));
  if (channel?.thread) return el("div", { class: "empty" }, say("No messages yet."));
  // The player's own command names (amelie's are French), as Discord's client shows them.
  const play = commandName("play"), move = commandName("move"), rules = commandName("rules");
  return el("div", { class: "empty welcome" },
    el("h3", {}, say("Welcome to the Hexplay sandbox, {name}!", { name: USER })),
    el("p", {}, say("This page imitates a Discord server with the real Hexplay bot in it. Start a match:")),
    el("p", {}, example(`/${play.name} ${play.option("game")}:bide ${play.option("opponent")}:${other}`), say(" or "),
      example(`/${play.name} ${play.option("game")}:begird ${play.option("opponent")}:${other}`)),
    el("p", {}, say("Then open {name} in another tab (link at the bottom left) to accept, and play with ", { name: other }),
      example(`/${move.name} ${move.option("move")}:`), say(" in the match's thread: the pop-up lists the legal moves. "),
      example(`/${rules.name} ${rules.option("game")}:bide`), say(" explains a game.")));
}

function nearBottom() {
  const box = $("#messages");
  return box.scrollHeight - box.scrollTop - box.clientHeight < 120;
}
let stickToBottom = true;
function keepAtBottom() { if (stickToBottom) { const box = $("#messages"); box.scrollTop = box.scrollHeight; } }

// Discord groups a run of messages by one author within minutes under one name and avatar.
function sameGroup(previous, message) {
  return previous.author.id === message.author.id && !message.used && !message.ephemeral && !previous.ephemeral
    && new Date(message.time) - new Date(previous.time) < 7 * 60 * 1000;
}

function regroup(node) {
  for (const each of [node, node.nextElementSibling]) {
    const message = each && state.messages.get(each.dataset.id);
    const previous = each?.previousElementSibling && state.messages.get(each.previousElementSibling.dataset.id);
    if (message) each.classList.toggle("grouped", Boolean(previous && sameGroup(previous, message)));
  }
}

function upsertMessage(message) {
  state.messages.set(message.id, message);
  const box = $("#messages");
  const node = renderMessage(message);
  const existing = document.getElementById(`m${message.id}`);
  stickToBottom = nearBottom();
  if (existing) existing.replaceWith(node);
  else {
    box.querySelector(".empty")?.remove();
    const later = [...box.children].find((child) => child.dataset.id && BigInt(child.dataset.id) > BigInt(message.id));
    box.insertBefore(node, later || null);
  }
  regroup(node);
  keepAtBottom();
}

function isDmId(channelId) { return state.dm && state.dm.id === channelId; }

async function openChannel(channelId, messageId = null) {
  document.body.classList.remove("sidebar-open");  // on a phone the channel list gives way to the channel
  if (location.hash !== `#${channelId}`) history.replaceState(null, "", `#${channelId}`);
  const other = $("#new-tab");
  if (other.pathname) other.hash = isDmId(channelId) ? "" : `#${channelId}`;  // the other player opens here too
  state.current = channelId;
  state.unread[channelId] = 0;
  const thread = state.channels.find((c) => c.id === channelId);
  const isDm = channelId === state.dm.id;
  $("#channel-title").textContent = isDm ? "@ Hexplay" : `${thread?.thread ? "↳" : "#"} ${thread?.name || "?"}`;
  $("#channel-hint").textContent = isDm ? say("Your direct messages with the bot (reminders arrive here)")
    : thread?.thread ? say("A match's thread: play with /{command} here", { command: commandName("move").name })
    : say("Start a match with /{command}", { command: commandName("play").name });
  $("#composer").placeholder = isDm ? say("Message @Hexplay")
    : say("Message {channel} — type / for commands", { channel: `${thread?.thread ? "" : "#"}${thread?.name || ""}` });
  renderSidebar();
  const messages = await api(`/api/messages?user=${encodeURIComponent(USER)}&channel=${channelId}`);
  if (state.current !== channelId) return;
  const box = $("#messages");
  box.replaceChildren();
  state.messages.clear();
  if (!messages.length) box.append(emptyState(channelId, isDm, thread));
  stickToBottom = true;
  for (const message of messages) upsertMessage(message);
  const last = messages[messages.length - 1];
  if (last) markSeen(channelId, last.id);
  renderSidebar();
  if (messageId) {
    const target = document.getElementById(`m${messageId}`);
    if (target) { target.scrollIntoView({ block: "center" }); target.classList.add("highlight"); }
  }
  $("#composer").focus();
}

// ------------------------------------------------------------------ live updates

let socket = null;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/live?user=${encodeURIComponent(USER)}`);
  socket.onopen = async () => {
    $("#offline").hidden = true;
    if (state.current) { await refreshState(); await openChannel(state.current); }
  };
  socket.onclose = () => { $("#offline").hidden = false; setTimeout(connect, 1000); };
  socket.onmessage = (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type === "message") onMessage(frame.message);
    else if (frame.type === "deleted") document.getElementById(`m${frame.id}`)?.remove();
    else if (frame.type === "channels") { state.channels = frame.channels.filter((c) => c.guild_id === state.guild.id); renderSidebar(); }
    else if (frame.type === "processes") renderProcesses(frame.processes);
    else if (frame.type === "clock") renderClock(frame.offset);
    else if (frame.type === "violations") renderViolations(frame.count);
  };
}

function onMessage(message) {
  const channel = message.channel_id === state.dm.id ? state.dm : state.channels.find((c) => c.id === message.channel_id);
  if (channel && BigInt(message.id) > BigInt(channel.last_message_id || "0")) channel.last_message_id = message.id;
  if (message.channel_id === state.current) {
    upsertMessage(message);
    if (document.visibilityState === "visible") markSeen(message.channel_id, message.id);
  } else if (message.channel_id === state.dm.id && !state.messages.has(message.id)) {
    state.unread[state.dm.id] = (state.unread[state.dm.id] || 0) + 1;
  }
  renderSidebar();
}

async function refreshState() {
  const data = await api(`/api/state?user=${encodeURIComponent(USER)}&guild=${encodeURIComponent(GUILD)}`);
  state.me = data.me;
  state.guild = data.guild;
  state.guilds = data.guilds;
  state.users = Object.fromEntries(data.users.map((u) => [u.id, u]));
  state.channels = data.channels;
  state.dm = data.dm;
  state.commands = data.commands;
  $("#guild-name").textContent = data.guild.name;
  renderClock(data.clock_offset);
  renderViolations(data.violations);
  renderGuilds();
  renderProcesses(data.processes);
}

// ------------------------------------------------------------------ composer

const composer = $("#composer");
const popup = $("#popup");
let suggestions = [];
let selected = -1;
let suggestSequence = 0;
let suggestTimer = null;

function showPopup(title, items) {
  suggestions = items;
  selected = -1;
  if (!title && !items.length) { popup.hidden = true; return; }
  const rows = items.map((item, index) => el("div", { class: "item", "data-index": index,
    onmousedown: (event) => { event.preventDefault(); pick(index); } },
    el("span", { class: "label" }, item.label), el("span", { class: "detail" }, item.detail)));
  const hint = items.length ? [el("div", { class: "hint" }, say("↑↓ to choose · Tab or click to pick · Enter to send"))] : [];
  popup.replaceChildren(el("div", { class: "title" }, title || ""), ...rows, ...hint);  // never a null child: it shows "null"
  popup.hidden = false;
}

function highlight(index) {
  selected = index;
  popup.querySelectorAll(".item").forEach((node, i) => node.classList.toggle("selected", i === index));
  popup.querySelector(".item.selected")?.scrollIntoView({ block: "nearest" });
}

function pick(index) {
  const item = suggestions[index];
  if (!item) return;
  composer.value = item.text;
  composer.focus();
  requestSuggestions();
}

function requestSuggestions() {
  clearTimeout(suggestTimer);
  suggestTimer = setTimeout(async () => {
    const text = composer.value;
    const sequence = ++suggestSequence;
    if (!text.startsWith("/")) { showPopup(null, []); return; }
    try {
      const answer = await api("/api/suggest", { channel: state.current, text });
      if (sequence === suggestSequence) showPopup(answer.title, answer.items);
    } catch (error) {
      if (sequence === suggestSequence) showPopup(say("Cannot suggest: {why}", { why: error.message }), []);
    }
  }, 120);
}

async function send() {
  const text = composer.value.trim();
  if (!text) return;
  $("#composer-error").textContent = "";
  composer.disabled = true;
  showPopup(null, []);
  try {
    const answer = await api("/api/send", { channel: state.current, text });
    if (answer.error) $("#composer-error").textContent = answer.error;
    else {
      composer.value = "";
      if (answer.errors?.length) $("#composer-error").textContent = say("The bot's answer was refused: {why}", { why: answer.errors.join("; ") });
    }
  } catch (error) {
    $("#composer-error").textContent = error.message;
  } finally {
    composer.disabled = false;
    composer.focus();
  }
}

composer.addEventListener("input", () => { $("#composer-error").textContent = ""; requestSuggestions(); });
composer.addEventListener("focus", requestSuggestions);
composer.addEventListener("blur", () => setTimeout(() => { if (document.activeElement !== composer) popup.hidden = true; }, 150));
composer.addEventListener("keydown", (event) => {
  const open = !popup.hidden && suggestions.length > 0;
  if (open && event.key === "ArrowDown") { event.preventDefault(); highlight((selected + 1) % suggestions.length); }
  else if (open && event.key === "ArrowUp") { event.preventDefault(); highlight((selected - 1 + suggestions.length) % suggestions.length); }
  else if (open && event.key === "Tab") { event.preventDefault(); pick(selected >= 0 ? selected : 0); }
  else if (event.key === "Escape") { popup.hidden = true; }
  else if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    if (open && selected >= 0) pick(selected);
    else send();
  }
});

// ------------------------------------------------------------------ start

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  const target = link && sandboxTarget(link.dataset.link);
  if (target?.guild) { event.preventDefault(); location.href = `${guildUrl(USER, target.guild)}#${target.channel}`; return; }
  if (target) { event.preventDefault(); openChannel(target.channel, target.message); return; }
  const mention = event.target.closest(".mention[data-channel]");
  if (mention) openChannel(mention.dataset.channel);
});
window.addEventListener("hashchange", () => {
  const id = location.hash.slice(1);
  if (id && id !== state.current) openChannel(id);
});
document.addEventListener("visibilitychange", () => {
  const last = [...state.messages.keys()].pop();
  if (document.visibilityState === "visible" && state.current && last) { markSeen(state.current, last); renderSidebar(); }
});
$("#menu").addEventListener("click", () => document.body.classList.toggle("sidebar-open"));
$("#sidebar-shade").addEventListener("click", () => document.body.classList.remove("sidebar-open"));
$("#channels").addEventListener("click", (event) => {
  if (event.target.closest(".channel")) document.body.classList.remove("sidebar-open");  // even the channel already open
});
// The App Launcher: the app's Entry Point command, run in the channel shown; the bot answers LAUNCH_ACTIVITY.
$("#launcher").addEventListener("click", async () => {
  $("#composer-error").textContent = "";
  try {
    const answer = await api("/api/launch", { channel: state.current, guild: GUILD });
    if (answer.activity) ActivityHost.show(USER, state.me, answer.activity);
    else $("#composer-error").textContent = answer.error || (answer.errors || []).join("; ") || say("The app did not launch its Activity.");
  } catch (error) {
    $("#composer-error").textContent = error.message;
  }
});
for (const button of document.querySelectorAll("#clock-panel button[data-hours]")) {
  button.addEventListener("click", async () => {
    const answer = await api("/api/clock", { hours: Number(button.dataset.hours) });
    renderClock(answer.offset);
  });
}
$("#real-time").addEventListener("click", async () => renderClock((await api("/api/clock", { real_time: true })).offset));

// The words index.html is written with, in the player's language (the page says nothing before this).
function localizeStatic() {
  const texts = {
    "#channels .section-title.channels": say("Text channels"),
    "#channels .section-title.dms": say("Direct messages"),
    "#clock-label": say("Sandbox clock:"),
    "#clock-offset": say("real time"),
    "#clock-panel button[data-hours='1']": say("+1 hour"),
    "#clock-panel button[data-hours='24']": say("+1 day"),
    "#real-time": say("Back to real time"),
    "label[for=user-switch]": say("Playing as"),
    "#new-tab": say("other player ↗"),
    "#guild-pick-label": say("Server"),
    "#offline": say("reconnecting…"),
    "#launcher": say("Activities"),
  };
  for (const [selector, text] of Object.entries(texts)) $(selector).textContent = text;
  const titles = {
    "#process-panel": say("The bot processes (each a range of gateway shards) and the computer-player workers; one that dies is started again"),
    "#clock-panel": say("Moves the bot's clock forward, so reminders fall due without waiting"),
    "#real-time": say("Sets the bot's clock back to the real time"),
    "#new-tab": say("Open another player in a new tab"),
    "#guild-switch": say("Switch server"),
    "#menu": say("Channels"),
    "#launcher": say("Activities: open Hexplay's board (the app's Entry Point command)"),
  };
  for (const [selector, text] of Object.entries(titles)) $(selector).title = text;
  $("#menu").setAttribute("aria-label", say("Channels"));
}

// A command as the player's Discord names it, with its options (amelie's /jouer jeu:… adversaire:…).
function commandName(english) {
  const found = (state.commands || []).find((c) => c.english === english);
  return { name: found?.name || english, option: (name) => found?.options?.[name] || name };
}

(async function start() {
  await loadWords(USER);
  localizeStatic();
  document.title = say("{name} — Hexplay sandbox", { name: USER });
  loadSeen();
  await refreshState();
  renderUserPanel();
  const wanted = location.hash.slice(1);
  const games = state.channels.find((c) => !c.thread);
  const known = wanted && (wanted === state.dm.id || state.channels.some((c) => c.id === wanted));
  await openChannel(known ? wanted : games.id);
  connect();
})();
