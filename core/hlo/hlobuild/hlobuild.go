// Package hlobuild writes HloModuleProto wire bytes for tests, fuzz seeds and benchmarks:
// small graphs shaped like the real Neuron modules (parameters, a constant, an NKI custom
// call whose backend_config is base64 JSON), with the knobs the diff's classes need.
package hlobuild

import (
	"encoding/base64"
	"encoding/json"

	"google.golang.org/protobuf/encoding/protowire"
)

// Spec describes a module: a chain of parameters → add → custom call, the shapes' element
// type, and what the NKI kernel call says.
type Spec struct {
	Name       string // module name ("SyncTensorsGraph.42")
	DType      int    // xla.PrimitiveType of every shape (16: BF16)
	Dims       []int64
	Layout     []int64 // minor_to_major
	Kernel     string  // the NKI function name
	Binary     string  // klir_binary.binary
	Grid       []int   // the NKI grid
	SourceLine int     // the add's metadata source_line
	OpName     string  // the add's metadata op_name
	Constant   []byte  // the constant's s8s bytes
	// SwapOperands wires the add's operands the other way round.
	SwapOperands bool
	// NameSuffix is added to every generated instruction name (".7" → "add.7").
	NameSuffix string
	// IDBase offsets every instruction id.
	IDBase int64
}

// Default is a module like the real ones, small.
func Default() Spec {
	return Spec{Name: "SyncTensorsGraph.42", DType: 16, Dims: []int64{1, 128}, Layout: []int64{1, 0},
		Kernel: "qwen3_attn_tkg_fused", Binary: "/tmp/klir_binaries/qwen3_attn_tkg_fused_e5wm40m0/qwen3_attn_tkg_fuseddip9buym.klir",
		Grid: []int{}, SourceLine: 17, OpName: "aten__add", Constant: []byte{1, 2, 3, 4}, NameSuffix: ".1"}
}

func str(b []byte, n protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, n, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func msg(b []byte, n protowire.Number, m []byte) []byte {
	b = protowire.AppendTag(b, n, protowire.BytesType)
	return protowire.AppendBytes(b, m)
}

func vint(b []byte, n protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, n, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func packed(b []byte, n protowire.Number, vs []int64) []byte {
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, uint64(v))
	}
	return msg(b, n, p)
}

// Shape is a ShapeProto of an array.
func Shape(dtype int, dims, layout []int64) []byte {
	s := vint(nil, 2, uint64(dtype))
	s = packed(s, 3, dims)
	return msg(s, 5, packed(nil, 1, layout))
}

// Instruction is one HloInstructionProto with the common fields.
func Instruction(name, opcode string, id int64, shape []byte, operands []int64, extra []byte) []byte {
	b := str(nil, 1, name)
	b = str(b, 2, opcode)
	b = msg(b, 3, shape)
	b = vint(b, 35, uint64(id))
	if len(operands) > 0 {
		b = packed(b, 36, operands)
	}
	return append(b, extra...)
}

// NKIConfig is the base64 JSON backend_config of an NKI kernel call.
func NKIConfig(kernel, binary string, grid []int) string {
	cfg := map[string]any{"kernel_version": 1, "func_name": kernel, "grid": grid, "has_collectives": false, "platform_target": "3",
		"klir_binary": map[string]any{"binary": binary, "input_names": []string{"x", "y"}, "output_names": []string{"output.47"}, "version_identifier": "21d0259"}}
	j, _ := json.Marshal(cfg)
	return base64.StdEncoding.EncodeToString(j)
}

// Module writes the module s describes.
func Module(s Spec) []byte {
	sh := Shape(s.DType, s.Dims, s.Layout)
	id := func(k int64) int64 { return s.IDBase + k }
	p0 := Instruction("p0"+s.NameSuffix, "parameter", id(1), sh, nil, vint(nil, 9, 0))
	p1 := Instruction("p1"+s.NameSuffix, "parameter", id(2), sh, nil, vint(nil, 9, 1))
	cs := Shape(2, []int64{4}, []int64{0}) // s8[4]
	lit := msg(msg(nil, 1, cs), 15, s.Constant)
	c := Instruction("constant"+s.NameSuffix, "constant", id(3), cs, nil, msg(nil, 8, lit))
	ops := []int64{id(1), id(2)}
	if s.SwapOperands {
		ops = []int64{id(2), id(1)}
	}
	meta := str(str(nil, 1, "aten__add"), 2, s.OpName)
	meta = str(meta, 3, "/home/user/model.py")
	meta = vint(meta, 4, uint64(s.SourceLine))
	add := Instruction("add"+s.NameSuffix, "add", id(4), sh, ops, msg(nil, 7, meta))
	cc := Instruction("custom-call"+s.NameSuffix, "custom-call", id(5), sh, []int64{id(4), id(3)},
		str(str(nil, 28, "AwsNeuronCustomNativeKernel"), 43, NKIConfig(s.Kernel, s.Binary, s.Grid)))
	comp := str(nil, 1, s.Name)
	for _, in := range [][]byte{p0, p1, c, add, cc} {
		comp = msg(comp, 2, in)
	}
	comp = vint(comp, 5, uint64(id(100)))
	comp = vint(comp, 6, uint64(id(5)))
	m := str(nil, 1, s.Name)
	m = str(m, 2, s.Name)
	m = msg(m, 3, comp)
	m = vint(m, 6, uint64(id(100)))
	attr := msg(nil, 1, str(str(nil, 1, "NEURON_CC_FLAGS"), 2, "--auto-cast=none"))
	return msg(m, 19, attr)
}
