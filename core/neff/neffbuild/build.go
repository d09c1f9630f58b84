// Package neffbuild writes NEFF containers the way modern neuronx-cc does (1024-byte header,
// one gzip member holding a ustar archive, zero padding to a multiple of 10240, MD5 of the
// payload stored as four little-endian u32 words). The project's tests, fuzz seeds, fixture
// and benchmark generators use it; it is never used to read.
package neffbuild

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"time"
)

// Member is one archive member: Data, or Size bytes from Reader (for large generated members).
type Member struct {
	Path   string
	Data   []byte
	Reader io.Reader
	Size   int64
}

// Options set header fields and the payload's shape. Zero values give a modern cayman-like NEFF.
type Options struct {
	PkgVersion       uint64 // default 2
	NeffVersionMajor uint64 // default 2
	Name             string // default "file.neff"
	UUID             [16]byte
	NumTPB           uint32 // default 1
	FeatureBits      uint64
	LNCSize          uint32 // default 1
	// Plain writes the tar without gzip (pkg 1 hashes with SHA-256).
	Plain bool
	// PadTo pads the payload with zeros to a multiple of this (default 10240; -1: none).
	PadTo int64
	// GzipLevel (default gzip.BestSpeed, as neuronx-cc writes level 1).
	GzipLevel int
	// GNU writes GNU-magic headers; Dirs adds directory entries for member prefixes.
	GNU  bool
	Dirs bool
}

func (o *Options) defaults() {
	if o.PkgVersion == 0 {
		o.PkgVersion = 2
	}
	if o.NeffVersionMajor == 0 {
		o.NeffVersionMajor = 2
	}
	if o.Name == "" {
		o.Name = "file.neff"
	}
	if o.NumTPB == 0 {
		o.NumTPB = 1
	}
	if o.LNCSize == 0 {
		o.LNCSize = 1
	}
	if o.PadTo == 0 {
		o.PadTo = 10240
	}
	if o.GzipLevel == 0 {
		o.GzipLevel = gzip.BestSpeed
	}
	if o.UUID == [16]byte{} {
		o.UUID = [16]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0x4d, 0xef, 0x81, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}
	}
}

// Bytes builds a NEFF in memory.
func Bytes(members []Member, opt Options) []byte {
	var buf seekBuffer
	if err := Write(&buf, members, opt); err != nil {
		panic(err) // only a Reader member can fail, and Bytes callers pass Data
	}
	return buf.b
}

