package isa

import "encoding/binary"

// SyncEffect is what an opcode does to the semaphores beyond the sync band every word carries
// at +0x04 (neff.md §4.2, §8.3): the opcode table's Sync column.
type SyncEffect uint8

const (
	// SyncBandOnly: only its sync band (the default).
	SyncBandOnly SyncEffect = iota
	// SyncSecondBand: a second band, laid out like the first, in the layout field of kind
	// kSyncBand (EventSemaphore's +0x20).
	SyncSecondBand
	// SyncDMABlock: starts the engine-JSON dma[] block its queue and block id name; the
	// block's completion adds to the block's semaphore.
	SyncDMABlock
	// SyncDMADirect: starts a transfer whose completion adds its "sem increment" to its
	// "queue semaphore" (Direct2dCompletion).
	SyncDMADirect
	// SyncBranch: program order is not the word order (a branch, a call, a return).
	SyncBranch
	// SyncSet: sets or clears semaphore counts.
	SyncSet
	// SyncPoll: waits on or tests a semaphore in a way the band does not show.
	SyncPoll
	// SyncBarrier: waits at a barrier (DMA, engines, cores).
	SyncBarrier
	// SyncDMAUndecoded: a DMA whose completion semaphore is not decoded.
	SyncDMAUndecoded
	// SyncCollective: a collective, whose completion may update semaphores.
	SyncCollective
	nSyncEffects
)

// syncEffectMeanings says what each effect is, for messages and `neffscope unknowns` readers.
var syncEffectMeanings = [nSyncEffects]string{
	SyncBandOnly:     "only its sync band",
	SyncSecondBand:   "a second sync band (EventSemaphore +0x20)",
	SyncDMABlock:     "starts an engine-JSON DMA block, whose completion adds to the block's semaphore",
	SyncDMADirect:    "starts a DMA whose completion adds its sem increment to its queue semaphore",
	SyncBranch:       "program order is not the word order (a branch, call or return)",
	SyncSet:          "sets or clears semaphore counts",
	SyncPoll:         "tests or polls a semaphore the sync band does not show",
	SyncBarrier:      "waits at a barrier",
	SyncDMAUndecoded: "a DMA whose completion semaphore is not decoded",
	SyncCollective:   "a collective, whose completion may update semaphores",
}

func (e SyncEffect) String() string {
	if e < nSyncEffects {
		return syncEffectMeanings[e]
	}
	return "?"
}

// SyncEffectOf is the opcode table's Sync column for op.
func SyncEffectOf(op uint8) SyncEffect { return opcodeTable[op].Sync }

// Band is one sync band: the wait (mode, semaphore, value) and the update (mode, semaphore).
type Band struct {
	WaitMode, WaitSem, UpdateMode, UpdateSem uint8
	Value                                    uint32
}

// bandAt is where each field of a band sits from the band's first byte, and its width: the
// sync band's fields (syncFields) by name, resolved once, so a second band is read with the
// same table at another place.
var bandAt = func() (b struct{ waitMode, waitSem, updateMode, updateSem, value int }) {
	base := -1
	for _, p := range []struct {
		name string
		to   *int
	}{{"wait mode", &b.waitMode}, {"wait semaphore", &b.waitSem}, {"update mode", &b.updateMode}, {"update semaphore", &b.updateSem}, {"semaphore value", &b.value}} {
		for _, f := range syncFields {
			if f.Name == p.name {
				if base < 0 {
					base = int(f.Off)
				}
				*p.to = int(f.Off) - base
			}
		}
	}
	return b
}()

// firstBand is where the band every word carries starts (its first field, the wait mode).
var firstBand = int(syncFields[0].Off)

// secondBand is, per opcode, the layout field holding a second band (kind kSyncBand).
var secondBand = func() (t [256]*fieldSpec) {
	for op, l := range layoutIndex {
		if l == nil {
			continue
		}
		for i := range l.Fields {
			if l.Fields[i].Kind == kSyncBand {
				t[op] = &l.Fields[i]
			}
		}
	}
	return t
}()

// SyncBand reads a word's sync band: the one at +0x04 every word carries, or with second its
// second band (ok false when its opcode has none), laid out like the first.
func SyncBand(w []byte, second bool) (Band, bool) {
	if len(w) < WordSize {
		return Band{}, false
	}
	base := firstBand
	if second {
		f := secondBand[w[0]]
		if f == nil {
			return Band{}, false
		}
		base = int(f.Off)
	}
	return readBand((*[WordSize]byte)(w[:WordSize]), base), true
}

// readBand reads the band that starts at byte base.
func readBand(w *[WordSize]byte, base int) Band {
	b := &bandAt
	return Band{WaitMode: w[base+b.waitMode], WaitSem: w[base+b.waitSem], UpdateMode: w[base+b.updateMode],
		UpdateSem: w[base+b.updateSem], Value: binary.LittleEndian.Uint32(w[base+b.value:])}
}

// OpcodeOf is a word's opcode (the header's first field; a short word is read as if padded
// with zeros, as Decode reads it).
func OpcodeOf(w []byte) uint8 {
	if len(w) >= WordSize {
		return uint8(readRaw((*[WordSize]byte)(w), &headerFields[0]))
	}
	var word [WordSize]byte
	copy(word[:], w)
	return uint8(readRaw(&word, &headerFields[0]))
}
