package manifest

import (
	"math"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

type graph struct {
	inputs, outputs []*Tensor
	kelfs           []kelfRef
}

// maxDims is libnrt's bound on a tensor's rank ("Too many dimensions"), spec neff.md §3.2.
const maxDims = 32

// parseGraph reads the TVM graph: inputs from arg_nodes, outputs from heads, both through
// EID = node_row_ptr[node] + output index (spec neff.md §3.2), and the __kelf nodes.
func parseGraph(d *jdoc) graph {
	top := d.v
	r := graphReader{d: d, nodes: top.Get("nodes")}
	nrpV := top.Get("node_row_ptr")
	var ok bool
	r.nrp, ok = ints(nrpV)
	if nrpV != nil && !ok {
		d.errorf(doc.CodeManifestBadGraph, nrpV, "node_row_ptr must be a list of integers")
	}
	attrs := top.Get("attrs")
	r.dltypes = listAttr(d, attrs, "dltype", "list_str")
	r.shapes = listAttr(d, attrs, "shape", "list_shape")
	return graph{inputs: r.inputs(top.Get("arg_nodes")), outputs: r.outputs(top.Get("heads")), kelfs: r.kelfs()}
}

// graphReader reads tensors out of a TVM graph: its nodes, their entry ids (node_row_ptr) and
// the entries' dtypes and shapes (attrs).
type graphReader struct {
	d               *jdoc
	nodes           *jsonspan.Value
	nrp             []int64
	dltypes, shapes *jsonspan.Value
}

// node is node id, or nil when there is none.
func (r *graphReader) node(id int64) *jsonspan.Value {
	if id < 0 || id >= int64(r.nodes.Len()) {
		return nil
	}
	return r.nodes.Index(int(id))
}

// tensor is output out of node: its entry id, dtype, shape and bytes, each checked as the
// runtime does.
func (r *graphReader) tensor(name string, node, out int, at *jsonspan.Value) *Tensor {
	d := r.d
	t := &Tensor{Name: name, Node: node, OutputIndex: out, EntryID: -1, Bytes: -1, Span: d.span(at)}
	if node < 0 || node >= len(r.nrp) {
		d.errorf(doc.CodeManifestBadGraph, at, "node %d has no node_row_ptr entry (node_row_ptr has %d), so tensor %q has no entry id; the runtime refuses the graph", node, len(r.nrp), name)
		return t
	}
	eid := r.nrp[node] + int64(out)
	t.EntryID = int(eid)
	if r.dltypes == nil || r.shapes == nil {
		return t
	}
	if eid < 0 || eid >= int64(r.dltypes.Len()) || eid >= int64(r.shapes.Len()) {
		d.errorf(doc.CodeManifestBadGraph, at, "tensor %q has entry id %d (node_row_ptr[%d] + %d), outside attrs dltype (%d) / shape (%d): the runtime refuses it (\"EID %d out of bounds for dtypes/shapes\")", name, eid, node, out, r.dltypes.Len(), r.shapes.Len(), eid)
		return t
	}
	dv := r.dltypes.Index(int(eid))
	t.DType = str(dv)
	sv := r.shapes.Index(int(eid))
	shape, good := ints(sv)
	if !good {
		d.errorf(doc.CodeManifestBadGraph, sv, "shape of entry %d (tensor %q) is not a list of integers", eid, name)
	}
	if len(shape) > maxDims {
		d.errorf(doc.CodeManifestTooManyDims, sv, "tensor %q has %d dimensions; the runtime allows %d (\"Too many dimensions\")", name, len(shape), maxDims)
	}
	t.Shape = shape
	dt, known := lookupDType(t.DType)
	if !known {
		d.warnf(doc.CodeManifestUnknownDType, dv, "dtype %q of tensor %q is not one the runtime knows; it treats it as UNKNOWN and its byte size is not computed", t.DType, name)
		return t
	}
	t.Bytes = tensorBytes(shape, dt.Bytes)
	if n := d.nodes[dv]; n != nil && n.Detail == "" {
		n.Detail = "tensor " + name + " (entry " + fmtInt(eid) + ")"
	}
	return t
}

// inputs are the tensors arg_nodes names (output 0 of each node).
func (r *graphReader) inputs(args *jsonspan.Value) []*Tensor {
	if args == nil {
		return nil
	}
	d := r.d
	ids, good := ints(args)
	if !good {
		d.errorf(doc.CodeManifestBadGraph, args, "arg_nodes must be a list of node ids")
	}
	var out []*Tensor
	for k, id := range ids {
		at := args.Index(k)
		nv := r.node(id)
		if nv == nil {
			d.errorf(doc.CodeManifestDanglingRef, at, "arg_nodes[%d] = %d names no node (there are %d); the input is lost", k, id, r.nodes.Len())
			continue
		}
		out = append(out, r.tensor(str(nv.Get("name")), int(id), 0, nv))
	}
	return out
}

// outputs are the tensors heads names, each a [node, output index, version] triple, named by
// the node's output_names (else the node's name).
func (r *graphReader) outputs(heads *jsonspan.Value) []*Tensor {
	if heads == nil {
		return nil
	}
	d := r.d
	var out []*Tensor
	for k, h := range items(heads) {
		trip, good := ints(h)
		if !good || len(trip) < 2 {
			d.errorf(doc.CodeManifestBadGraph, h, "heads[%d] is not a [node, output index, version] triple", k)
			continue
		}
		nv := r.node(trip[0])
		if nv == nil {
			d.errorf(doc.CodeManifestDanglingRef, h, "heads[%d] names node %d, but there are %d nodes: the runtime refuses it (\"Output node ID %d out of bounds\")", k, trip[0], r.nodes.Len(), trip[0])
			continue
		}
		name := ""
		if names := strs(nv.Get("output_names")); trip[1] >= 0 && trip[1] < int64(len(names)) {
			name = names[trip[1]]
		}
		if name == "" {
			name = str(nv.Get("name"))
		}
		if trip[1] < 0 || trip[1] > math.MaxInt32 {
			d.errorf(doc.CodeManifestBadGraph, h, "heads[%d] output index %d is out of range", k, trip[1])
			continue
		}
		out = append(out, r.tensor(name, int(trip[0]), int(trip[1]), h))
	}
	return out
}

// kelfs are the device nodes' KELF descriptors. libnrt tests attrs.func_name == "__kelf"; the
// compiler wiki writes op "__kelf" instead. Accept both (Unknown-ID
// manifest.kelf-node-discriminator).
func (r *graphReader) kelfs() []kelfRef {
	d := r.d
	var out []kelfRef
	for i, nv := range nodesOf(r.nodes) {
		attrsV := nv.Get("attrs")
		if str(attrsV.Get("func_name")) != "__kelf" && str(nv.Get("op")) != "__kelf" {
			continue
		}
		kv := attrsV.Get("kelf")
		if kv == nil {
			d.errorf(doc.CodeManifestMissingField, nv, "device node %d (%q) has no attrs.kelf: the runtime refuses it (\"KELF node found but missing 'kelf' attribute\")", i, str(nv.Get("name")))
			continue
		}
		k, isStr := kv.Text()
		if !isStr {
			d.errorf(doc.CodeManifestWrongType, kv, "attrs.kelf of device node %d is a %s: the runtime refuses it (\"KELF attribute is not a string\")", i, kv.Kind)
			continue
		}
		d.explain(kv, "the KELF descriptor this device node runs (its cores are listed there)")
		out = append(out, kelfRef{path: normPath(k), from: d, at: kv})
	}
	return out
}

func nodesOf(v *jsonspan.Value) []*jsonspan.Value {
	if v == nil || v.Kind != jsonspan.Array {
		return nil
	}
	if !v.IsLazy() {
		return v.Items
	}
	// Nodes are looked up by index: a lazy list is built once here.
	out := make([]*jsonspan.Value, 0, v.Len())
	for _, it := range items(v) {
		out = append(out, it)
	}
	return out
}

// listAttr reads attrs.<name> = ["<tag>", [...]] and returns the inner list.
func listAttr(d *jdoc, attrs *jsonspan.Value, name, tag string) *jsonspan.Value {
	if attrs == nil {
		return nil
	}
	v := attrs.Get(name)
	if v == nil {
		d.errorf(doc.CodeManifestMissingField, attrs, "attrs has no %s: the runtime refuses the graph (\"Missing dltype or shape in attrs\")", name)
		return nil
	}
	if v.Kind != jsonspan.Array || v.Len() != 2 || v.Index(1).Kind != jsonspan.Array {
		d.errorf(doc.CodeManifestBadGraph, v, "attrs.%s must be [\"%s\", [...]]: the runtime refuses it (\"Invalid %s data format\")", name, tag, name)
		return nil
	}
	if s := str(v.Index(0)); s != tag {
		d.warnf(doc.CodeManifestBadGraph, v.Index(0), "attrs.%s is tagged %q; TVM writes %q", name, s, tag)
	}
	return v.Index(1)
}

// tensorBytes is product(shape) × element size, or -1 on overflow / negative dims.
func tensorBytes(shape []int64, elem int64) int64 {
	n := elem
	for _, x := range shape {
		if x < 0 {
			return -1
		}
		if x != 0 && n > math.MaxInt64/x {
			return -1
		}
		n *= x
	}
	return n
}

// parseSignature reads metadata.signatures.default and compares it with the graph.
func parseSignature(d *jdoc, g graph) *Signature {
	sv := d.v.Get("metadata").Get("signatures")
	if sv == nil {
		return nil
	}
	def := sv.Get("default")
	if def == nil {
		d.warnf(doc.CodeManifestSignatureMismatch, sv, "metadata.signatures has no \"default\" signature; the graph's own inputs and outputs are used")
		return nil
	}
	s := &Signature{}
	read := func(obj *jsonspan.Value) []*SignatureTensor {
		var out []*SignatureTensor
		if obj == nil || obj.Kind != jsonspan.Object {
			return nil
		}
		for _, m := range obj.Members() {
			name, e := m.Key, m.V
			shape, _ := ints(e.Get("shape"))
			out = append(out, &SignatureTensor{Name: name, ID: intOr(e.Get("id"), -1), DType: str(e.Get("dtype")), Shape: shape, Span: doc.In(d.path, m.KeyStart, e.End-m.KeyStart)})
		}
		return out
	}
	s.Inputs = read(def.Get("inputs"))
	s.Outputs = read(def.Get("outputs"))
	compare := func(kind string, sig []*SignatureTensor, graph []*Tensor, at *jsonspan.Value) {
		byName := map[string]*Tensor{}
		for _, t := range graph {
			if _, dup := byName[t.Name]; !dup {
				byName[t.Name] = t
			}
		}
		for _, st := range sig {
			t := byName[st.Name]
			e := at.Get(st.Name)
			switch {
			case t == nil:
				d.warnf(doc.CodeManifestSignatureMismatch, e, "signature %s %q is not a graph %s (arg_nodes/heads): the framework and the runtime disagree about this tensor", kind, st.Name, kind)
			case st.DType != t.DType || fmtShape(st.Shape) != fmtShape(t.Shape):
				d.warnf(doc.CodeManifestSignatureMismatch, e, "signature %s %q is %s %s, but the graph says %s %s (entry %d)", kind, st.Name, st.DType, fmtShape(st.Shape), t.DType, fmtShape(t.Shape), t.EntryID)
			case kind == "input" && st.ID >= 0 && (st.ID >= int64(len(graph)) || graph[st.ID] != t):
				d.warnf(doc.CodeManifestSignatureMismatch, e, "signature input %q has id %d, but it is input %d of the graph's arg_nodes", st.Name, st.ID, indexOf(graph, t))
			}
		}
	}
	// Real signatures list no outputs; they are compared only when present.
	// Unknown-ID: manifest.signature-outputs.
	compare("input", s.Inputs, g.inputs, def.Get("inputs"))
	compare("output", s.Outputs, g.outputs, def.Get("outputs"))
	return s
}

func indexOf(ts []*Tensor, t *Tensor) int {
	for i, x := range ts {
		if x == t {
			return i
		}
	}
	return -1
}
