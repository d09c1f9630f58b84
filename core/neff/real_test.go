package neff

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// realHeaders lists the real NEFFs with what spec neff.md §1.1 says their headers hold.
var realHeaders = []struct {
	path        string
	major       uint64
	featureBits uint64
	lnc         uint32
	cores       int // sgNN directories
}{
	{"nkipy/matmul_small.neff", 2, 0x209C00, 2, 2},
	{"cs149-trn1/stream_256k_fd1k.neff", 1, 0, 1, 1},
	{"cs149-trn1/file_pool_1_float16.neff", 1, 0, 1, 1},
	{"cs149-trn1/file_pool_2_float32.neff", 1, 0, 1, 1},
	{"cs149-trn2/stream_256k_fd1k.neff", 2, 0xC00, 2, 2},
	{"cs149-trn2/transpose_1024.neff", 2, 0xC00, 2, 2},
	{"nki-moe/attn_v6.neff", 2, 0xC00, 2, 2},
}

// independentMembers lists members with the standard library's tar and gzip readers.
func independentMembers(t *testing.T, b []byte) (paths []string, data map[string][]byte) {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b[HeaderSize:]))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	tr := tar.NewReader(zr)
	data = map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		d, _ := io.ReadAll(tr)
		paths = append(paths, h.Name)
		data[h.Name] = d
	}
	return paths, data
}

