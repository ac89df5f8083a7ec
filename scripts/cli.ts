import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true }>>['values'];

/**
 * Every script's command line: node's strict `parseArgs` plus `--help`/`-h`, which prints the usage and exits 0.
 * A wrong option or value prints what is wrong and the usage, and exits 2, instead of a stack trace.
 */
export function parseCli<O extends Options>(
  usage: string,
  options: O,
  { positionals = false } = {},
): { values: Values<O>; positionals: string[] } {
  const text = usage.trim() + '\n';
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: positionals, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${text}`);
    process.exit(2);
  }
  if (parsed.values.help) {
    process.stdout.write(text);
    process.exit(0);
  }
  return parsed as { values: Values<O>; positionals: string[] };
}
