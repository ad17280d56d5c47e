// Screen Time's card over a page whose site is at its limit or held back by the mode: the same
// words as the desktop's card, the week's bars, the mode's content, and the way through. The page's media is paused
// while it shows. Drawn in a closed shadow root, so the page's styles and scripts cannot reach it.
"use strict";

(() => {
  if (globalThis.__screentimeOverlay) return;
  globalThis.__screentimeOverlay = true;
  const api = globalThis.browser ?? globalThis.chrome;
  let shown = null;

  function pauseMedia() {
    for (const media of document.querySelectorAll("video, audio")) {
      try { media.pause(); } catch (error) { /* a media element the page locked */ }
    }
  }

  // While the card is up, whatever starts playing is paused again.
  document.addEventListener("play", () => { if (shown) pauseMedia(); }, true);

  function element(tag, style, text) {
    const node = document.createElement(tag);
    if (style) node.setAttribute("style", style);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function show(site, card) {
    remove();
    const host = element("screentime-card", "all: initial; position: fixed; inset: 0; z-index: 2147483647;");
    host.dataset.site = site;
    // What the card offers, by key only (never its words, which may name the user's events).
    host.dataset.choices = (Array.isArray(card.buttons) ? card.buttons : []).map((choice) => choice.key).join(" ");
    const root = host.attachShadow({ mode: "closed" });
    const backdrop = element("div", "position: fixed; inset: 0; background: rgba(20, 20, 24, 0.86); display: flex; align-items: center; justify-content: center; font: 15px/1.4 system-ui, sans-serif;");
    const box = element("div", "background: #fff; color: #222; border-radius: 14px; padding: 28px 32px; max-width: 460px; box-shadow: 0 8px 40px rgba(0,0,0,.4);");
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    const title = element("h1", "font-size: 21px; margin: 0 0 10px;", card.title ?? site);
    box.append(title);
    if (card.today) box.append(element("p", "margin: 0 0 8px; font-weight: 600;", card.today));
    const week = Array.isArray(card.week) ? card.week : [];
    if (week.length) {
      const most = Math.max(60, ...week.map((day) => Number(day.seconds) || 0));
      const bars = element("div", "display: flex; gap: 6px; align-items: flex-end; height: 64px; margin: 8px 0 14px;");
      for (const day of week) {
        const column = element("div", "display: flex; flex-direction: column; align-items: center; flex: 1;");
        const height = Math.max(2, Math.round(48 * (Number(day.seconds) || 0) / most));
        column.append(element("div", `width: 100%; height: ${height}px; background: #4a7bd0; border-radius: 3px;`));
        column.append(element("span", "font-size: 11px; color: #666;", String(day.label ?? "")));
        bars.append(column);
      }
      box.append(bars);
    }
    box.append(element("p", "margin: 0 0 18px;", card.message ?? ""));
    // The mode's content: the next break and events, to-dos, what leaving early means.
    for (const section of Array.isArray(card.sections) ? card.sections : []) {
      box.append(element("h2", "font-size: 15px; margin: 0 0 4px;", String(section.title ?? "")));
      const items = Array.isArray(section.items) ? section.items : [];
      if (items.length) {
        const list = element("ul", "margin: 0 0 14px; padding-left: 20px;");
        for (const item of items) list.append(element("li", "", String(item)));
        box.append(list);
      } else {
        box.append(element("p", "margin: 0 0 14px; color: #666;", String(section.note ?? "")));
      }
    }
    const buttons = element("div", "display: flex; gap: 10px; flex-wrap: wrap;");
    const choices = Array.isArray(card.buttons) && card.buttons.length ? card.buttons : [{ key: "close-tab", label: "Close tab", primary: true }];
    let first = null;
    for (const choice of choices) {
      const button = element("button", choice.primary
        ? "font: inherit; padding: 8px 16px; border-radius: 8px; border: 0; background: #2d5fb8; color: #fff; cursor: pointer;"
        : "font: inherit; padding: 8px 16px; border-radius: 8px; border: 1px solid #bbb; background: #f4f4f4; color: #222; cursor: pointer;", String(choice.label ?? choice.key));
      button.dataset.key = choice.key;
      button.addEventListener("click", () => {
        api.runtime.sendMessage({ type: "screentime-choice", site, choice: choice.key, link: choice.link });
      });
      if (choice.primary && !first) first = button;
      buttons.append(button);
    }
    box.append(buttons);
    backdrop.append(box);
    root.append(backdrop);
    (document.documentElement ?? document).append(host);
    shown = { host, site, root };
    globalThis.__screentimeShown = site;
    pauseMedia();
    (first ?? buttons.firstChild)?.focus();
  }

  function remove() {
    if (!shown) return;
    shown.host.remove();
    shown = null;
    globalThis.__screentimeShown = null;
  }

  api.runtime.onMessage.addListener((message) => {
    if (message?.type === "screentime-restrict") show(message.site, message.card ?? {});
    else if (message?.type === "screentime-allow" && shown?.site === message.site) remove();
  });
})();