func TestRealNEFFs(t *testing.T) {
	for _, rn := range realHeaders {
		t.Run(rn.path, func(t *testing.T) {
			// matmul_small is in the repository; the others are checked where ../shared is.
			path, ok := realfiles.Optional(t, rn.path, "the header and members of "+rn.path)
			if !ok {
				return
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := Open(bytes.NewReader(b), int64(len(b)), Options{Keep: func(string, int64) bool { return true }})
			h := a.Header
			if len(a.Findings) != 0 {
				t.Errorf("findings on a real NEFF: %+v", a.Findings)
			}
			if !a.Complete || !a.Verdict.Accepts {
				t.Errorf("complete=%v verdict=%+v", a.Complete, a.Verdict)
			}
			// Header values observed on every real file (spec §1.1).
			if h.PkgVersion != 2 || h.HeaderSize != 1024 || h.DataSize != uint64(len(b)-1024) || h.DataSize%10240 != 0 {
				t.Errorf("pkg %d header_size %d data_size %d (file %d)", h.PkgVersion, h.HeaderSize, h.DataSize, len(b))
			}
			if h.NeffVersionMajor != rn.major || h.NeffVersionMinor != 0 || h.NeffBuildVersion != "" {
				t.Errorf("version %d.%d build %q", h.NeffVersionMajor, h.NeffVersionMinor, h.NeffBuildVersion)
			}
			if h.FeatureBits != rn.featureBits || h.LNCSize != rn.lnc || h.NumTPB != 1 || h.RequestedTPBCount != 1 {
				t.Errorf("features 0x%x lnc %d num_tpb %d requested %d", h.FeatureBits, h.LNCSize, h.NumTPB, h.RequestedTPBCount)
			}
			if v, rfc := h.UUIDVersion(); v != 4 || !rfc {
				t.Errorf("uuid %s is not RFC 4122 v4", h.UUIDString())
			}
			for i, c := range h.Raw[0x22C:] {
				if c != 0 {
					t.Fatalf("pad byte 0x%x is %d", 0x22C+i, c)
				}
			}
			// The hash: MD5 of bytes 1024..EOF, which the header stores word-swapped.
			sum := md5.Sum(b[1024:])
			if a.Payload.Integrity != "ok" || a.Payload.ComputedHash != hex.EncodeToString(sum[:]) || h.StoredDigest() != hex.EncodeToString(sum[:]) {
				t.Errorf("integrity %s computed %s stored %s md5 %x", a.Payload.Integrity, a.Payload.ComputedHash, h.StoredDigest(), sum)
			}
			if a.Payload.MatchedOrder != orderLEWords {
				t.Errorf("matched order %q", a.Payload.MatchedOrder)
			}
			if a.Payload.Encoding != "gzip" || a.Payload.PaddingNonZero != 0 || a.Payload.GzipLength+a.Payload.PaddingBytes != int64(h.DataSize) {
				t.Errorf("payload %+v", a.Payload)
			}
			// info.json (the member) mirrors the header (spec §3.6).
			dir := ""
			if sd := realfiles.SharedDir(); sd != "" {
				dir = strings.TrimSuffix(filepath.Join(sd, rn.path), ".neff")
			}
			var info struct {
				Name            string `json:"name"`
				NumTPB          uint32 `json:"num_tpb"`
				NumTPBRequested uint32 `json:"num_tpb_requested"`
				NumTPBPerNode   []int  `json:"num_tpb_per_node"`
			}
			if m := a.Member("info.json"); m == nil {
				t.Fatal("no info.json member")
			} else if err := json.Unmarshal(m.Data, &info); err != nil {
				t.Fatal(err)
			}
			if info.Name != h.Name || info.NumTPB != h.NumTPB || info.NumTPBRequested != h.RequestedTPBCount {
				t.Errorf("info.json %+v vs header name %q", info, h.Name)
			}
			for i, v := range info.NumTPBPerNode {
				if int(h.TPBPerNode[i]) != v {
					t.Errorf("tpb_per_node[%d] = %d, info.json says %d", i, h.TPBPerNode[i], v)
				}
			}
			// Members: same list and bytes as the standard library reads, and as the
			// extracted copies beside the NEFF.
			paths, data := independentMembers(t, b)
			if len(paths) != len(a.Members) {
				t.Fatalf("%d members, standard library lists %d", len(a.Members), len(paths))
			}
			cores := map[string]bool{}
			for i, m := range a.Members {
				if m.Path != paths[i] || !bytes.Equal(m.Data, data[m.Path]) || int64(len(data[m.Path])) != m.Size {
					t.Errorf("member %d: %q (%d B) vs %q", i, m.Path, m.Size, paths[i])
				}
				s := sha256.Sum256(data[m.Path])
				if m.SHA256 != hex.EncodeToString(s[:]) {
					t.Errorf("member %s sha256 %s", m.Path, m.SHA256)
				}
				if strings.HasPrefix(m.Path, "sg") {
					cores[strings.SplitN(m.Path, "/", 2)[0]] = true
				}
			}
			if len(cores) != rn.cores {
				t.Errorf("%d sgNN directories, want %d", len(cores), rn.cores)
			}
			// Not every NEFF has an extracted copy beside it; those that do must match.
			_, statErr := os.Stat(dir)
			checked := 0
			if dir == "" {
				statErr = os.ErrNotExist
			} else {
				filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
					if err != nil || fi.IsDir() {
						return err
					}
					rel, _ := filepath.Rel(dir, p)
					want, _ := os.ReadFile(p)
					m := a.Member(filepath.ToSlash(rel))
					if m == nil {
						t.Errorf("extracted %s is not a member", rel)
					} else if !bytes.Equal(m.Data, want) {
						t.Errorf("member %s differs from the extracted copy", rel)
					}
					checked++
					return nil
				})
			}
			if statErr == nil && checked == 0 {
				t.Errorf("no extracted copies found in %s", dir)
			}
			// ReadMember streams one member's bytes, also from the middle.
			var buf bytes.Buffer
			last := a.Members[len(a.Members)-1]
			if err := ReadMember(bytes.NewReader(b), int64(len(b)), last.Path, 3, 10, &buf); err != nil || !bytes.Equal(buf.Bytes(), data[last.Path][3:min(13, len(data[last.Path]))]) {
				t.Errorf("ReadMember(%s, 3, 10) = %q, %v", last.Path, buf.Bytes(), err)
			}
		})
	}
}

func TestSpecFixtureHeader(t *testing.T) {
	b, err := os.ReadFile(realfiles.Spec(t, "fixtures/libnrt-fixture-neff-header.bin"))
	if err != nil {
		t.Fatal(err)
	}
	h := ParseHeader(b)
	// Values printed in spec neff.md §1.1 (fixture column).
	if h.PkgVersion != 2 || h.HeaderSize != 0x400 || h.DataSize != 0x6AD || h.NeffVersionMajor != 2 ||
		h.NeffBuildVersion != "2.0.21884.0%kaena-tools/develop@6c66f4b" || h.NumTPB != 1 ||
		h.UUIDString() != "561826fb-125f-4bb8-991c-29e085c8949a" || h.Name != "x" || h.RequestedTPBCount != 1 || h.LNCSize != 1 {
		t.Errorf("fixture header %+v uuid %s", h, h.UUIDString())
	}
	// The fixture's digest is reported in plain order.
	if got := hex.EncodeToString(md5FromStored(h.Hash[:16], orderPlain)); got != "61b3cab24369b326a2b3ee40a744c746" {
		t.Errorf("fixture hash plain %s", got)
	}
}
