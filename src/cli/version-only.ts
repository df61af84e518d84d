/** Whether a command line (`process.argv`) is `--version` (or `-V`) alone, answered without the commands. */
export function versionOnly(argv: readonly string[]): boolean {
  const [, , first, ...rest] = argv;
  return (first === '--version' || first === '-V') && rest.length === 0;
}
