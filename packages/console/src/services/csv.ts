/**
 * RFC 4180 CSV: every field quoted when it holds a comma, a quote, a line break or leading or
 * trailing space, quotes doubled, CRLF line ends. A text field that a spreadsheet would run as a
 * formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe: the
 * reference is the customer's own text, and finance opens the file in a spreadsheet.
 */
export function toCsv(rows: readonly (readonly (string | number | null)[])[]): string {
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

function field(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
