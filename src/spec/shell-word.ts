/** A text as one POSIX shell word: as is when it is plainly safe, else single-quoted. */
export function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