// Write streams a NEFF to w: a placeholder header, the payload, then the real header once the
// payload's length and hash are known. Memory stays small whatever the member sizes.
func Write(w io.WriteSeeker, members []Member, opt Options) error {
	opt.defaults()
	if _, err := w.Write(make([]byte, 1024)); err != nil {
		return err
	}
	var hasher interface {
		io.Writer
		Sum([]byte) []byte
	} = md5.New()
	if opt.PkgVersion == 1 {
		hasher = sha256.New()
	}
	cw := &countWriter{w: io.MultiWriter(w, hasher)}
	var tw *tar.Writer
	var gz *gzip.Writer
	if opt.Plain {
		tw = tar.NewWriter(cw)
	} else {
		var err error
		gz, err = gzip.NewWriterLevel(cw, opt.GzipLevel)
		if err != nil {
			return err
		}
		gz.ModTime = time.Unix(1750000000, 0)
		gz.OS = 3
		tw = tar.NewWriter(gz)
	}
	format := tar.FormatUSTAR
	if opt.GNU {
		format = tar.FormatGNU
	}
	dirs := map[string]bool{}
	for _, m := range members {
		if opt.Dirs {
			for i := range len(m.Path) {
				if m.Path[i] == '/' && !dirs[m.Path[:i+1]] {
					dirs[m.Path[:i+1]] = true
					if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: m.Path[:i+1], Mode: 0755, Format: format}); err != nil {
						return err
					}
				}
			}
		}
		size := int64(len(m.Data))
		var r io.Reader = bytes.NewReader(m.Data)
		if m.Reader != nil {
			size, r = m.Size, io.LimitReader(m.Reader, m.Size)
		}
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: m.Path, Size: size, Mode: 0664, Uname: "nobody", Gname: "nobody", Format: format}
		if len(m.Path) > 100 && !opt.GNU {
			hdr.Format = tar.FormatPAX
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if n, err := io.Copy(tw, r); err != nil {
			return err
		} else if n != size {
			return errors.New("neffbuild: member reader ended early")
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if gz != nil {
		if err := gz.Close(); err != nil {
			return err
		}
	}
	if opt.PadTo > 0 {
		if r := cw.n % opt.PadTo; r != 0 {
			if _, err := cw.Write(make([]byte, opt.PadTo-r)); err != nil {
				return err
			}
		}
	}
	hdr := Header(cw.n, hasher.Sum(nil), opt)
	if _, err := w.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := w.Write(hdr)
	return err
}

// Header lays out the 1024-byte header for a payload of dataSize bytes with the given digest.
func Header(dataSize int64, digest []byte, opt Options) []byte {
	opt.defaults()
	h := make([]byte, 1024)
	le := binary.LittleEndian
	le.PutUint64(h[0x000:], opt.PkgVersion)
	le.PutUint64(h[0x008:], 1024)
	le.PutUint64(h[0x010:], uint64(dataSize))
	le.PutUint64(h[0x018:], opt.NeffVersionMajor)
	le.PutUint32(h[0x0A8:], opt.NumTPB)
	if len(digest) == 16 {
		// Modern neuronx-cc stores the MD5 as four little-endian u32 words.
		for i := 0; i < 16; i += 4 {
			h[0xAC+i], h[0xAC+i+1], h[0xAC+i+2], h[0xAC+i+3] = digest[i+3], digest[i+2], digest[i+1], digest[i]
		}
	} else {
		copy(h[0xAC:0xAC+32], digest)
	}
	copy(h[0xCC:0xCC+16], opt.UUID[:])
	copy(h[0xDC:0xDC+255], opt.Name)
	le.PutUint32(h[0x1DC:], opt.NumTPB)
	h[0x1E0] = byte(opt.NumTPB)
	le.PutUint64(h[0x220:], opt.FeatureBits)
	le.PutUint32(h[0x228:], opt.LNCSize)
	return h
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// seekBuffer is an in-memory io.WriteSeeker.
type seekBuffer struct {
	b   []byte
	pos int
}

func (s *seekBuffer) Write(p []byte) (int, error) {
	if need := s.pos + len(p); need > len(s.b) {
		s.b = append(s.b, make([]byte, need-len(s.b))...)
	}
	copy(s.b[s.pos:], p)
	s.pos += len(p)
	return len(p), nil
}

func (s *seekBuffer) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		s.pos = int(off)
	case io.SeekCurrent:
		s.pos += int(off)
	case io.SeekEnd:
		s.pos = len(s.b) + int(off)
	}
	return int64(s.pos), nil
}

