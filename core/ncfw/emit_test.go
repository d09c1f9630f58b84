package ncfw

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the emulator")

const goldenModel = "golden_model"

func goldenPath(kind string, arch uint32, ext string) string {
	return filepath.Join("testdata", fmt.Sprintf("%s-arch%d.%s", kind, arch, ext))
}

// TestGolden compares the text for the all-zero and the patterned context of every arch with
// the reviewed goldens, and holds every golden to the independent text rules.
func TestGolden(t *testing.T) {
	for _, a := range Arches() {
		for _, kind := range []string{SampleZero, SamplePatterned} {
			t.Run(fmt.Sprintf("%s/%d", kind, a.ID), func(t *testing.T) {
				res := EmitMapped(SampleContext(a.ID, kind), goldenModel, a.ID)
				if res.RC != RCOK {
					t.Fatalf("rc %d", res.RC)
				}
				checkGolden(t, goldenPath(kind, a.ID, "txt"), res.Text)
				if bad := checkTextRules(res.Text, false); len(bad) > 0 {
					t.Errorf("text rules:\n%s", strings.Join(bad, "\n"))
				}
				if err := validJSON(res.Text); err != nil {
					t.Errorf("not JSON once %%p is quoted and the U-9 comma dropped: %v", err)
				}
				if a.ID == 5 && kind == SamplePatterned {
					checkGolden(t, goldenPath(kind, a.ID, "fields.txt"), FormatFields(res.Text, res.Fields))
				}
			})
		}
	}
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s line %d:\n got %q\nwant %q", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, golden has %d", path, len(gl), len(wl))
	}
}

// TestSizesAndArchIdentity: spec §1/§9 sizes (~157 KB sunda, ~238 KB others) and U-17 (arches
// 12, 20 and 28 print identical text, differing from 5).
func TestSizesAndArchIdentity(t *testing.T) {
	z5, _ := Emit(SampleContext(5, SampleZero), "m", 5)
	z12, _ := Emit(SampleContext(12, SampleZero), "m", 12)
	if len(z5) < 150_000 || len(z5) > 165_000 || len(z12) < 230_000 || len(z12) > 245_000 {
		t.Fatalf("all-zero text sizes %d / %d, spec says about 157 KB / 238 KB", len(z5), len(z12))
	}
	for _, id := range []uint32{20, 28} {
		for _, kind := range []string{SampleZero, SamplePatterned} {
			a, _ := Emit(SampleContext(12, kind), "m", 12)
			b, _ := Emit(SampleContext(id, kind), "m", id)
			if !bytes.Equal(a, b) {
				t.Errorf("arch %d %s differs from arch 12", id, kind)
			}
		}
	}
	if bytes.Equal(z5, z12) {
		t.Fatal("sunda and cayman print the same")
	}
}

