package e2e

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// NEFFs for the lanes' tests and benchmarks, written from the sample NEFF (neffbuild.Sample):
// words carry only their sync band (spec neff.md §4.2), so the sync model and the cost model
// read them as waits and updates.

// syncWord is an EventSemaphore (0xA0) that waits until S[waitSem] ≥ value (wait mode 0x05)
// and then increments S[updSem] (update mode 0x13), as neffbuild's hostile classes write them.
func syncWord(waitSem byte, value uint32, updSem byte) []byte {
	w := make([]byte, 64)
	w[0], w[1] = 0xA0, 0x10
	w[4], w[5], w[6], w[7] = 0x05, waitSem, 0x13, updSem
	binary.LittleEndian.PutUint32(w[8:], value)
	return w
}

// pingPongNEFF is the sample NEFF whose DVE and Activation hand one semaphore each back and
// forth n times: DVE #i waits for Activation #i-1 and Activation #i for DVE #i, so 2n
// instructions take 2n steps and 2n-1 waits resolve (n = 500,000: a million waits, a
// million slices in the lanes).
func pingPongNEFF(tb testing.TB, n int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "pingpong-"+strconv.Itoa(n)+".neff")
	dve := make([]byte, 0, 64*n)
	act := make([]byte, 0, 64*n)
	for i := range n {
		dve = append(dve, syncWord(4, uint32(i), 3)...)
		act = append(act, syncWord(3, uint32(i+1), 4)...)
	}
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		switch m.Path {
		case "sg00/DVE.bin":
			m.Data = dve
		case "sg00/Activation.bin":
			m.Data = act
		}
		ms = append(ms, m)
	}
	if err := os.WriteFile(path, neffbuild.Bytes(ms, neffbuild.Options{}), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// manyCoresNEFF is the sample NEFF's core repeated as cores sg0 … sg<n-1>, each a ping-pong
// of 8 rounds (the schedule of 1,000 cores is 6,000 rows of lanes).
func manyCoresNEFF(tb testing.TB, n int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "cores-"+strconv.Itoa(n)+".neff")
	var dve, act []byte
	for i := range 8 {
		dve = append(dve, syncWord(4, uint32(i), 3)...)
		act = append(act, syncWord(3, uint32(i+1), 4)...)
	}
	var kelf strings.Builder
	kelf.WriteString(`{"graphs": [`)
	for i := range n {
		if i > 0 {
			kelf.WriteByte(',')
		}
		kelf.WriteString(`{"definition": "sg` + strconv.Itoa(i) + `/def.json", "name": "sg` + strconv.Itoa(i) + `"}`)
	}
	kelf.WriteString(`], "version": "0.5", "target": "sunda"}`)
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		switch {
		case m.Path == "kelf-0.json":
			ms = append(ms, neffbuild.Member{Path: m.Path, Data: []byte(kelf.String())})
		case strings.HasPrefix(m.Path, "sg00/"):
			name := strings.TrimPrefix(m.Path, "sg00/")
			data := m.Data
			switch name {
			case "DVE.bin":
				data = dve
			case "Activation.bin":
				data = act
			}
			for i := range n {
				ms = append(ms, neffbuild.Member{Path: "sg" + strconv.Itoa(i) + "/" + name, Data: data})
			}
		default:
			ms = append(ms, m)
		}
	}
	if err := os.WriteFile(path, neffbuild.Bytes(ms, neffbuild.Options{}), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}
