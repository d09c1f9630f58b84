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
	MemReserved
	MemOrderUndecided
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
	{MemLimit, "mem.limit", ClassUndecided, "the memory model stopped at a limit: its sweep's work (boxes times their repeats times the partition bands they cross) or its tables past the memory budget (the accesses from the one named on are not checked for races nor counted in the peak), its happens-before clocks past the memory budget (no race is checked), or the lints it keeps"},
	{MemReserved, "mem.reserved", ClassLint, "an access writes state-buffer bytes the runtime reserves for itself (def.json runtime_statebuffer_reservation, neff.md §3.4; type evtaccel, whose use is not documented): what the runtime keeps there is overwritten"},
	{MemOrderUndecided, "mem.order-undecided", ClassUndecided, "two accesses overlap, at least one writes, and neither happens before the other as far as the model knows, but one of them comes at or after a wait it could not decide (sync.hidden-update, sync.unknown-mode): whether they race is not known, so no lint is given"},
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

// hangs says whether a wait with code c is never satisfied: its instruction, and every one
// after it on its engine, never runs.
func (c Code) hangs() bool { return c == NoProducer || c == Unreachable || c == Cycle }

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