// TestSpecFragments compares pieces of the text with blocks written out by hand from spec §5.
func TestSpecFragments(t *testing.T) {
	z5, _ := Emit(SampleContext(5, SampleZero), "m", 5)
	p12, _ := Emit(SampleContext(12, SamplePatterned), "m", 12)
	s := string(z5)
	head := `{
  "model_name": "m",
  "ncfw_ctx_top_sp": {
    "configs": {
      "algo": {
        "ring": {
          "channels": [
            {
              "next_neigh": {
                "fold_n": 0,
                "type": 0,
                "net_idx_addrs": [
                ]
              },
`
	if !strings.HasPrefix(s, head) {
		t.Errorf("head:\n%s", s[:len(head)])
	}
	tail := `          {
            "channel_id": 31,
            "recv_cnt": 0,
            "send_credit": 0,
            "repeat_cnt": 0,
            "m2s_val": 0,
            "s2m_val": 0,
            "slot_idx": 0,
            "run_state": 0
          }
        ]
      },
      "hierarchical": {
        "run_state": 0
      },
      "mesh": {
        "event_index": 0
      }
    }
  }
}
`
	if !strings.HasSuffix(s, tail) {
		t.Errorf("tail:\n%s", s[len(s)-len(tail):])
	}
	for _, block := range []string{
		// F25/F26: %p gate first; barrier_start is ADDR1, barrier_done SEMA2 (C2–C5).
		`        "barrier_configs": {
          "execute_device_barrier": (nil),
          "host_barrier": {
            "barrier_start": {
              "soc_addr": "0x0000000000000000"
            },
            "barrier_done": {
              "addr": {
                "soc_addr": "0x0000000000000000"
              }
            }
          },
          "device_barrier": {
            "dma_apb_bcast": {
              "m2s_tail_ptr": {
                "soc_addr": "0x0000000000000000"
              },
              "s2m_tail_ptr": {
                "soc_addr": "0x0000000000000000"
              },
              "mask": 0
            },
            "dma_sync_sema": {
              "dma_sync_sema": {
                "addr": {
`,
		// F27 scalars, then barrier_step_config last (C6).
		`            "dma_sync_sema_value": 0,
            "start_network_proxy": {
              "soc_addr": "0x0000000000000000"
            },
            "tdrbp_low": 0,
            "tdrbp_high": 0,
            "desc_count": 0,
            "dma_engines_bitmap": 0,
            "queue_id": 0,
            "barrier_step_config": [
              {
                "m2s_val": 0,
                "s2m_val": 0,
                "barrier_sema": {
                  "barrier_sema": {
`,
		// F30 closes "}\n" as the last member of a step.
		`                "target_sema_val": {
                  "target_sema_val": 0,
                  "target_sema_val": 0,
                  "target_sema_val": 0,
                  "target_sema_val": 0
                }
              },
`,
		// F37 with HostBase 0: sunda prints 0x2ff0 / 0x2ff8 (spec §9 test 1).
		`        "basic_block_configs": {
          "table": [
          ],
          "switch_completed": {
            "addr": {
              "soc_addr": "0x0000000000000000"
            }
          },
          "pring_base_addr": 0x2ff0,
          "pring_total_desc_num": 0x2ff8
        },
        "slot_spad_base_0": {
          "soc_addr": "0x0000000000000000"
        },
`,
		// F24 tail, F32 with %p ids and %lu last.
		`        "op_num": 0,
        "leader": (nil),
        "tpb_compl_addr_num": 0
      },
      "dev": {
        "tsync": {
          "dma_apb_rsvd_addr": {
            "soc_addr": "0x0000000000000000"
          },
          "eng_tpb": {
`,
		`          "timestamp_tpb_val": 0
        },
        "tpb_id": (nil),
        "seng_id": (nil),
        "dev_id": (nil),
        "tpb_ctrl_ack": 0
      }
    },
    "neff": {
      "barrier_completed": 0,
      "op": {
        "ctrl_entry": {
          "header": {
            "cc_op": 0
          },
          "cc_op": {
            "algo_type": 0,
            "algo_sub_type": 0,
            "trigger_next": 0,
            "reporter": 0,
            "ring_wait_complete": 0,
            "ring_send_complete": 0,
            "ring": {
              "channel_list": 0
            },
            "mesh": {
              "sema_shift_offset": 0,
              "sema_mask": 0
            }
          }
        },
        "tpb_compl": {
          "tpb_compl": {
            "addr": {
`,
		// F36 with the U-9 trailing comma.
		`        "table": [
        ],
      }
    },
    "algo": {
`,
		// F8: mine (SEMA2), then peers with the loop index and a one-level addr; F9 next.
		`              "kring_peer_semas": {
                "mine": {
                  "addr": {
                    "soc_addr": "0x0000000000000000"
                  }
                },
                "peers": [
                  {
                    "peer_id": 0,
                    "addr": {
                      "soc_addr": "0x0000000000000000"
                    }
                  },
                  {
                    "peer_id": 1,
                    "addr": {
                      "soc_addr": "0x0000000000000000"
                    }
                  },
                  {
                    "peer_id": 2,
                    "addr": {
                      "soc_addr": "0x0000000000000000"
                    }
                  }
                ]
              },
              "dma_apb_bcast": {
                "m2s_tail_ptr": {
                  "soc_addr": "0x0000000000000000"
                },
                "s2m_tail_ptr": {
                  "soc_addr": "0x0000000000000000"
                },
                "mask": 0
              },
              "channel_id": 0,
              "spad_slot_idx": 0,
              "fold_n": 0,
              "kangaring_is_primary": 0,
              "kangaring_num_peers": 0
            },
            {
              "next_neigh": {
`,
		// F6 last row closes "}" then "]" then F5's "},"; F10 opens the events array.
		`              "kangaring_num_peers": 0
            }
          ]
        },
        "mesh": {
          "events": [
            {
              "dma_apb_bcast_0": {
                "m2s_tail_ptr": {
`,
		// F24 opens with F34: eight {queue_id, dma_engines_bitmap}, closed "],".
		`      "neff": {
        "dma_alloc_bitmap": [
          {
            "queue_id": 0,
            "dma_engines_bitmap": 0
          },
`,
		`          {
            "queue_id": 0,
            "dma_engines_bitmap": 0
          }
        ],
        "barrier_configs": {
`,
		// F11 tail with event_id last (U-6), F12's __stub (C11).
		`              "wait_event": 0,
              "event_id": 49
            }
          ]
        },
        "hierarchical": {
          "__stub": "0x0000000000000000"
        }
      },
`,
	} {
		if !strings.Contains(s, block) {
			t.Errorf("the sunda all-zero text lacks the block:\n%s", block)
		}
	}
	if n := strings.Count(s, `"event_id": `); n != 50 {
		t.Errorf("%d mesh events in sunda, want 50", n)
	}
	if n := strings.Count(string(p12), `"event_id": `); n != 108 {
		t.Errorf("%d mesh events in cayman, want 108", n)
	}
	for _, want := range []string{`"pring_base_addr": 0x4210,`, `"pring_total_desc_num": 0x4218` + "\n", `"execute_device_barrier": 0x1,`} {
		if !strings.Contains(string(p12), want) {
			t.Errorf("patterned cayman lacks %q", want)
		}
	}
}

