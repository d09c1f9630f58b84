package manifest

import (
	"encoding/binary"
	"hash/maphash"
	"sort"
)

// A core's variables are held compactly (the 145,000 variables of the 32 MB
// real-shaped NEFF cost ~37 MB as one heap object each plus two maps): Vars holds them by
// value, their names are substrings of one string per core, what many vars repeat (type,
// dtype, area, shape) is shared through *VarAttrs, and the lookups are slices of int32
// indexes into Vars. Vars is never appended to after the resolve, so a *Var stays valid.

// noVar marks an empty slot of the indexes below.
const noVar = -1

// nameIndex finds a var by name: an open-addressed table (linear probing, at most 3/4 full)
// of indexes into Vars, 4 bytes a slot instead of a map entry's ~30. The hash is seeded per
// table, so a def.json cannot choose its collisions. A name defined twice finds its last
// definition, the one the runtime keeps.
type nameIndex struct {
	seed  maphash.Seed
	slots []int32 // index into Vars, or noVar
}

func newNameIndex(vars []Var) nameIndex {
	n := 8
	for n*3 < len(vars)*4 {
		n <<= 1
	}
	ix := nameIndex{seed: maphash.MakeSeed(), slots: make([]int32, n)}
	for k := range ix.slots {
		ix.slots[k] = noVar
	}
	for i := range vars {
		ix.slots[ix.slot(vars, vars[i].Name)] = int32(i)
	}
	return ix
}

// slot is where name is (or would go) in the table.
func (ix *nameIndex) slot(vars []Var, name string) int {
	mask := len(ix.slots) - 1
	for k := int(maphash.String(ix.seed, name)) & mask; ; k = (k + 1) & mask {
		if i := ix.slots[k]; i == noVar || vars[i].Name == name {
			return k
		}
	}
}

// find is the index in vars of the var named name, or noVar.
func (ix *nameIndex) find(vars []Var, name string) int {
	if len(ix.slots) == 0 {
		return noVar
	}
	return int(ix.slots[ix.slot(vars, name)])
}

// idIndex finds a var by var_id. A NEFF the runtime accepts numbers its vars 0..N-1, so the
// ids below len(Vars) are a slice indexed by id; any other id (a broken def.json) goes to a
// map. The first var with an id keeps it (a repeated id is an error).
type idIndex struct {
	dense  []int32 // by id: index into Vars, or noVar
	sparse map[int64]int32
	// count is how many distinct ids there are; max the largest (-1 when none).
	count int
	max   int64
}

func newIDIndex(nvars int) idIndex {
	ix := idIndex{dense: make([]int32, nvars), max: -1}
	for k := range ix.dense {
		ix.dense[k] = noVar
	}
	return ix
}

// find is the index of the var with var_id id, or noVar.
func (ix *idIndex) find(id int64) int {
	if id >= 0 && id < int64(len(ix.dense)) {
		return int(ix.dense[id])
	}
	if i, ok := ix.sparse[id]; ok {
		return int(i)
	}
	return noVar
}

// add gives id to var i unless a var has it already; it returns the var that has it.
func (ix *idIndex) add(id int64, i int) int {
	if j := ix.find(id); j != noVar {
		return j
	}
	if id >= 0 && id < int64(len(ix.dense)) {
		ix.dense[id] = int32(i)
	} else {
		if ix.sparse == nil {
			ix.sparse = map[int64]int32{}
		}
		ix.sparse[id] = int32(i)
	}
	ix.count++
	ix.max = max(ix.max, id)
	return i
}

// byIDOrder is Vars' indexes sorted by var_id, stably (the var table's order). When the N
// vars have the ids 0..N-1, one each, that order is the id index itself, shared, not copied.
func byIDOrder(vars []Var, ids *idIndex) []int32 {
	if n := len(vars); ids.count == n && ids.max == int64(n)-1 && len(ids.dense) >= n {
		return ids.dense[:n]
	}
	order := make([]int32, len(vars))
	for i := range order {
		order[i] = int32(i)
	}
	sort.SliceStable(order, func(a, b int) bool { return vars[order[a]].ID < vars[order[b]].ID })
	return order
}

// attrsTable interns a core's VarAttrs while its vars are read: equal attributes, one
// *VarAttrs (the 100,000 virtual vars of a real def.json share a handful).
type attrsTable struct {
	byKey map[string]*VarAttrs
	key   []byte // reused encoding buffer
}

// intern returns the shared VarAttrs equal to a (a itself, copied, when it is the first).
func (t *attrsTable) intern(a *VarAttrs) *VarAttrs {
	t.key = a.appendKey(t.key[:0])
	if s := t.byKey[string(t.key)]; s != nil {
		return s
	}
	if t.byKey == nil {
		t.byKey = map[string]*VarAttrs{}
	}
	s := new(VarAttrs)
	*s = *a
	t.byKey[string(t.key)] = s
	return s
}

// appendKey appends an encoding of a to b: equal keys, equal attributes (each string's length
// before its bytes, a list's presence and length before its items, so no field can run into
// the next).
func (a *VarAttrs) appendKey(b []byte) []byte {
	for _, s := range [...]string{a.Type, a.DType, a.Area, a.FileName, a.FilePath} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendVarint(b, a.Alignment)
	for _, l := range [...][]int64{a.Shape, a.List} {
		if l == nil {
			b = append(b, 0)
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(l))+1)
		for _, x := range l {
			b = binary.AppendVarint(b, x)
		}
	}
	return b
}
