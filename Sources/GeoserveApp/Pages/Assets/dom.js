"use strict";
// What every page script shares, loaded before it from this origin (the Content-Security-Policy
// allows no inline script). Text reaches a page as text only: `el` makes text nodes, never markup.
// Node loads this file too, for the page scripts' tests.
const dom = (() => {
  const $ = (id) => document.getElementById(id);

  // An element with attributes and children. `on…` attributes are listeners; true stands for an
  // empty attribute, false, null and undefined for none; a child that is not a node is text.
  const el = (tag, attrs, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v === true) e.setAttribute(k, "");
      else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  };

  // The page's one status line, read out by screen readers (role="status").
  const say = (text, kind) => {
    const s = $("status");
    s.textContent = text || "";
    s.className = "status" + (kind ? " " + kind : "");
  };

  // A JSON answer of the API: `{body, etag}`, or `{notModified: true}` when `etag` still holds.
  async function getJSON(url, {etag, accept} = {}) {
    const headers = {"Accept": accept || "application/json"};
    if (etag) headers["If-None-Match"] = etag;
    const r = await fetch(url, {headers});
    if (r.status === 304) return {notModified: true};
    if (!r.ok) throw new Error(url + " answered " + r.status);
    return {body: await r.json(), etag: r.headers.get("ETag")};
  }

  // The JSON of an answer whose status was already looked at; {} when it has none (a proxy's
  // error page, an empty 204).
  const jsonOf = (response) => response.json().catch(() => ({}));

  // The message of the API's error document, if the answer is one.
  const errorMessage = (body) => ((body && body.error) || {}).message;

  // Text for a place that takes markup (Leaflet's attribution control): the characters markup is
  // made of, escaped, so that a name carrying a link or a form shows as the characters it is.
  const escaped = (text) => String(text == null ? "" : text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"})[c]);

  return Object.freeze({$, el, say, getJSON, jsonOf, errorMessage, escaped});
})();

if (typeof window === "undefined") module.exports = dom;
