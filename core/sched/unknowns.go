package sched

import "github.com/neffscope/neffscope/core/doc"

// Unknowns lists what the sync model assumes where the evidence stops (neff.md §8.3); the code
// that relies on a row names its ID.
var Unknowns = []doc.Unknown{
	{ID: "sched.completion-order", Spec: "neff.md §8.3; issue 28",
		Question:   "Whether a semaphore's increments arrive in the program order of the engine that issues them: DMA blocks on different queues, or 0xD4 transfers, may complete out of order.",
		Assumption: "Count increments in program order: the producer of a wait for value v is the update at which the running count first reaches v (issue 28's definition). On the seven shared NEFFs every semaphore has producers on one engine and all 10,803 first-band waits resolve so; a wait that a later-issued DMA could satisfy first is not flagged.",
		Confidence: "medium"},
	{ID: "sched.dma-increment", Spec: "neff.md §8.1, §8.3",
		Question:   "What a DMA completion adds to its semaphore: 16 per 0xC1 block (the NKI DMA overview), +0x0E for a 0xD4 (16 in every real word).",
		Assumption: "A 0xC1 trigger adds 16 to its engine-JSON block's semaphore once, when the block completes; a 0xD4 adds its +0x0E to its +0x0D. Every DMA-fed wait of the real files waits for a multiple of 16 (3,294 of 3,294) and resolves.",
		Confidence: "medium"},
	{ID: "sched.unmodelled-sync", Spec: "neff.md §8.3",
		Question:   "What resets (0xB0, 0xC5), barriers (0xC3, 0xD5, 0xD8), branches and function calls, semaphore polls, collectives, other DMA forms and remote (LNC2) semaphores do to the counts: none occurs in a real file here.",
		Assumption: "Not modelled: a core holding one has its waits undecided (sync.order-unknown), or no lint from a missing update (sync.hidden-update). The opcode table's Sync column (core/isa) lists them: a branch, reset, poll or barrier makes the waits order-unknown; an undecoded DMA or a collective, hidden updates. Remote semaphores of a DMA block are not read.",
		Confidence: "low"},
	{ID: "sched.second-band-count", Spec: "neff.md §4.5; issue 28",
		Question:   "How many EventSemaphore (0xA0) words carry a second wait at +0x20: issue 28 says 293 in the real files, a count of these files' words finds 15.",
		Assumption: "Read the second band like the first wherever its wait mode is non-zero: 15 waits in the seven shared NEFFs, all resolved; the issue's 10,803 counts first bands only.",
		Confidence: "medium"},
	{ID: "sched.familyB-slots", Spec: "neff.md §4.4",
		Question:   "Which of family B's three descriptors (+0x10, +0x20, +0x30) is the output: the spec says +0x10.",
		Assumption: "The memory model reads +0x10 and +0x20 as inputs and +0x30 as the output: in stream_256k_fd1k (Trn1 and Trn2) the input DMAs write where +0x10 and +0x20 point and the output DMA reads where +0x30 points; read the spec's way, every TensorTensor of that file races with its input DMA. The listing (core/isa) names them so too (isa.familyB-output: all 260 real TensorTensor words).",
		Confidence: "medium"},
	{ID: "sched.matmul-psum-dtype", Spec: "neff.md §8.1",
		Question:   "The element size of a Matmul's PSUM output.",
		Assumption: "fp32 (the accumulation), or the input dtype when the matmul transposes (+0x22 = 1): in matmul_small two transposes write PSUM 0x800 and 0x900 and one Copy reads 0x800..0x9ff as int32.",
		Confidence: "medium"},
	{ID: "sched.dma-queue-order", Spec: "neff.md §3.5, §8.3",
		Question:   "Whether the transfers of one DMA queue complete in the order they are triggered.",
		Assumption: "Yes, for happens-before in the memory model: in stream_256k_fd1k, DVE waits only for the semaphore of b_vec's block and reads a_vec's, triggered before it on the same queue; without queue order 16 accesses of the real files would race.",
		Confidence: "medium"},
	{ID: "sched.sbuf-capacity", Spec: "neff.md §8.4",
		Question:   "Bytes per SBUF partition by chip.",
		Assumption: "sunda (Trn1) 192 KiB: every real offset is below it; cayman (Trn2) 224 KiB: real operands reach 0x37f00+, and every cayman def.json reserves 229,368..229,375 (runtime_statebuffer_reservation, evtaccel) at the end. Another target has no size: its SBUF bytes are not bounds-checked.",
		Confidence: "medium"},
	{ID: "sched.memory-liveness", Spec: "issue 28",
		Question:   "When SBUF/PSUM bytes are live, for the peak.",
		Assumption: "From a write to the last read before the next write, in the schedule's order (steps, not time); bytes never read again after a write are not live; DMA transfers count at their trigger's step.",
		Confidence: "medium"},
}
