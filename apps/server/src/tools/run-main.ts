/** The command-line tools' entry: run `main` when the module is the process's script. */
import { pathToFileURL } from 'node:url';

/**
 * When `moduleUrl` (the caller's import.meta.url) is the script node was started with, runs `main` on the
 * arguments and sets the exit code to what it returns (1 when it throws, with the error on stderr).
 */
export function runAsMain(moduleUrl: string, main: (argv: string[]) => Promise<number>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
