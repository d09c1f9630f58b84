package sched

// Code is what the model says about a wait, or why it cannot say: OK, a lint (the file is
// wrong, as far as the model knows), or undecided (the model does not know enough to say).
type Code uint8

// The codes, in the one table below (Codes).
const (
	OK Code = iota
	NoProducer
	Unreachable
	Cycle
	MultiProducer
	UnknownMode
	OrderUnknown
	HiddenUpdate
	DMAUnresolved
	Unread
	Limit
	MemUnsync
	MemOutOfBounds
	MemSelfAlias
	MemUnknownOperands
	MemLimit
	nCodes
)

// Class says whether a code is a lint or an undecided point.
type Class uint8

const (
	ClassOK Class = iota
	ClassLint
	ClassUndecided
)

// CodeInfo is one row of the code table: the stable dotted name tests and scripts match, its
// class, and what it means.
type CodeInfo struct {
	Code    Code
	Name    string
	Class   Class
	Meaning string
}

// Codes is every finding code the sync model gives (sync --json's contract names the four lints).
var Codes = [nCodes]CodeInfo{
	{OK, "", ClassOK, "the wait has its producer (or waits for 0, which holds from the start)"},
	{NoProducer, "sync.no-producer", ClassLint, "no instruction or DMA ever updates the semaphore"},
	{Unreachable, "sync.unreachable", ClassLint, "the value is more than all updates of the semaphore can reach"},
	{Cycle, "sync.cycle", ClassLint, "the wait depends on itself through program order and other waits: a deadlock"},
	{MultiProducer, "sync.multi-producer", ClassLint, "the semaphore is updated from more than one engine, so which update satisfies the wait depends on timing"},
	{UnknownMode, "sync.unknown-mode", ClassUndecided, "a wait or update mode byte other than the confirmed 0x05 (S >= value) and 0x13 (+1 on completion): kept raw, its effect not guessed"},
	{OrderUnknown, "sync.order-unknown", ClassUndecided, "the core holds an instruction the model does not follow (a branch, a semaphore reset or set, a barrier, a semaphore poll): program order or the counts may not be what the words say"},
	{HiddenUpdate, "sync.hidden-update", ClassUndecided, "the core holds an instruction whose completion may update semaphores the model cannot name (a collective, a DMA form other than 0xC1 and 0xD4): a wait that seems never satisfied may be"},
	{DMAUnresolved, "sync.dma-unresolved", ClassUndecided, "a PseudoDMATrigger (0xC1) whose block, or the block's semaphore, is not in the engine JSON: what it increments is unknown"},
	{Unread, "sync.unread", ClassUndecided, "an engine stream could not be read (missing, cut, or a read error): its waits and updates are unknown"},
	{Limit, "sync.limit", ClassUndecided, "the memory budget refused the model's tables: the rest of the core is not modelled"},
	{MemUnsync, "mem.unsync", ClassLint, "two accesses overlap, at least one writes, and neither happens before the other"},
	{MemOutOfBounds, "mem.out-of-bounds", ClassLint, "a box outside its space: past the last partition or past a partition's bytes"},
	{MemSelfAlias, "mem.self-alias", ClassLint, "an instruction's output overlaps its own input where the engine does not allow it. Never given: no source here (the spec, the ISA layouts, the NKI docs and issues) says which engine or opcode forbids it, and the real files, which ran on devices, hold DVE TensorTensorArithOp (48 of 260) and TensorReduceArithOp (8 of 242) writing over their own input, so DVE allows it there; a documented per-opcode rule, or a device run that goes wrong with only that overlap, would settle it"},
	{MemUnknownOperands, "mem.unknown-operands", ClassUndecided, "an instruction or DMA whose operands the model cannot place (an opcode without an operand row, a register or indirect address, a pattern it does not read): its accesses are left out, so a race through them is not seen"},
	{MemLimit, "mem.limit", ClassUndecided, "the memory model stopped at a limit: its sweep's work (boxes times their repeats; the accesses from the one named on are not checked for races nor counted in the peak), or the lints it keeps"},
}