// TestPatternedValues checks printed values against the context bytes with an independent
// reader (encoding/binary), for a few fields of every quirk.
func TestPatternedValues(t *testing.T) {
	for _, id := range []uint32{5, 12} {
		a, _ := ArchByID(id)
		ctx := SampleContext(id, SamplePatterned)
		res := EmitTree(ctx, "m", id)
		get := func(path ...string) string {
			n := res.Tree.Find(path...)
			if n == nil {
				t.Fatalf("arch %d: no node %v", id, path)
			}
			return n.Value
		}
		top := "ncfw_ctx_top_sp"
		u64 := func(off int64) string { return fmt.Sprintf(`"0x%016X"`, binary.LittleEndian.Uint64(ctx[off:])) }
		checks := []struct {
			path []string
			want string
		}{
			{[]string{top, "configs", "algo", "ring", "channels", "2", "next_neigh", "fold_n"}, "2"},
			{[]string{top, "configs", "algo", "ring", "channels", "2", "next_neigh", "net_idx_addrs", "1"}, u64(2*148 + 8)},
			{[]string{top, "configs", "algo", "ring", "channels", "5", "recv_sema", "addr", "soc_addr"}, u64(5*148 + 56)},
			{[]string{top, "configs", "algo", "ring", "channels", "5", "channel_id"}, "5"},
			{[]string{top, "configs", "algo", "ring", "channels", "5", "spad_slot_idx"}, strconv.Itoa(int(ctx[5*148+141]))},
			{[]string{top, "configs", "algo", "hierarchical", "__stub"}, u64(a.CfgHier)},
			{[]string{top, "configs", "neff", "barrier_configs", "execute_device_barrier"}, "0x1"},
			{[]string{top, "configs", "neff", "basic_block_configs", "table", "1", "desc_count"}, "65535"},
			{[]string{top, "configs", "dev", "tpb_id"}, fmt.Sprintf("0x%x", ctx[a.CfgDev+0x2C]&0xF)},
			{[]string{top, "configs", "dev", "seng_id"}, fmt.Sprintf("0x%x", ctx[a.CfgDev+0x2C]>>4)},
			{[]string{top, "configs", "dev", "tpb_ctrl_ack"}, strconv.FormatUint(binary.LittleEndian.Uint64(ctx[a.CfgDev+0x24:]), 10)},
			{[]string{top, "neff", "barrier_completed"}, "1"},
			{[]string{top, "neff", "op", "ctrl_entry", "cc_op", "algo_sub_type"}, strconv.Itoa(int(ctx[a.NeffCtx+1] >> 4 & 7))},
			{[]string{top, "neff", "op", "ctrl_entry", "cc_op", "ring", "channel_list"}, strconv.FormatUint(uint64(binary.LittleEndian.Uint32(ctx[a.NeffCtx+4:])), 10)},
			{[]string{top, "neff", "op", "ctrl_entry", "cc_op", "mesh", "sema_mask"}, strconv.Itoa(int(binary.LittleEndian.Uint16(ctx[a.NeffCtx+6:])))},
			{[]string{top, "neff", "op", "tpb_compl", "tpb_compl#1", "addr", "soc_addr"}, u64(a.NeffCtx + 16)},
			// The runtime bb table runs into barrier_completed (record 1 = bytes 0x5C, 0x5D).
			{[]string{top, "neff", "basic_block", "table", "1", "desc_count"}, "1"},
			{[]string{top, "algo", "ring", "channels", "3", "send_credit"}, strconv.Itoa(int(binary.LittleEndian.Uint16(ctx[a.AlgoCtx+3*16+2:])))},
			{[]string{top, "algo", "mesh", "event_index"}, strconv.Itoa(int(binary.LittleEndian.Uint16(ctx[a.AlgoCtx+0x204:])))},
		}
		for _, c := range checks {
			if got := get(c.path...); got != c.want {
				t.Errorf("arch %d %s = %s, want %s", id, strings.Join(c.path, "/"), got, c.want)
			}
		}
		n := res.Tree.Find(top, "configs", "neff", "barrier_configs", "execute_device_barrier")
		if n.Span == nil || n.Span.Offset != a.CfgNeff+0x898+0x124 || n.Span.Length != 1 {
			t.Errorf("execute_device_barrier span %+v", n.Span)
		}
		for _, c := range []struct {
			path     []string
			off, len int64
		}{
			{[]string{top, "configs", "algo", "ring", "channels", "1"}, 148, 148},
			{[]string{top, "configs", "algo", "ring", "channels", "1", "prev_neigh"}, 148 + 28, 28},
			{[]string{top, "configs", "neff", "barrier_configs"}, a.CfgNeff + 0x898, 0x128},
			{[]string{top, "neff", "op", "ctrl_entry", "cc_op"}, a.NeffCtx + 1, 7},
			{[]string{top, "algo"}, a.AlgoCtx, 0x206},
		} {
			n := res.Tree.Find(c.path...)
			if n == nil || n.Span == nil || n.Span.Offset != c.off || n.Span.Length != c.len {
				t.Errorf("arch %d %s: span %+v, want %d+%d", id, strings.Join(c.path, "/"), n.Span, c.off, c.len)
			}
		}
		if tbl := res.Tree.Find(top, "neff", "basic_block", "table"); len(tbl.Children) != 2 {
			t.Errorf("runtime bb table has %d records, want 2 (stops at ring row 0's zero recv_cnt)", len(tbl.Children))
		}
	}
}

