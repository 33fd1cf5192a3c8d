// Preloaded into the Hardhat node child (`node -r parent-watch.cjs`): the parent holds the write end of the
// child's stdin, so when the parent dies for any reason (even SIGKILL) the pipe closes and the dev chain exits
// instead of lingering on its port.
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