func (c Code) String() string {
	if c < nCodes {
		return Codes[c].Name
	}
	return "sync.?"
}

// Class is the code's class.
func (c Code) Class() Class {
	if c < nCodes {
		return Codes[c].Class
	}
	return ClassUndecided
}

// CodeByName finds a code by its dotted name.
func CodeByName(name string) (Code, bool) {
	for _, ci := range Codes {
		if ci.Name == name && ci.Code != OK {
			return ci.Code, true
		}
	}
	return OK, false
}

// The sync band's mode bytes the model acts on (neff.md §4.2, §8.3). Only these two are confirmed
// by real words; every other non-zero mode is UnknownMode.
const (
	waitNone   = 0x00
	waitGeImm  = 0x05 // semaphore +0x05 >= u32 +0x08 [REAL]
	updateNone = 0x00 // with update semaphore 0 in every real word [REAL]
	updateInc  = 0x13 // +1 to the semaphore at +0x07 on completion [REAL]
)

// dmaBlockIncrement is what one completed 0xC1 block adds to its engine-JSON semaphore
// (neff.md §8.3 [REAL: every 0xC1-fed wait of the shared NEFFs resolves with it]).
const dmaBlockIncrement = 16

// effect is what an opcode means to the model beyond its sync band.
type effect uint8

const (
	effNone   effect = iota
	effOrder         // the model cannot follow the order or the counts past it (OrderUnknown)
	effHidden        // its completion may update semaphores the model cannot name (HiddenUpdate)
)

// opcodeEffect lists the opcodes the model does not follow. None occurs in a real file here
// (neff.md §8.3: resets, barriers, loops and remote semaphores are not seen), so each is
// modelled conservatively: it makes the core's waits undecided, never a lint. Names: neff.md §4.3.
var opcodeEffects = []struct {
	Opcode uint8
	Effect effect
	Why    string
}{
	{0xA9, effOrder, "CompareBranch: program order is not the word order"},
	{0xB0, effOrder, "EventSemaphoreRangeClear: a reset sets counts back"},
	{0xB3, effOrder, "PollSem: a wait the sync band does not show"},
	{0xB4, effOrder, "TestEventSem: a semaphore test the sync band does not show"},
	{0xC3, effOrder, "PseudoDMABarrier: a barrier"},
	{0xC5, effOrder, "PseudoSemaphoreSet: sets a count"},
	{0xD1, effOrder, "PseudoFunctionBegin: functions are called out of word order"},
	{0xD2, effOrder, "PseudoFunctionReturn: program order is not the word order"},
	{0xD3, effOrder, "PseudoFunctionCall: program order is not the word order"},
	{0xD5, effOrder, "PseudoSyncBarrier: a barrier"},
	{0xD8, effOrder, "PseudoCoreBarrier: a barrier across cores"},
	{0xB8, effHidden, "DMAMemcpy: a DMA whose completion semaphore is not decoded"},
	{0xBB, effHidden, "DmaIndirect: a DMA whose completion semaphore is not decoded"},
	{0xBD, effHidden, "DmaTranspose: a DMA whose completion semaphore is not decoded"},
	{0xBF, effHidden, "Sb2sbCollective: a collective"},
	{0xC2, effHidden, "PseudoDMARearm: re-arms a DMA"},
	{0xC4, effHidden, "PseudoDMAMemcpyFullInd: a DMA whose completion semaphore is not decoded"},
	{0xC7, effHidden, "PseudoTriggerAllReduce: a collective"},
	{0xC8, effHidden, "PseudoTriggerCollective: a collective"},
	{0xCB, effHidden, "PseudoSendRecv: a collective"},
	{0xD9, effHidden, "PseudoTriggerCollective2: a collective"},
	{0xF1, effHidden, "DmaGatherTranspose: a DMA whose completion semaphore is not decoded"},
}

var effectOf [256]effect

func init() {
	for _, r := range opcodeEffects {
		effectOf[r.Opcode] = r.Effect
	}
}