// TestFieldMap: every field's text range holds exactly what FormatFields and the tree say,
// ranges are ordered and disjoint, and struct ranges lie inside the reads the arch makes.
func TestFieldMap(t *testing.T) {
	for _, a := range Arches() {
		res := EmitMapped(SampleContext(a.ID, SamplePatterned), "model", a.ID)
		prev := int64(0)
		for i, f := range res.Fields {
			if f.TextStart < prev || f.TextEnd < f.TextStart || f.TextEnd > int64(len(res.Text)) {
				t.Fatalf("arch %d field %d %s: text range %d..%d after %d", a.ID, i, f.Path, f.TextStart, f.TextEnd, prev)
			}
			prev = f.TextEnd
			if got := FieldAtText(res.Fields, f.TextStart); got != i {
				t.Fatalf("FieldAtText(%d) = %d, want %d", f.TextStart, got, i)
			}
			if f.Offset >= 0 && f.Offset+f.Width > a.Padded+8*255 {
				t.Fatalf("%s reads ctx+0x%X", f.Path, f.Offset)
			}
			line := bytes.Count(res.Text[:f.TextStart], []byte{'\n'}) + 1
			if line != f.Line {
				t.Fatalf("%s: line %d, text says %d", f.Path, f.Line, line)
			}
		}
		tbl := FieldTable(res.Fields)
		if len(tbl.Rows) != len(res.Fields) || len(tbl.RowSpans) != len(res.Fields) || tbl.Rows[5][0] != res.Fields[5].Path ||
			tbl.RowSpans[5].Offset != res.Fields[5].Offset {
			t.Errorf("FieldTable rows %d, row 5 %v", len(tbl.Rows), tbl.Rows[5])
		}
		if got := len(FieldsAtOffset(res.Fields, a.CfgNeff+0x898+0x124)); got != 1 {
			t.Errorf("arch %d: %d fields read the execute_device_barrier byte", a.ID, got)
		}
	}
}

