package inspect

import (
	"sort"

	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/dvetable"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/ncfw"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/pwp"
	"github.com/neffscope/neffscope/core/sched"
)

// Unknowns is the one table of every assumption the core makes where the spec marks a point
// unknown, inferred or defaulted: each package keeps its rows beside the code that relies on
// them, and this joins them, sorted by ID. Packages above this one (core/fleet) pass their
// rows as more.
func Unknowns(more ...[]doc.Unknown) []doc.Unknown {
	var all []doc.Unknown
	for _, part := range append([][]doc.Unknown{neff.Unknowns, manifest.Unknowns, isa.Unknowns, pwp.Unknowns, ncfw.Unknowns, dbg.Unknowns, dvetable.Unknowns, sched.Unknowns, ntff.Unknowns, profileUnknowns}, more...) {
		all = append(all, part...)
	}
	all = append(all, memoryUnknowns...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	return all
}
