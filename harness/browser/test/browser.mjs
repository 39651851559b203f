// Starts Debian's Chromium (not a browser build of Playwright's own) headless through
// playwright-core, with a fresh profile directory and the flags that keep it off the network:
// without the background-networking ones Chromium keeps opening connections a closed network
// refuses. `CHROMIUM` overrides the executable.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const target = join(repo, "target");
export const conformance = join(repo, "target", "debug", "conformance");
export const driver = join(repo, "target", "debug", "reference-driver");

/// Runs `conformance ARGS...` from the repository to completion (five minutes at most).
export function run(args) {
  const result = spawnSync(conformance, args, { cwd: repo, encoding: "utf8", timeout: 300_000 });
  if (result.error) throw result.error;
  return result;
}

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/// A browser context in a fresh profile; closing it ends the browser and removes the profile.
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), "conformance-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
    timeout: 60_000,
  });
  context.setDefaultTimeout(15_000);
  const close = context.close.bind(context);
  context.close = async () => {
    await close();
    rmSync(profile, { recursive: true, force: true });
  };
  return context;
}
