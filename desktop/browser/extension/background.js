// Screen Time's extension: the site of the tab in front goes to the native host
// (org.screentime.browser), which tells the Screen Time agent; the agent's restrictions come back
// and are shown in the tab by overlay.js. Only the tab's host name leaves the browser (the host
// makes it the registrable domain before anything reaches the agent): never a URL or a title.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const HOST = "org.screentime.browser";
const BROWSER = typeof globalThis.browser !== "undefined" && navigator.userAgent.includes("Firefox") ? "firefox" : "chromium";

let port = null;
let retry = 1000;
/// What the host was last told, so an unchanged tab is not told again.
let lastSent = "";
/// Restrictions in force, by site, so a tab of that site opened or shown later gets its card.
const restricted = new Map();

function connect() {
  try {
    port = api.runtime.connectNative(HOST);
  } catch (error) {
    port = null;
    return setTimeout(connect, retry = Math.min(retry * 2, 60000));
  }
  port.onMessage.addListener(fromHost);
  port.onDisconnect.addListener(() => {
    // The host ended (killed, or the browser cannot start it): try again, less and less often.
    port = null;
    lastSent = "";
    setTimeout(connect, retry = Math.min(retry * 2, 60000));
  });
  port.postMessage({ type: "hello", browser: BROWSER });
  report();
}

function send(message) {
  if (port) port.postMessage(message);
}

/// The host name of a page of the web; "" for the browser's own pages, files and the like.
function hostOf(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.hostname : "";
  } catch (error) {
    return "";
  }
}

/// Tells the host the tab in front of the focused window, or that none of its windows has focus.
async function report() {
  let window;
  try {
    window = await api.windows.getLastFocused({ populate: true });
  } catch (error) {
    return;
  }
  const tab = window?.tabs?.find((t) => t.active);
  // No window of ours in front (another app, or a private window the extension may not see):
  // the agent then counts the browser's window as the browser, never as the last site.
  const message = tab && window.focused
    ? { type: "tab", focused: true, tab: tab.id, host: tab.incognito ? "" : hostOf(tab.url ?? ""), audible: !!tab.audible, incognito: !!tab.incognito }
    : { type: "tab", focused: false };
  const text = JSON.stringify(message);
  if (text === lastSent) return;
  lastSent = text;
  send(message);
}

async function fromHost(message) {
  retry = 1000;
  switch (message.type) {
    case "restrict": {
      let card = {};
      try { card = JSON.parse(message.card); } catch (error) { /* an empty card still covers the page */ }
      restricted.set(message.site, card);
      const tabs = message.tab !== undefined && message.tab !== null ? [message.tab] : (await activeTabs());
      for (const tab of tabs) showCard(tab, message.site, card);
      break;
    }
    case "allow":
      restricted.delete(message.site);
      for (const tab of await api.tabs.query({})) {
        api.tabs.sendMessage(tab.id, { type: "screentime-allow", site: message.site }).catch(() => {});
      }
      break;
    case "agent":
      if (message.connected) { lastSent = ""; report(); }
      break;
    case "error":
      console.warn("screentime: the native host refused a message:", message.message);
      break;
  }
}

async function activeTabs() {
  return (await api.tabs.query({ active: true, lastFocusedWindow: true })).map((t) => t.id);
}

/// Covers the tab with the card: the content script may not be there yet (a tab opened before
/// the extension was), so it is injected first when the message finds nobody.
async function showCard(tabId, site, card) {
  const message = { type: "screentime-restrict", site, card };
  try {
    await api.tabs.sendMessage(tabId, message);
  } catch (error) {
    try {
      await api.scripting.executeScript({ target: { tabId }, files: ["overlay.js"] });
      await api.tabs.sendMessage(tabId, message);
    } catch (ignored) { /* a page the extension may not touch (the browser's own) */ }
  }
}

// The card's buttons, from overlay.js.
api.runtime.onMessage.addListener((message, sender) => {
  if (message?.type !== "screentime-choice" || !sender.tab) return;
  // A calm alternative that is a link opens beside the card; the agent needs no answer.
  if (typeof message.link === "string" && /^https?:\/\//.test(message.link)) return void api.tabs.create({ url: message.link });
  send({ type: "choice", tab: sender.tab.id, site: message.site, choice: message.choice });
  if (message.choice === "close-tab") api.tabs.remove(sender.tab.id);
});

api.tabs.onActivated.addListener(report);
api.windows.onFocusChanged.addListener(report);
api.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (tab.active && (change.url !== undefined || change.audible !== undefined || change.status === "complete")) report();
});
api.tabs.onRemoved.addListener(report);
api.runtime.onStartup?.addListener(() => {});

connect();
