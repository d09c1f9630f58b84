package isa

import "testing"

// TestOpcodeTableMatchesLayouts holds every row of the opcode table to the layouts and to the
// accessors that read its columns: the Sync column to the layout's second band and the DMA
// accessors, the Memory column to the layout's operand slots, every slot to a descriptor or
// field of its layout (none silently left out), and the accessors to the columns.
func TestOpcodeTableMatchesLayouts(t *testing.T) {
	for op := range 256 {
		code := uint8(op)
		info := Opcode(code)
		l := layoutIndex[code]
		w := make([]byte, WordSize)
		w[0] = code
		name := info.Name

		// Sync column.
		hasSecond := false
		if l != nil {
			for _, f := range l.Fields {
				hasSecond = hasSecond || f.Kind == kSyncBand
			}
		}
		if _, ok := SyncBand(w, true); ok != hasSecond || (info.Sync == SyncSecondBand) != hasSecond {
			t.Errorf("%s: Sync %v, second band read %v, layout's kSyncBand field %v", name, info.Sync, ok, hasSecond)
		}
		if _, ok := BlockIDOf(w); ok != (info.Sync == SyncDMABlock) {
			t.Errorf("%s: Sync %v, but BlockIDOf answers %v", name, info.Sync, ok)
		}
		if _, _, ok := Direct2dCompletion(w); ok != (info.Sync == SyncDMADirect) {
			t.Errorf("%s: Sync %v, but Direct2dCompletion answers %v", name, info.Sync, ok)
		}
		if _, _, ok := Direct2dPatterns(w); ok != (info.Sync == SyncDMADirect) {
			t.Errorf("%s: Sync %v, but Direct2dPatterns answers %v", name, info.Sync, ok)
		}
		if info.Sync >= nSyncEffects {
			t.Errorf("%s: Sync %d has no meaning", name, info.Sync)
		}

		// Memory column.
		dma := info.Sync == SyncDMABlock || info.Sync == SyncDMADirect
		if (info.Memory == MemDMA) != dma {
			t.Errorf("%s: Memory %d, Sync %v", name, info.Memory, info.Sync)
		}
		slots := 0
		if l != nil {
			slots = len(l.Operands)
		}
		if (info.Memory == MemOperands) != (slots > 0) || OperandSlots(code) != slots {
			t.Errorf("%s: Memory %d with %d operand slots (OperandSlots %d)", name, info.Memory, slots, OperandSlots(code))
		}
		if info.Memory == MemNone && l != nil && len(l.Descs) > 0 {
			t.Errorf("%s: Memory none, but its layout has descriptors", name)
		}
		if slots == 0 {
			continue
		}
		if l.OperandSource == "" || l.OperandConfidence == "" {
			t.Errorf("%s: operand slots without their evidence", name)
		}
		named := map[string]bool{}
		for k, o := range operandIndex[code] {
			s := o.spec
			if named[s.Slot] {
				t.Errorf("%s: operand %s twice", name, s.Slot)
			}
			named[s.Slot] = true
			if o.desc == nil && (o.pointer == nil || o.pointer.Width != 4) {
				t.Errorf("%s operand %d: %q is no descriptor nor 4-byte field of the layout", name, k, s.Slot)
			}
			for _, ref := range []struct {
				field string
				got   *fieldSpec
				must  bool
			}{{s.Dtype, o.dtype, true}, {s.Parts, o.parts, true}, {s.FP32Unless, o.fp32Unless, false}, {s.When, o.when, false}} {
				if (ref.must || ref.field != "") && ref.got == nil {
					t.Errorf("%s operand %s: field %q is not in the layout", name, s.Slot, ref.field)
				}
			}
			if o.pointer != nil && s.When == "" {
				t.Errorf("%s operand %s: a pointer field with no When (its form byte)", name, s.Slot)
			}
		}
		for _, d := range l.Descs {
			if !named[d.Name] {
				t.Errorf("%s: descriptor %s is no operand slot: the memory model would leave it out unsaid", name, d.Name)
			}
		}
	}
}

// TestOperandsReadTheLayout: Operands reads a descriptor slot where decode shows it, with its
// dtype and partitions from the fields the slot names.
func TestOperandsReadTheLayout(t *testing.T) {
	w := activateWord(7, 0x100, 0x200)
	in := Decode(w, 0)
	ops := Operands(nil, w)
	if len(ops) < 2 {
		t.Fatalf("Activate operands %+v", ops)
	}
	src, _ := in.Field("src")
	if ops[0].Name != "src" || uint64(ops[0].Addr) != src.Raw || ops[0].Write {
		t.Errorf("src %+v, decode %+v", ops[0], src)
	}
	if dst, _ := in.Field("dst"); ops[1].Name != "dst" || uint64(ops[1].Addr) != dst.Raw || !ops[1].Write {
		t.Errorf("dst %+v, decode %+v", ops[1], dst)
	}
	parts, _ := in.Field("active channels")
	if uint64(ops[0].Partitions) != parts.Raw {
		t.Errorf("partitions %d, the field says %d", ops[0].Partitions, parts.Raw)
	}
}

// TestSyncBandReadsBothBands: SyncBand reads the band at +0x04 of any word and EventSemaphore's
// second band at +0x20, laid out alike.
func TestSyncBandReadsBothBands(t *testing.T) {
	w := newWord(0xA0)
	putSync(w, 0x05, 8, 0x13, 4, 16)
	copy(w[0x20:], []byte{0x05, 0x12, 0x00, 0x00, 0xb0, 0, 0, 0})
	if b, ok := SyncBand(w, false); !ok || b != (Band{WaitMode: 5, WaitSem: 8, UpdateMode: 0x13, UpdateSem: 4, Value: 16}) {
		t.Errorf("first band %+v %v", b, ok)
	}
	if b, ok := SyncBand(w, true); !ok || b != (Band{WaitMode: 5, WaitSem: 0x12, Value: 0xb0}) {
		t.Errorf("second band %+v %v", b, ok)
	}
	if _, ok := SyncBand(activateWord(7, 0, 0), true); ok {
		t.Error("Activate has no second band")
	}
	if OpcodeOf(w) != 0xA0 || OpcodeOf(w[:1]) != 0xA0 || OpcodeOf(nil) != 0 {
		t.Error("OpcodeOf")
	}
}
