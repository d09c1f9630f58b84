// @ts-check
// CSV (RFC 4180) of a document table, for the tables' CSV buttons.

/**
 * csvCell quotes per RFC 4180. A cell a spreadsheet would run as a formula (=, +, `@`, or - not
 * starting a number; the text may come from a hostile file) gets a leading apostrophe.
 * @param {unknown} v
 */
export function csvCell(v) {
  let s = v === undefined || v === null ? '' : String(v);
  if (/^[=+@\t\r]/.test(s) || /^-(?![0-9.])/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/**
 * tableCSV is a table as CSV: the header row, then every row, CRLF line ends.
 * @param {{cols?: string[], rows?: string[][]}} t
 */
export function tableCSV(t) {
  const lines = [(t.cols || []).map(csvCell).join(',')];
  for (const r of t.rows || []) lines.push(r.map(csvCell).join(','));
  return lines.join('\r\n') + '\r\n';
}