// TestOverflow: spec §9 test 3 — a crafted text of exactly 0xFFFFF bytes is rc 0; one more
// byte is rc 28 with exactly 0xFFFFF bytes, the prefix of the full text.
func TestOverflow(t *testing.T) {
	for _, id := range []uint32{5, 12} {
		ctx := SampleContext(id, SampleLarge)
		base, rc := Emit(ctx, "", id)
		if rc != RCOK || len(base) < 800_000 {
			t.Fatalf("arch %d large context: rc %d, %d bytes", id, rc, len(base))
		}
		fit := strings.Repeat("M", MaxText-len(base))
		text, rc := Emit(ctx, fit, id)
		if rc != RCOK || len(text) != MaxText {
			t.Fatalf("arch %d: exact fit gives rc %d, %d bytes", id, rc, len(text))
		}
		over, rc := Emit(ctx, fit+"M", id)
		if rc != RCBufferFull || len(over) != MaxText {
			t.Fatalf("arch %d: one byte more gives rc %d, %d bytes", id, rc, len(over))
		}
		modelEnd := len("{\n  \"model_name\": \"") + len(fit)
		full := append(append([]byte(nil), over[:modelEnd+1]...), text[modelEnd:]...)
		if !bytes.Equal(over, full[:MaxText]) {
			t.Fatalf("arch %d: the cut text is not the prefix of the full text", id)
		}
		if bad := checkTextRules(over, true); len(bad) > 0 {
			t.Errorf("cut text rules:\n%s", strings.Join(bad, "\n"))
		}
		res := EmitMapped(ctx, strings.Repeat("x", 300_000), id)
		if res.RC != RCBufferFull || len(res.Text) != MaxText || len(res.Findings) == 0 {
			t.Fatalf("long model: rc %d, %d bytes, %d findings", res.RC, len(res.Text), len(res.Findings))
		}
		last := res.Fields[len(res.Fields)-1]
		if last.TextEnd > MaxText {
			t.Fatalf("a field past the cut: %+v", last)
		}
	}
	huge, rc := Emit(make([]byte, 16), strings.Repeat("y", 2<<20), 5)
	if rc != RCBufferFull || len(huge) != MaxText || strings.Count(string(huge), "y") != MaxText-len("{\n  \"model_name\": \"") {
		t.Fatalf("a 2 MiB model name: rc %d, %d bytes", rc, len(huge))
	}
}

