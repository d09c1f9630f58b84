package main

import (
	"fmt"

	"github.com/parquet-go/parquet-go"

	"github.com/neffscope/neffscope/core/fleet"
)

// The Parquet file is flat, one row per record, so DuckDB, Athena or Spark read it without
// unnesting. Columns (flatRecord, in this order): path, size (int64), sha256, uuid,
// neff_version, compiler, target, subgraphs (int64), instructions (JSON text {"PE": words,…}),
// instructions_total (int64), inputs and outputs (JSON text [{"name","dtype","shape"}]),
// findings_error/_warning/_info (int64), problems (JSON text [{"code","severity","message"}]), and the
// optional (null outside a cache) cache_module, cache_flags_hash, cache_state, duplicate_of,
// and graph (null without an HLO module beside the NEFF: its graph digest, docs/hlo.md).
// Nested values are JSON strings rather than repeated groups: every engine would otherwise be
// a column, and JSON functions exist in all three engines. Pages are Snappy-compressed.

type parquetSink struct {
	out  *outputFile
	w    *parquet.GenericWriter[flatRecord]
	path string
}

// newParquetSink starts writing path beside its name (createOutput): it is moved into place
// when the scan ends, and never replaces a symlink, a NEFF or one of the scanned paths.
func newParquetSink(path string, rules outputRules) (*parquetSink, error) {
	out, err := createOutput(path, rules)
	if err != nil {
		return nil, err
	}
	w := parquet.NewGenericWriter[flatRecord](out, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(64<<10))
	return &parquetSink{out: out, w: w, path: path}, nil
}

func (s *parquetSink) Write(r *fleet.ScanRecord) error {
	if _, err := s.w.Write([]flatRecord{flatten(r)}); err != nil {
		return fmt.Errorf("writing %s: %w", s.path, err)
	}
	return nil
}

// Close writes the footer and moves the file into place.
func (s *parquetSink) Close() error {
	if err := s.w.Close(); err != nil {
		s.out.abort()
		return fmt.Errorf("writing %s: %w", s.path, err)
	}
	return s.out.commit()
}

// abort leaves the target as it was: the scan did not end.
func (s *parquetSink) abort() { s.out.abort() }
