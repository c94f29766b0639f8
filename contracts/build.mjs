#!/usr/bin/env node
// Compiles contracts/src/*.sol with the pinned solc-js and writes one artifact per deployable
// contract to contracts/artifacts/<Name>.json: { contractName, abi, bytecode, deployedBytecode,
// sourceHash }. Interfaces, libraries and abstract contracts get no artifact.
//
//   node contracts/build.mjs           write the artifacts
//   node contracts/build.mjs --check   compile in memory; exit 1 naming every artifact that is
//                                       missing or differs from the committed file (or is stale)
//
// Warnings are printed; any compiler error fails the build.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const solc = require("solc");

const here = dirname(fileURLToPath(import.meta.url));
const srcDir = join(here, "src");
const outDir = join(here, "artifacts");
const check = process.argv.includes("--check");

const files = readdirSync(srcDir)
  .filter((f) => f.endsWith(".sol"))
  .sort();
if (files.length === 0) {
  console.error(`no .sol files in ${srcDir}`);
  process.exit(1);
}

const sources = {};
const sourceHash = {};
for (const f of files) {
  const content = readFileSync(join(srcDir, f), "utf8");
  sources[f] = { content };
  sourceHash[f] = "0x" + createHash("sha256").update(content).digest("hex");
}

const input = {
  language: "Solidity",
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    viaIR: false,
    // No metadata hash: the bytecode then depends only on the source and the settings, so
    // rebuilding from identical sources gives identical artifacts.
    metadata: { bytecodeHash: "none", appendCBOR: false },
    outputSelection: {
      "*": {
        "": ["ast"],
        "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"],
      },
    },
  },
};

// Imports are all relative to contracts/src; anything else is an error.
function findImports(path) {
  const p = join(srcDir, path);
  if (existsSync(p)) return { contents: readFileSync(p, "utf8") };
  return { error: `import not found: ${path}` };
}

const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));

let failed = false;
for (const d of output.errors ?? []) {
  if (d.severity === "error") failed = true;
  console.error((d.formattedMessage ?? d.message).trimEnd());
}
if (failed) {
  console.error(`solc ${solc.version()}: compilation failed`);
  process.exit(1);
}

// Deployable = a non-abstract `contract` (not an interface or library), read from the AST.
function deployableNames(ast) {
  return (ast?.nodes ?? [])
    .filter((n) => n.nodeType === "ContractDefinition" && n.contractKind === "contract" && !n.abstract)
    .map((n) => n.name);
}

// Recursively sort object keys so the JSON text is stable.
function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  }
  return v;
}

const artifacts = new Map(); // name -> JSON text
for (const f of files) {
  for (const name of deployableNames(output.sources?.[f]?.ast)) {
    if (artifacts.has(name)) {
      console.error(`two contracts named ${name}: artifact names must be unique`);
      process.exit(1);
    }
    const c = output.contracts[f][name];
    const artifact = {
      contractName: name,
      abi: sortKeys(c.abi),
      bytecode: "0x" + c.evm.bytecode.object,
      deployedBytecode: "0x" + c.evm.deployedBytecode.object,
      sourceHash: sourceHash[f],
    };
    artifacts.set(name, JSON.stringify(artifact, null, 2) + "\n");
  }
}

const names = [...artifacts.keys()].sort();

if (check) {
  const bad = [];
  for (const name of names) {
    const path = join(outDir, `${name}.json`);
    if (!existsSync(path)) bad.push(`${name}.json (missing)`);
    else if (readFileSync(path, "utf8") !== artifacts.get(name)) bad.push(`${name}.json (differs)`);
  }
  const extra = existsSync(outDir)
    ? readdirSync(outDir).filter((f) => f.endsWith(".json") && !artifacts.has(f.slice(0, -5)))
    : [];
  for (const f of extra.sort()) bad.push(`${f} (no such contract in contracts/src)`);
  if (bad.length > 0) {
    console.error("contract artifacts out of date; run `npm run build:contracts`:");
    for (const b of bad) console.error(`  contracts/artifacts/${b}`);
    process.exit(1);
  }
  console.log(`contract artifacts up to date (${names.length}, solc ${solc.version()})`);
} else {
  mkdirSync(outDir, { recursive: true });
  for (const name of names) writeFileSync(join(outDir, `${name}.json`), artifacts.get(name));
  console.log(`wrote ${names.length} artifacts to contracts/artifacts (solc ${solc.version()}): ${names.join(", ")}`);
}