// TestInvalid: spec §9 test 4.
func TestInvalid(t *testing.T) {
	ctx := SampleContext(5, SamplePatterned)
	valid := map[uint32]bool{5: true, 12: true, 20: true, 28: true}
	for id := uint32(0); id < 64; id++ {
		text, rc := Emit(ctx, "m", id)
		if valid[id] != (rc != RCInvalid) || (rc == RCInvalid && text != nil) {
			t.Fatalf("arch %d: rc %d, %d bytes", id, rc, len(text))
		}
	}
	for _, id := range []uint32{36, 0xFFFFFFFF, 1 << 31} {
		if text, rc := Emit(ctx, "m", id); rc != RCInvalid || text != nil {
			t.Fatalf("arch %d: rc %d", id, rc)
		}
	}
	if text, rc := Emit(nil, "m", 5); rc != RCInvalid || text != nil {
		t.Fatalf("nil ctx: rc %d", rc)
	}
}

// TestShortContext: U-15 — a short context reads zeros and says so.
func TestShortContext(t *testing.T) {
	zero, _ := Emit(SampleContext(12, SampleZero), "m", 12)
	res := EmitMapped([]byte{}, "m", 12)
	if res.RC != RCOK || !bytes.Equal(res.Text, zero) {
		t.Fatalf("empty context: rc %d, same as all-zero: %v", res.RC, bytes.Equal(res.Text, zero))
	}
	if len(res.Findings) == 0 || res.Findings[0].Code != doc.CodeNcfwShortContext {
		t.Fatalf("findings %+v", res.Findings)
	}
	ok := EmitMapped(SampleContext(5, SampleZero), "m", 5)
	if len(ok.Findings) != 0 {
		t.Fatalf("a full context has findings: %+v", ok.Findings)
	}
}

// TestModelName: U-16 — raw, up to the first NUL.
func TestModelName(t *testing.T) {
	text, _ := Emit(make([]byte, 0x32C8), "a\"b\\c\nd\x00ignored", 5)
	if !bytes.HasPrefix(text, []byte("{\n  \"model_name\": \"a\"b\\c\nd\",\n  \"ncfw_ctx_top_sp\": {\n")) {
		t.Fatalf("model line: %q", text[:60])
	}
}

// TestUnreachedFamilies: F21 and F22 on their own, text written out by hand from spec §5.
func TestUnreachedFamilies(t *testing.T) {
	data := make([]byte, 20)
	for i := range data {
		data[i] = byte(i + 1)
	}
	res := EmitFamily("ncfw_log_dma_reprogram_info", data, 5, FamilyOptions{Key: "dma_reprogram_info", Indent: 2, Last: true})
	want := `  "dma_reprogram_info": {
    "m2s_low": {
      "soc_addr": "0x0807060504030201"
    },
    "m2s_high": {
      "soc_addr": "0x0C0B0A0908070605"
    },
    "s2m_low": {
      "soc_addr": "0x100F0E0D0C0B0A09"
    },
    "s2m_low": {
      "soc_addr": "0x14131211100F0E0D"
    }
  }
`
	if res.RC != RCOK || string(res.Text) != want {
		t.Fatalf("rc %d\n%s", res.RC, res.Text)
	}
	if len(res.Fields) != 4 || res.Fields[3].Path != "s2m_low#1/soc_addr" || res.Fields[3].Offset != 12 {
		t.Fatalf("fields %+v", res.Fields)
	}
	res = EmitFamily("ncfw_log_soc_addr", data[:16], 5, FamilyOptions{Key: "soc_addr", Count: 2})
	if want := "\"soc_addr\": [\n  \"0x0807060504030201\",\n  \"0x100F0E0D0C0B0A09\"\n]\n"; string(res.Text) != want {
		t.Fatalf("soc_addr:\n%s", res.Text)
	}
	res = EmitFamily("ncfw_log_addr", data, 5, FamilyOptions{Key: "k", Trail: true})
	if want := "\"k\": {\n  \"soc_addr\": \"0x0807060504030201\"\n},\n"; string(res.Text) != want {
		t.Fatalf("addr:\n%s", res.Text)
	}
	if EmitFamily("no_such_family", data, 5, FamilyOptions{}).RC != RCInvalid {
		t.Fatal("unknown family accepted")
	}
	reached := 0
	for _, f := range Families() {
		if f.Reached {
			reached++
		} else if f.Name != "ncfw_log_soc_addr" && f.Name != "ncfw_log_dma_reprogram_info" {
			t.Errorf("%s is not reached", f.Name)
		}
	}
	if len(Families()) != 37 || reached != 35 { // F1 ncfw_ctx_log is the framing in emit
		t.Errorf("%d families, %d reached", len(Families()), reached)
	}
}

