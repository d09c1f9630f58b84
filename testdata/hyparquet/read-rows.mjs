// Reads a Parquet file with hyparquet and prints its rows as one JSON array of objects
// (int64 values as decimal strings, so no precision is lost). Usage: node read-rows.mjs FILE
import { readFileSync } from 'node:fs'
import { parquetReadObjects } from './index.js'

const b = readFileSync(process.argv[2])
const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)
const rows = await parquetReadObjects({ file })
process.stdout.write(JSON.stringify(rows, (k, v) => typeof v === 'bigint' ? v.toString() : v))
