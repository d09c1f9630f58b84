package manifest

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/neffscope/neffscope/core/neff"
)

// synthetic builds a small, consistent modern-style NEFF member set (one core, five engines,
// an activation set, a DMA block, a .npy constant) so the chain's tests run without the
// shared real files. Each member is written the way neuronx-cc 2.23 writes it (spec neff.md
// §3) with made-up values. edit may rewrite any member's text before it is added.
func synthetic(edit func(path, text string) string) (*MemberSet, HeaderFacts) {
	if edit == nil {
		edit = func(_, s string) string { return s }
	}
	set := NewMemberSet()
	addJSON := func(path, text string) {
		text = edit(path, text)
		set.Add(path, int64(len(text)), []byte(text))
	}
	addJSON("neff.json", `{
 "nodes": [
  {"op": "null", "name": "x", "inputs": [], "output_names": ["x"], "is_param": "0"},
  {"op": "tvm_op", "name": "sg_coreV10", "attrs": {"func_name": "__kelf", "flatten_data": "0", "num_inputs": "1", "kelf": "kelf-0.json", "num_outputs": "1"}, "inputs": [[0, 0, 0]], "output_names": ["y"]}
 ],
 "arg_nodes": [0],
 "heads": [[1, 0, 0]],
 "attrs": {"shape": ["list_shape", [[4, 8], [4, 8]]], "storage_id": ["list_int", [0, 1]], "dltype": ["list_str", ["float16", "float32"]]},
 "node_row_ptr": [0, 1, 2],
 "metadata": {"signatures": {"default": {"inputs": {"x": {"id": 0, "dtype": "float16", "shape": [4, 8]}}, "outputs": {}}}}
}`)
	addJSON("kelf-0.json", `{"graphs": [{"definition": "sg00/def.json", "name": "sg00"}], "version": "0.5", "target": "sunda"}`)
	addJSON("info.json", `{"tool_version": "0.0.0-synthetic", "kelp_version": "Dynamic", "name": "file.neff", "num_tpb": 1, "num_tpb_requested": 1, "num_tpb_per_node": [1, 0, 0]}`)
	addJSON("sg00/def.json", `{
 "act": "Activation.json", "act_instr": "Activation.bin",
 "dve": "DVE.json", "dve_instr": "DVE.bin",
 "pe": "PE.json", "pe_instr": "PE.bin",
 "pool": "Pool.json", "pool_instr": "Pool.bin",
 "sp": "SP.json", "sp_instr": "SP.bin",
 "dma_queue": {
  "qSPIO0": {"fabric_path": "main", "num_queues": 16, "owner": "sp", "semaphore_set": [8, 9], "type": "in"}
 },
 "name": "definition",
 "neff_features": [],
 "var": {
  "SB": {"type": "state-buffer", "var_id": 0},
  "x": {"ops": [], "size": 64, "type": "input", "var_id": 1},
  "y": {"ops": [], "size": 128, "type": "output", "var_id": 2},
  "c": {"alignment": 64, "file_name": "value_c.npy", "size": 16, "type": "file", "var_id": 3},
  "T": {"list": [1, 2], "type": "dge-table", "var_id": 4}
 },
 "version": "0.6"
}`)
	addJSON("sg00/Activation.json", `{"act_info": "act_info.json", "act_semaphore": 12, "activation_function_sets": ["exp_and_others"], "dma": [], "instr": "Activation.bin", "name": "Activation.json"}`)
	addJSON("sg00/DVE.json", `{"dma": [], "dve_tables": [{"control_table": "default_control_table.bin"}], "instr": "DVE.bin", "name": "DVE.json"}`)
	addJSON("sg00/PE.json", `{"dma": [], "instr": "PE.bin", "name": "PE.json"}`)
	addJSON("sg00/Pool.json", `{"dma": [], "instr": "Pool.bin", "name": "Pool.json"}`)
	addJSON("sg00/SP.json", `{"dma": [
  {"#comment": "b0", "desc": [{"from": "x", "from_off": 0, "from_sizes": [64, 1], "from_steps": [1, 64], "op": "copy", "to": "SB", "to_off": 0, "to_sizes": [64, 1], "to_steps": [1, 64]}], "id": 0, "queue": "qSPIO0", "semaphore": 8},
  {"#comment": "b1", "desc": [{"from": "SB", "from_off": 0, "from_sizes": [128, 1], "from_steps": [1, 128], "op": "copy", "to": "y", "to_off": 0, "to_sizes": [128, 1], "to_steps": [1, 128]}], "id": 1, "queue": "qSPIO0", "semaphore": 9}
 ], "instr": "SP.bin", "name": "SP.json"}`)
	addJSON("sg00/act_info.json", `{"pwp_file_keys": ["bkt_bin", "ctrl_bin", "profile_json"], "act_func_sets": [{"name": "exp_and_others", "bkt_bin": "exp_and_others_bkt.bin", "ctrl_bin": "exp_and_others_ctrl.bin", "profile_json": "exp_and_others.json", "act": {"exp": 400}}]}`)
	addJSON("sg00/exp_and_others.json", `{"bkt_bin": "exp_and_others_bkt.bin", "ctl_bin": "exp_and_others_ctrl.bin", "profile_meta_data": []}`)
	addJSON("sg00/tensor_map.json", `{"x": {"dtype": "float16", "is_const": false, "kind": "input", "layer_name": "x", "sim_format": "NC", "sim_shape": [4, 8], "tf_file": "value_x.npy", "tf_format": "NC", "tf_shape": [4, 8]}}`)
	for _, s := range []struct {
		path string
		size int64
	}{
		{"sg00/Activation.bin", 128}, {"sg00/DVE.bin", 64}, {"sg00/PE.bin", 192}, {"sg00/Pool.bin", 64}, {"sg00/SP.bin", 256},
		{"sg00/exp_and_others_bkt.bin", 32}, {"sg00/exp_and_others_ctrl.bin", 32}, {"sg00/default_control_table.bin", 2048},
		{"debug_info/debug_info_penguin.dbg_sg000000", 10},
	} {
		set.Add(s.path, s.size, nil)
	}
	npy := makeNPY("<f2", []int64{2, 4}, func(i int) []byte {
		return binary.LittleEndian.AppendUint16(nil, []uint16{0x3C00, 0x4000, 0xC000, 0x3800}[i%4]) // 1, 2, -2, 0.5
	})
	set.Add("sg00/value_c.npy", int64(len(npy)), npy)
	return set, HeaderFacts{Present: true, Name: "file.neff", NumTPB: 1, RequestedTPBCount: 1, TPBPerNode: [64]byte{1}, NeffVersionMajor: 1, At: neff.HeaderFieldSpans()}
}

// makeNPY writes a NumPy v1.0 file: magic, version, header padded to 64 bytes, values.
func makeNPY(descr string, shape []int64, value func(i int) []byte) []byte {
	dims := make([]string, len(shape))
	n := int64(1)
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
		n *= d
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	hdr := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, tuple)
	for (10+len(hdr)+1)%64 != 0 {
		hdr += " "
	}
	hdr += "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(hdr)), byte(len(hdr)>>8))
	b = append(b, hdr...)
	for i := 0; i < int(n); i++ {
		b = append(b, value(i)...)
	}
	return b
}
