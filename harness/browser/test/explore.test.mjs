// `model-check explore` in a real browser (issue 19): starts stateright's Explorer for the
// transaction model on a free local port, reads its status over HTTP, opens the Explorer at the
// path `conformance explain CASE --model` prints for a generated vector, checks the page shows that
// path's actions, saves a screenshot under target/browser/, and stops the Explorer whatever
// happens (deadline on the URL, timeouts on every request, the child killed in `after`).
// Needs `cargo build -p harness -p model --bins` first (.ci/run does it).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

import { launch, repo, target } from "./browser.mjs";

const out = join(target, "browser");
const modelCheck = join(repo, "target", "debug", "model-check");
const conformance = join(repo, "target", "debug", "conformance");
const CASE = "rui.model-transaction.regression-7118e302.001";

let explorer;
let url;
let browser;

function waitForUrl(child, ms) {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`no URL within ${ms} ms: ${seen}`)), ms);
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`model-check explore ended (${code}): ${seen}`));
    });
  });
}

before(async () => {
  for (const binary of [modelCheck, conformance]) {
    assert.ok(existsSync(binary), `${binary} is missing: run \`cargo build -p harness -p model --bins\` first`);
  }
  mkdirSync(out, { recursive: true });
  explorer = spawn(modelCheck, ["explore", "transaction", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  url = await waitForUrl(explorer, 60_000);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  if (explorer && explorer.exitCode === null) {
    explorer.kill("SIGKILL");
  }
});

test("the Explorer answers its status over HTTP", async () => {
  const response = await fetch(new URL(".status", url), { signal: AbortSignal.timeout(20_000) });
  assert.equal(response.status, 200);
  const status = await response.json();
  assert.equal(status.model, "model::transaction::TransactionModel");
  assert.ok(status.properties.length > 0 && status.properties.every(([expectation]) => ["Always", "Sometimes", "Eventually"].includes(expectation)));
  // Checked to completion, every property comes out as the model states it: no counterexample
  // to an `always`, an example of every `sometimes`.
  const run = await fetch(new URL(".runtocompletion", url), { method: "POST", signal: AbortSignal.timeout(300_000) });
  assert.equal(run.status, 200);
  let done = status;
  for (const deadline = Date.now() + 240_000; !done.done && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    done = await (await fetch(new URL(".status", url), { signal: AbortSignal.timeout(20_000) })).json();
  }
  assert.equal(done.done, true, "checked to completion within 4 minutes");
  assert.equal(done.unique_state_count, 5272, "the default transaction model (model/README.md)");
  for (const [expectation, name, discovery] of done.properties) {
    assert.equal(discovery === null, expectation === "Always", `${expectation} ${name}: ${discovery}`);
  }
});

test("the Explorer opens at the path explain --model gives for a generated vector", async () => {
  const explained = spawnSync(conformance, ["explain", CASE, "--model"], { cwd: repo, encoding: "utf8", timeout: 60_000 });
  assert.equal(explained.status, 0, explained.stderr);
  const fragment = /http:\/\/127\.0\.0\.1:3000\/(#\/steps\/[0-9/]+)/.exec(explained.stdout)?.[1];
  assert.ok(fragment, explained.stdout);
  const actions = [...explained.stdout.matchAll(/^\s+\d+ (\S.*?)  \(action \d+/gm)].map((m) => m[1]);
  assert.ok(actions.length >= 3, explained.stdout);

  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url + fragment, { waitUntil: "load" });
  const path = page.locator("ol.path-list li");
  await path.nth(actions.length).waitFor();
  const shown = (await path.allTextContents()).map((t) => t.trim());
  // The initial state ("Init 0"), then one entry per action of the vector's path.
  const init = shown.indexOf("Init 0");
  assert.ok(init >= 0, JSON.stringify(shown));
  assert.deepEqual(shown.slice(init + 1), actions);
  assert.ok((await page.locator("h2", { hasText: "Current State" }).count()) === 1);
  const state = await page.locator(".main-flex-right .font-code").last().textContent();
  assert.match(state, /StreamState|committed|revision/);
  await page.screenshot({ path: join(out, "explorer-state.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
