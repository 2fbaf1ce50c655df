/** Longest text of the caller's input repeated in an error message. */
export const MAX_ECHO_LENGTH = 64;

/** A piece of the caller's input for an error message, cut to MAX_ECHO_LENGTH characters. */
export function clip(input: unknown): string {
  const text = typeof input === 'string' ? input : (JSON.stringify(input) ?? String(input));
  return text.length > MAX_ECHO_LENGTH ? `${text.slice(0, MAX_ECHO_LENGTH)}…` : text;
}

/** The same, quoted, where the input is a name or value set in a sentence. */
export function echo(input: unknown): string {
  return JSON.stringify(clip(input));
}
