// The shared helpers, against a few lines of stand-in DOM: what `el` makes of its attributes and
// children, and how answers' JSON and error messages are read.
import test from "node:test";
import assert from "node:assert/strict";
import dom from "../../Sources/GeoserveApp/Pages/Assets/dom.js";

const {el, jsonOf, errorMessage} = dom;

class Node {}
class Text extends Node {
  constructor(text) { super(); this.text = text; }
}
class Element extends Node {
  constructor(tag) { super(); this.tag = tag; this.attributes = {}; this.children = []; this.listeners = {}; }
  setAttribute(k, v) { this.attributes[k] = String(v); }
  addEventListener(type, f) { this.listeners[type] = f; }
  append(...nodes) { this.children.push(...nodes); }
}
globalThis.Node = Node;
globalThis.document = {createElement: (tag) => new Element(tag), createTextNode: (text) => new Text(text)};

test("el: attributes as given, true as an empty one, false, null and undefined as none, on… as listeners", () => {
  const click = () => {};
  const e = el("input", {id: "a", maxlength: 200, required: true, disabled: false, value: null, title: undefined, onclick: click});
  assert.equal(e.tag, "input");
  assert.deepEqual(e.attributes, {id: "a", maxlength: "200", required: ""});
  assert.equal(e.listeners.click, click);
});

test("el: children that are not nodes become text, never markup; null and undefined are skipped", () => {
  const inner = el("em");
  const e = el("p", {}, "<b>bold?</b>", 0, null, undefined, inner);
  assert.deepEqual(e.children.map((c) => c instanceof Text ? c.text : c.tag), ["<b>bold?</b>", "0", "em"]);
  assert.deepEqual(el("br").children, []);
});

test("an answer's JSON, or {} when it has none", async () => {
  assert.deepEqual(await jsonOf({json: async () => ({id: "r"})}), {id: "r"});
  assert.deepEqual(await jsonOf({json: async () => { throw new SyntaxError("not JSON"); }}), {});
});

test("the API's error message, when the body is an error document", () => {
  assert.equal(errorMessage({error: {message: "too long"}}), "too long");
  assert.equal(errorMessage({}), undefined);
  assert.equal(errorMessage(null), undefined);
});
