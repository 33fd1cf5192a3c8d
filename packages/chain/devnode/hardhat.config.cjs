/* eslint-disable @typescript-eslint/no-require-imports -- Hardhat 2 loads its configuration as CommonJS. */
// Hardhat 2 configuration of the dev chain started by src/devnode.ts (`hardhat node`); not used to compile
// (scripts/compile.mjs does that with solc-js). Chain id DEVCHAIN_CHAIN_ID (default 31337: each network of the
// demo runs its own node with its own id) and Hardhat's public, well-known dev accounts
// (mnemonic "test test ... junk"): their keys are published, so this chain holds nothing of value.
// DEVCHAIN_BLOCK_INTERVAL_MS (set by startDevChain) is how often an empty block is mined; transactions are
// mined at once (automine), so a test never waits for the interval.
const os = require('node:os');
const path = require('node:path');

const intervalMs = Number.parseInt(process.env.DEVCHAIN_BLOCK_INTERVAL_MS ?? '1000', 10);
const chainId = Number.parseInt(process.env.DEVCHAIN_CHAIN_ID ?? '31337', 10);

/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  networks: {
    hardhat: {
      chainId,
      mining: { auto: true, interval: intervalMs > 0 ? intervalMs : 0 },
      accounts: { count: 10, accountsBalance: '10000000000000000000000000' },
    },
  },
  paths: {
    root: __dirname,
    sources: path.join(__dirname, 'no-sources'),
    cache: path.join(os.tmpdir(), 'exchange-devchain-cache'),
    artifacts: path.join(os.tmpdir(), 'exchange-devchain-artifacts'),
  },
};
