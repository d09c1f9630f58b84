import test from 'node:test';
import assert from 'node:assert/strict';
import { csvCell, tableCSV } from './csv.js';

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
  assert.equal(csvCell('+1'), "'+1");
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvCell('-cmd'), "'-cmd");
  assert.equal(csvCell('-12.5'), '-12.5');
  assert.equal(csvCell('-.5'), '-.5');
});

test('tableCSV writes the header and every row with CRLF', () => {
  const t = { cols: ['name', 'size'], rows: [['a.json', '12'], ['b,c', '3']] };
  assert.equal(tableCSV(t), 'name,size\r\na.json,12\r\n"b,c",3\r\n');
  assert.equal(tableCSV({}), '\r\n');
});