// TestRulesAreData: a changed default changes the text without code changes.
func TestRulesAreData(t *testing.T) {
	r := DefaultRules
	r.MeshEventIDKey = ""
	r.DevIDFormat = "%u"
	r.HostBase = 0x1000
	s := NewSession(&r)
	text := string(s.Emit(SampleContext(5, SampleZero), "m", 5, false).Text)
	if d := s.Read([]byte(text), 5); d.Deviation != -1 {
		t.Fatalf("a session reads its own text with a deviation: %+v", d.Findings)
	}
	if d := Read([]byte(text), 5); d.Deviation == -1 {
		t.Fatal("the default rules accept text made under other rules")
	}
	if strings.Contains(text, "event_id") || !strings.Contains(text, `"leader": 0,`) || !strings.Contains(text, `"pring_base_addr": 0x3ff0,`) {
		t.Fatal("rules not applied")
	}
	r = DefaultRules
	r.StickyLatch = true
	s = NewSession(&r)
	big := strings.Repeat("x", MaxText)
	if rc := s.Emit([]byte{}, big, 5, false).RC; rc != RCBufferFull {
		t.Fatalf("rc %d", rc)
	}
	if rc := s.Emit([]byte{}, "m", 5, false).RC; rc != RCBufferFull {
		t.Fatalf("sticky latch: rc %d after an overflow", rc)
	}
	if rc := s.Emit([]byte{}, "m", 12, false).RC; rc != RCOK {
		t.Fatalf("sticky latch leaks across clones: rc %d", rc)
	}
	ids := map[string]bool{}
	for _, u := range Unknowns {
		if ids[u.ID] || !strings.HasPrefix(u.ID, "ncfw.") || u.Assumption == "" {
			t.Errorf("bad unknown %+v", u)
		}
		ids[u.ID] = true
	}
	for i := 1; i <= 18; i++ {
		found := false
		for _, u := range Unknowns {
			if strings.Contains(u.Spec, fmt.Sprintf("U-%d", i)) && !strings.Contains(u.Spec, fmt.Sprintf("U-%d0", i)) {
				found = true
			}
		}
		if !found {
			t.Errorf("spec §8 U-%d has no Unknowns row", i)
		}
	}
}

func TestArches(t *testing.T) {
	if len(FittingArches(0x32C6)) != 1 || len(FittingArches(0x44E6)) != 4 || len(FittingArches(100)) != 0 {
		t.Fatal("FittingArches")
	}
	if GuessArch(0x32C8).ID != 5 || GuessArch(0x44E8).ID != 12 || GuessArch(0x4000).ID != 5 || GuessArch(1<<20).ID != 12 {
		t.Fatal("GuessArch")
	}
}
