// Compiles contracts/TetherToken.sol with solc-js (the `solc` npm package, pinned 0.8.26: no compiler download)
// and writes artifacts/TetherToken.json { contractName, compiler, abi, bytecode }. The artifact is committed, so
// nothing compiles at run time; run `npm run compile -w packages/chain` after editing the contract.
// `--check` writes nothing and exits 1 when the committed artifact differs from a fresh compile (a test runs it).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const solc = require('solc');
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const name = 'TetherToken';
const source = fs.readFileSync(path.join(root, 'contracts', `${name}.sol`), 'utf8');

/** Resolves `@openzeppelin/...` imports from node_modules (the package's own or the workspace root's). */
function findImports(importPath) {
  try {
    return { contents: fs.readFileSync(require.resolve(importPath), 'utf8') };
  } catch {
    return { error: `not found: ${importPath}` };
  }
}

const input = {
  language: 'Solidity',
  sources: { [`${name}.sol`]: { content: source } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
for (const e of output.errors ?? []) console.error(e.formattedMessage);
if (errors.length > 0) process.exit(1);
const contract = output.contracts[`${name}.sol`][name];
const artifact = { contractName: name, compiler: `solc ${solc.version()}`, abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
const text = `${JSON.stringify(artifact, null, 2)}\n`;
const file = path.join(root, 'artifacts', `${name}.json`);
if (process.argv.includes('--check')) {
  const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (committed !== text) {
    console.error(`artifacts/${name}.json is stale: run npm run compile -w packages/chain`);
    process.exit(1);
  }
  console.log(`artifacts/${name}.json matches contracts/${name}.sol`);
  process.exit(0);
}
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, text);
console.log(`wrote artifacts/${name}.json (${contract.evm.bytecode.object.length / 2} bytes of bytecode, ${solc.version()})`);