// Sample is a small, consistent modern-style program (one core, five engines with their
// streams, a DMA block, a constant): manifests written the way neuronx-cc 2.23 writes them
// (spec neff.md §3) with made-up values, so a NEFF built from it decodes with no finding.
// Tests and fixtures that need "a NEFF" rather than particular bytes use it.
func Sample() []Member {
	json := func(path, text string) Member { return Member{Path: path, Data: []byte(text)} }
	// Streams of 64-byte words: opcode, word length 0x10 (16 dwords), the rest zero.
	stream := func(path string, ops ...byte) Member {
		b := make([]byte, 64*len(ops))
		for i, op := range ops {
			b[64*i], b[64*i+1] = op, 0x10
		}
		return Member{Path: path, Data: b}
	}
	return []Member{
		json("info.json", `{"tool_version": "0.0.0+neffscope", "kelp_version": "Dynamic", "name": "file.neff", "num_tpb": 1, "num_tpb_requested": 1, "num_tpb_per_node": [1, 0]}`),
		json("kelf-0.json", `{"graphs": [{"definition": "sg00/def.json", "name": "sg00"}], "version": "0.5", "target": "sunda"}`),
		json("sg00/def.json", `{
 "act": "Activation.json", "act_instr": "Activation.bin",
 "dve": "DVE.json", "dve_instr": "DVE.bin",
 "pe": "PE.json", "pe_instr": "PE.bin",
 "pool": "Pool.json", "pool_instr": "Pool.bin",
 "sp": "SP.json", "sp_instr": "SP.bin",
 "dma_queue": {"qSPIO0": {"fabric_path": "main", "num_queues": 16, "owner": "sp", "semaphore_set": [8, 9], "type": "in"}},
 "name": "definition",
 "neff_features": [],
 "var": {
  "SB": {"type": "state-buffer", "var_id": 0},
  "input0": {"ops": [], "size": 64, "type": "input", "var_id": 1},
  "output0": {"ops": [], "size": 64, "type": "output", "var_id": 2}
 },
 "version": "0.6"
}`),
		json("sg00/Activation.json", `{"act_info": "act_info.json", "act_semaphore": 12, "activation_function_sets": [], "dma": [], "instr": "Activation.bin", "name": "Activation.json"}`),
		json("sg00/DVE.json", `{"dma": [], "instr": "DVE.bin", "name": "DVE.json"}`),
		json("sg00/PE.json", `{"dma": [], "instr": "PE.bin", "name": "PE.json"}`),
		json("sg00/Pool.json", `{"dma": [], "instr": "Pool.bin", "name": "Pool.json"}`),
		json("sg00/SP.json", `{"dma": [
  {"#comment": "in", "desc": [{"from": "input0", "from_off": 0, "from_sizes": [64, 1], "from_steps": [1, 64], "op": "copy", "to": "SB", "to_off": 0, "to_sizes": [64, 1], "to_steps": [1, 64]}], "id": 0, "queue": "qSPIO0", "semaphore": 8},
  {"#comment": "out", "desc": [{"from": "SB", "from_off": 0, "from_sizes": [64, 1], "from_steps": [1, 64], "op": "copy", "to": "output0", "to_off": 0, "to_sizes": [64, 1], "to_steps": [1, 64]}], "id": 1, "queue": "qSPIO0", "semaphore": 9}
 ], "instr": "SP.bin", "name": "SP.json"}`),
		json("sg00/act_info.json", `{"pwp_file_keys": ["bkt_bin", "ctrl_bin", "profile_json"], "act_func_sets": []}`),
		json("sg00/tensor_map.json", `{"input0": {"dtype": "float32", "is_const": false, "kind": "input", "layer_name": "input0", "sim_format": "N", "sim_shape": [16], "tf_file": "", "tf_format": "N", "tf_shape": [16]}}`),
		stream("sg00/Activation.bin", 0xb1, 0xcc),
		stream("sg00/DVE.bin", 0xb1),
		stream("sg00/PE.bin", 0xb1, 0xcc, 0xcc),
		stream("sg00/Pool.bin", 0xb1),
		stream("sg00/SP.bin", 0xb1, 0xcc),
		json("neff.json", `{
 "nodes": [
  {"op": "null", "name": "input0", "inputs": [], "output_names": ["input0"], "is_param": "0"},
  {"op": "tvm_op", "name": "sg_coreV10", "attrs": {"func_name": "__kelf", "flatten_data": "0", "num_inputs": "1", "kelf": "kelf-0.json", "num_outputs": "1"}, "inputs": [[0, 0, 0]], "output_names": ["output0"]}
 ],
 "arg_nodes": [0],
 "heads": [[1, 0, 0]],
 "attrs": {"shape": ["list_shape", [[16], [16]]], "storage_id": ["list_int", [0, 1]], "dltype": ["list_str", ["float32", "float32"]]},
 "node_row_ptr": [0, 1, 2],
 "metadata": {"signatures": {"default": {"inputs": {"input0": {"id": 0, "dtype": "float32", "shape": [16]}}, "outputs": {}}}}
}`),
	}
}
