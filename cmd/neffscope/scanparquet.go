package main

import (
	"fmt"
	"os"

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
	f    *os.File
	w    *parquet.GenericWriter[flatRecord]
	path string
}

func newParquetSink(path string) (*parquetSink, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := parquet.NewGenericWriter[flatRecord](f, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(64<<10))
	return &parquetSink{f: f, w: w, path: path}, nil
}

func (s *parquetSink) Write(r *fleet.ScanRecord) error {
	if _, err := s.w.Write([]flatRecord{flatten(r)}); err != nil {
		return fmt.Errorf("writing %s: %w", s.path, err)
	}
	return nil
}

func (s *parquetSink) Close() error {
	err := s.w.Close()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", s.path, err)
	}
	return nil
}
