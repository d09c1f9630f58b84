package dbg

import "github.com/neffscope/neffscope/core/doc"

// Unknowns are the guesses the .dbg shape table (schema.go) makes; each row of the table that
// is not read straight off the files names one of these IDs.
var Unknowns = []doc.Unknown{
	{ID: "dbg.engine-enum", Spec: "neff.md §4.1, §4.7",
		Question:   "What top-level field 4 of asm and backend members is; the spec's bir::EngineType (Pool=1, Activation=2, PE=3) does not match it.",
		Assumption: "An engine code of its own: 1 PE, 2 Activation, 3 Pool, 4 DMA, 5 DVE, 6 SP — equal to the member's engine in all 121 asm and backend members of the real NEFFs.",
		Confidence: "high"},
	{ID: "dbg.asm-first-id-owner", Spec: "neff.md §4.7",
		Question:   "Which of an asm record's packed backend ids owns the word when there are several (only single ids were seen), and what an empty record means.",
		Assumption: "The first id is the owner; an empty record (a few per stream, e.g. the first words of PE streams) has no source.",
		Confidence: "medium"},
	{ID: "dbg.kernel-file-index", Spec: "neff.md §4.7",
		Question:   "Whether kernel_file and kernel_name index the backend member's own fields 5 and 7, or a table shared by the subgraph.",
		Assumption: "The member's own lists (attn_v6's DVE backend has two paths and uses both indexes; lines fit both files); an index past the list is shown raw with an info finding.",
		Confidence: "high"},
	{ID: "dbg.penguin-fallback", Spec: "neff.md §4.7, §8.1",
		Question:   "Where a backend record carries no kernel_line (cs149 NEFFs), whether its penguin parent's kernel_file/kernel_line is the instruction's source line.",
		Assumption: "Decided per file from its data: only where every backend record named I-<n>-… has penguin parent n (2.18/2.21 cs149, nkipy) is the parent's line used, marked \"via penguin\"; elsewhere (torch-xla NEFFs: backend names inst.<n>, one penguin record for the whole custom-call) never. The source node says which. In matmul_small the 20 words whose backend record and penguin parent both name a line agree (the real-file test fails on any disagreement). cs149 file_pool_2's backend records name no line; via penguin its lines fit its source (waahm7/asst4-trainium@fcd5ebc part2/conv2d.py, counted by hand): nl.load lines → SP DMA words, nl.transpose → PE, nl.matmul → 32,234 PE words, nl.add → Activation, nl.max → DVE; its 433 Pool words land on `return X_out`, one line after nl.store.",
		Confidence: "medium"},
	{ID: "dbg.record-dependencies", Spec: "neff.md §4.7",
		Question:   "What record fields 4, 5, 9 and 10 mean. The DMA backend description says BIR records \"have scheduling dependencies and are depended on by other BIR instructions\".",
		Assumption: "Field 4 = ids this record depends on (penguin and hlo: its operands); field 9 = one kind code per field-4 entry (equal lengths always); fields 5 and 10 = another id list with its kind codes, not field 4's inverse. Shown as lists; 5, 9 and 10 named unknown.",
		Confidence: "low"},
	{ID: "dbg.record-field-6", Spec: "neff.md §8.1",
		Question:   "What record field 6 means beyond 3 (a PE transpose): 1 in most backend records, 2 in some, 1 in the one penguin record of attn_v6.",
		Assumption: "Named transpose_code: 3 = PE transpose (⇔ the word's +0x22 is 1, checked on every real PE word); 1 and 2 shown as numbers, meaning unknown.",
		Confidence: "medium"},
	{ID: "dbg.penguin-subgraph-suffix", Spec: "neff.md §4.7",
		Question:   "How debug_info/*.dbg_sgNNNNNN relates to the sgNN directories: NEFFs with sg00 and sg01 carry only _sg000000.",
		Assumption: "The penguin fallback reads the one penguin member a NEFF carries, for every subgraph; with several, the one whose number equals the subgraph's.",
		Confidence: "low"},
}
