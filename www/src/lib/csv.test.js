import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { csvCell, csvNeutral, tableCSV } from './csv.js';

// The cases the CLI's CSV test reads too (cmd/neffscope/csv_test.go).
const vectors = JSON.parse(readFileSync(new URL('../../../testdata/csv-vectors.json', import.meta.url), 'utf8')).cells;

/** parseCell undoes csvCell's RFC 4180 quoting. @param {string} q */
function parseCell(q) {
  if (!q.startsWith('"')) {
    assert.doesNotMatch(q, /[",\r\n]/);
    return q;
  }
  assert.ok(q.endsWith('"') && q.length >= 2);
  const body = q.slice(1, -1);
  assert.doesNotMatch(body.replace(/""/g, ''), /"/);
  return body.replace(/""/g, '"');
}

test('csvNeutral follows the shared vectors, and csvCell quotes them reversibly', () => {
  assert.ok(vectors.length > 20);
  for (const { in: s, out } of vectors) {
    assert.equal(csvNeutral(s), out, JSON.stringify(s));
    assert.equal(parseCell(csvCell(s)), out, JSON.stringify(s));
  }
});

test('csvCell quotes what RFC 4180 requires', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(undefined), '');
  assert.equal(csvCell(42), '42');
});

test('csvCell defuses spreadsheet formulas but keeps negative numbers', () => {
  assert.equal(csvCell('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.equal(csvCell("-2+3+cmd|' /C calc'!A0"), "'-2+3+cmd|' /C calc'!A0");
  assert.equal(csvCell(-12.5), '-12.5');
});

test('tableCSV writes the header and every row with CRLF', () => {
  const t = { cols: ['name', 'size'], rows: [['a.json', '12'], ['b,c', '3']] };
  assert.equal(tableCSV(t), 'name,size\r\na.json,12\r\n"b,c",3\r\n');
  assert.equal(tableCSV({}), '\r\n');
});
