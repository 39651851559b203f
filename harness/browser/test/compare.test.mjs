// The implementation report of `conformance compare` in a real browser (issue 31): Debian's
// Chromium, headless, driven by playwright-core. Three runs of the same vector set (the bundled
// reference in process, its alternate readings over the driver protocol, and the reference
// driver with an injected fault) are compared with the first two marked as one code base; the
// test checks the page against the Markdown and the reports, opens a REQUIRED disagreement and
// a requirement row, and filters the requirements. Needs `cargo build -p harness --bins` first.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { conformance, driver, launch, repo, run, target } from "./browser.mjs";

const out = join(target, "browser", "compare");
const fault = "binding-recheck-skipped";
// A part of the suite that the fault fails and that runs in seconds.
const selection = ["--filter", "rcip.policy-race", "--filter", "rcip.binding", "--filter", "rcip.default-policy"];

let browser;
const reports = {};

before(async () => {
  for (const binary of [conformance, driver]) {
    assert.ok(existsSync(binary), `${binary} is missing: run \`cargo build -p harness --bins\` first`);
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const runs = {
    reference: [],
    alternate: ["--adapter", "--", driver, "--choices", "alternate"],
    fault: ["--adapter", "--", driver, "--fault", fault],
  };
  for (const [name, subject] of Object.entries(runs)) {
    const result = run(["run", "--quiet", ...selection, "--report", join(out, `${name}.json`), ...subject]);
    assert.equal(result.status, name === "fault" ? 1 : 0, `${name}: ${result.stderr}`);
    reports[name] = JSON.parse(readFileSync(join(out, `${name}.json`), "utf8"));
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

function compare(extra) {
  return run([
    "compare", join(out, "reference.json"), join(out, "alternate.json"), join(out, "fault.json"),
    "--same-codebase", `${reports.reference.implementation.name},${reports.alternate.implementation.name}`,
    ...extra,
  ]);
}

test("compare writes Markdown, HTML and badges, and refuses what it cannot compare", () => {
  const result = compare([
    "--markdown", join(out, "compare.md"), "--html", join(out, "compare.html"), "--badges", join(out, "badges"),
  ]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /3 implementations \(2 independent code bases\)/);
  const markdown = readFileSync(join(out, "compare.md"), "utf8");
  assert.match(markdown, /## Disagreements \(\d+, [1-9]\d* REQUIRED\)/);
  const badges = readdirSync(join(out, "badges")).sort();
  assert.equal(badges.length, 6, `one badge per implementation and protocol: ${badges}`);
  for (const name of badges) {
    const badge = JSON.parse(readFileSync(join(out, "badges", name), "utf8"));
    assert.equal(badge.schemaVersion, 1);
    assert.ok(badge.label && badge.message && badge.color, name);
  }
  // Partial runs certify nothing, so no badge claims more.
  assert.ok(badges.every((name) => /not certified|not implemented/.test(readFileSync(join(out, "badges", name), "utf8"))));

  const twice = run(["compare", join(out, "fault.json"), join(out, "fault.json")]);
  assert.equal(twice.status, 2);
  assert.match(twice.stderr, /two reports of implementation/);
  const typo = compare(["--same-codebase", "no-such-implementation,reference"]);
  assert.equal(typo.status, 2);
  assert.match(typo.stderr, /no-such-implementation/);
  const other = run(["--vectors", join(repo, "harness", "examples", "third-party-vectors"), "compare", join(out, "reference.json"), join(out, "fault.json")]);
  assert.equal(other.status, 2);
  assert.match(other.stderr, /other vectors/);
});

test("the page opens a REQUIRED disagreement and a requirement row, and filters", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => { if (!r.url().startsWith("file:")) errors.push(`network request ${r.url()}`); });
  await page.goto(pathToFileURL(join(out, "compare.html")).href, { waitUntil: "load" });

  const heads = await page.$$eval("#implementation-table tbody tr td:first-child", (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(heads, ["reference", "alternate", "fault"].map((n) => `${reports[n].implementation.name} ${reports[n].implementation.version}`));

  // A REQUIRED disagreement: the reference passes a case the faulty driver fails.
  const failed = reports.fault.cases.filter((c) => c.verdict === "fail" && c.strictness === "REQUIRED").map((c) => c.id);
  assert.ok(failed.length > 0, "the fault fails a REQUIRED case");
  const disagreement = page.locator(`details.disagreement.required[data-case="${failed[0]}"]`);
  assert.equal(await disagreement.count(), 1, `${failed[0]} is a REQUIRED disagreement`);
  assert.equal(await disagreement.locator("table.verdicts").isVisible(), false, "closed at first");
  await disagreement.locator("summary").click();
  const rows = disagreement.locator("table.verdicts tbody tr");
  assert.equal(await rows.count(), 3);
  assert.match(await rows.nth(2).textContent(), /fail/);
  assert.match(await rows.nth(2).locator("td.mono").textContent(), /^(step \d+|setup) \[REQUIRED\]/, "the first difference shows");
  assert.match(await rows.nth(0).textContent(), /pass/);
  await page.screenshot({ path: join(out, "compare-disagreement.png") });

  // A requirement row the fault fails: opening it shows its sentence; it is flagged, since the
  // reference and its alternate are one code base.
  const failing = page.locator("#requirement-table tr.requirement.flagged", { has: page.locator("span.s-fail") }).first();
  assert.equal(await failing.count(), 1, "some flagged requirement fails under the fault");
  const id = await failing.getAttribute("data-requirement");
  const register = JSON.parse(readFileSync(join(repo, "vectors", "requirements.json"), "utf8")).requirements;
  const quote = register.find((r) => r.id === id).quote;
  await failing.locator("summary").click();
  assert.equal((await failing.locator("blockquote").textContent()).trim(), quote.trim());
  assert.equal(await failing.locator("td").last().textContent(), "1", "one independent code base passes it");

  // Filters: only the flagged rows, then one id.
  const all = await page.$$eval("#requirement-table tr.requirement", (trs) => trs.length);
  await page.check("#flagged");
  const flagged = await page.$$eval("#requirement-table tr.requirement", (trs) => trs.filter((t) => !t.hidden).length);
  assert.ok(flagged > 0 && flagged <= all);
  assert.equal(await page.textContent("#shown"), `${flagged} of ${all} shown`);
  await page.fill("#filter", id);
  const shown = await page.$$eval("#requirement-table tr.requirement", (trs) => trs.filter((t) => !t.hidden).map((t) => t.dataset.requirement));
  assert.ok(shown.includes(id));
  assert.deepEqual(errors, []);
  await page.close();
});
