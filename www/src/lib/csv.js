// @ts-check
// CSV (RFC 4180) of a document table, for the tables' CSV buttons.
//
// The formula rule is the CLI's (cmd/neffscope/csv.go), tested by both against the one list
// of cases in testdata/csv-vectors.json: a cell that starts with a tab or CR, or whose first
// character past leading spaces, controls and format characters (SKIPPED) is =, +, - or @ or
// their fullwidth forms, gets a leading apostrophe, unless the whole cell is a plain decimal
// number. The text may come from a hostile file.

const SKIPPED = /^[\s\p{Cc}\p{Cf}]*/u;
const FORMULA_START = /^[=+\-@\uff1d\uff0b\uff0d\uff20]/;
const NUMBER = /^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$/;

/**
 * csvNeutral is the cell as written before quoting: with a leading apostrophe when a
 * spreadsheet could run it as a formula.
 * @param {string} s
 */
export function csvNeutral(s) {
  if (s === '' || NUMBER.test(s)) return s;
  if (s[0] === '\t' || s[0] === '\r') return "'" + s;
  return FORMULA_START.test(s.replace(SKIPPED, '')) ? "'" + s : s;
}

/**
 * csvCell is a cell neutralised (csvNeutral) and quoted per RFC 4180.
 * @param {unknown} v
 */
export function csvCell(v) {
  const s = csvNeutral(v === undefined || v === null ? '' : String(v));
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
