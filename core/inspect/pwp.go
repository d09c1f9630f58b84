package inspect

import (
	"fmt"
	"io"
	"math"
	"path"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/pwp"
)

// Activation tables: inside a NEFF (the sets each core's Activation engine lists) or loose files
// dropped together (act_info.json + <set>.json + blobs). Function nodes carry
// Ref "pwp:<profile path>#<function>", the handle the page evaluates and plots through.

// activationNode renders a bundle and gives each function node its handle.
func activationNode(b *pwp.Bundle) *doc.Node {
	n := pwp.BundleNode(b)
	n.Key = "activation"
	// Sets of the same name in several cores (each sgNN loads its own copy) get their core in
	// the key, so a link or URL path reaches each one.
	names := map[string]int{}
	for _, c := range n.Children {
		if c.Kind == pwp.KindSet {
			names[c.PathKey()]++
		}
	}
	for _, c := range n.Children {
		if c.Kind == pwp.KindSet && names[c.PathKey()] > 1 && c.Span != nil {
			if dir := path.Dir(c.Span.Source); dir != "." {
				c.Key = c.PathKey() + " " + strings.ReplaceAll(dir, "/", " ")
			}
		}
	}
	n.Walk(func(_ []string, c *doc.Node) bool {
		if c.Kind == pwp.KindRoster && c.Span != nil && c.Span.Source != "" {
			// Each core carries its own roster: name which one this is.
			c.Label += " · " + c.Span.Source
			c.Key = "roster"
			if dir := path.Dir(c.Span.Source); dir != "." {
				c.Key += " " + strings.ReplaceAll(dir, "/", " ") // keys stay one path segment
			}
			return false
		}
		if c.Kind == pwp.KindFunction && c.Span != nil {
			c.Ref = doc.PWPRef(c.Span.Source, c.Label)
			return false
		}
		return true
	})
	return n
}

func init() { expanders[doc.RefPWPPart] = expandPWPPart }

// expandPWPPart builds the children of a pwp-part: stub: a part of an activation function's
// node (pwp.FunctionPart).
func expandPWPPart(f *File, stub *doc.Node, from, to int) ([]*doc.Node, int, error) {
	profile, name, part, ok := doc.ParsePWPPartRef(stub.Ref)
	if !ok {
		return nil, 0, fmt.Errorf("%w: %q is not a pwp-part reference", ErrNotFound, stub.Ref)
	}
	fn, err := f.function(doc.PWPRef(profile, name))
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	kids, ok := pwp.FunctionPart(fn, part)
	if !ok {
		return nil, 0, fmt.Errorf("%w: activation function %s has no part %q", ErrNotFound, name, part)
	}
	from, to = clampRange(from, to, len(kids))
	return kids[from:to], len(kids), nil
}

// bundle is the activation tables of the file: a NEFF's, or the loose ones opened.
func (f *File) bundle() *pwp.Bundle {
	if f.act != nil {
		return f.act
	}
	if f.Program != nil {
		return f.Program.Act
	}
	return nil
}

// actBlob is the activation blob a records:<blob> ref names (ok false: no set's blob).
func (f *File) actBlob(member string) (pwp.Blob, bool) {
	if b := f.bundle(); b != nil {
		return b.Records(member)
	}
	return pwp.Blob{}, false
}

// function finds the function a "pwp:" ref names.
func (f *File) function(ref string) (*pwp.Function, error) {
	profile, name, ok := doc.ParsePWPRef(ref)
	if !ok {
		return nil, fmt.Errorf("%q is not an activation-function reference (pwp:<profile>#<function>)", ref)
	}
	b := f.bundle()
	if b == nil {
		return nil, fmt.Errorf("%s has no activation tables", f.Name)
	}
	for _, s := range b.Sets {
		if s.ProfilePath == profile {
			if fn := s.Function(name); fn != nil {
				return fn, nil
			}
			return nil, fmt.Errorf("set %s has no function %q", s.Name, name)
		}
	}
	return nil, fmt.Errorf("no activation set profile %q in %s", profile, f.Name)
}

// Evaluate runs the PWP evaluator for one input: the result, its bits, the path through the
// tables, and the span of the bucket record used (to highlight in the hex view).
func (f *File) Evaluate(ref string, x float32, mode string) (*doc.Node, error) {
	fn, err := f.function(ref)
	if err != nil {
		return nil, err
	}
	o, err := evalOptions(mode)
	if err != nil {
		return nil, err
	}
	y, tr := fn.EvaluateWith(x, o)
	n := pwp.TraceNode(fn, x, y, tr)
	if off := tr.BucketOffset(); off >= 0 {
		n.Span = doc.In(fn.Set.BktSource, off, pwp.BucketSize)
		n.Field("bucket record", fmt.Sprintf("%s bytes %d..%d", fn.Set.BktSource, off, off+pwp.BucketSize), n.Span).Detail = "the 32-byte record (d0..d3, x) this input used"
	}
	dom, known := fn.Domain()
	outside := known && !dom.Contains(float64(x))
	if outside {
		// Past its range the table is not meant to follow the function: no error figure.
		n.Field("domain", "outside the table's range "+dom.String(), nil).SetAttr(doc.AttrDomain, dom.Attr()).Detail = dom.Evidence
	}
	if ref, ok := pwp.References[fn.Bare]; ok {
		want := ref(float64(x), 0)
		n.Field("true value", fmt.Sprintf("%.9g", want), nil).Detail = "float64 reference of " + fn.Bare
		if !outside && want != 0 && !math.IsNaN(want) && !math.IsInf(want, 0) {
			n.Field("relative error", fmt.Sprintf("%.3g", math.Abs((float64(y)-want)/want)), nil)
		}
	}
	return n, nil
}

// Plot samples a function over [lo, hi] for the page's chart: emulated and true curves, error
// curves, octave and section boundaries, saturation regions.
func (f *File) Plot(ref string, lo, hi float64, n int, mode string) (*doc.Node, error) {
	fn, err := f.function(ref)
	if err != nil {
		return nil, err
	}
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || n < 2 {
		return nil, fmt.Errorf("plot range [%g, %g] with %d points: need lo < hi, finite, and at least 2 points", lo, hi, n)
	}
	o, err := evalOptions(mode)
	if err != nil {
		return nil, err
	}
	return pwp.PlotNode(fn, fn.Sample(lo, hi, n, o)), nil
}

// evalOptions reads the page's evaluator choice: "" is the recommended hardware-like model
// (sim arithmetic, HW-like special values, spec §7.2/§7.5), "sim" the reference simulator's
// special values, "horner" fp32 Horner arithmetic (§7.6).
func evalOptions(mode string) (pwp.Options, error) {
	switch mode {
	case "", "hardware":
		return pwp.Options{Mode: pwp.ModeSim, NaN: pwp.NaNTable}, nil
	case "sim", "simulator":
		return pwp.Options{Mode: pwp.ModeSim, NaN: pwp.NaNSim}, nil
	}
	m, err := pwp.ParseMode(mode)
	return pwp.Options{Mode: m}, err
}

// NamedReader is one file of a group opened together.
type NamedReader struct {
	Name string
	R    io.ReaderAt
	Size int64
}

// OpenGroup opens files dropped together. Activation-table files (a roster, set profiles, their
// blobs, an engine JSON) are joined into one document; any other file opens on its own, so the
// result is one File per group of activation files plus one per other file.
func OpenGroup(files []NamedReader, opt Options) []*File {
	var out []*File
	act := map[string][]byte{}
	var actFiles []NamedReader
	for _, nf := range files {
		head := make([]byte, min(nf.Size, 1<<20))
		n, _ := nf.R.ReadAt(head, 0)
		if kind := pwp.Sniff(nf.Name, head[:n]); kind != "" && nf.Size <= 256<<20 {
			b := make([]byte, nf.Size)
			m, _ := nf.R.ReadAt(b, 0)
			act[nf.Name] = b[:m]
			actFiles = append(actFiles, nf)
			continue
		}
		out = append(out, Open(nf.Name, nf.R, nf.Size, opt))
	}
	if len(act) == 0 {
		return out
	}
	b := pwp.OpenFiles(act)
	name := actFiles[0].Name
	var size int64
	for _, nf := range actFiles {
		size += nf.Size
	}
	if len(actFiles) > 1 {
		name = fmt.Sprintf("%s + %d files", actFiles[0].Name, len(actFiles)-1)
	}
	f := &File{Name: name, Size: size, r: actFiles[0].R, act: b, group: map[string]NamedReader{}}
	for _, nf := range actFiles {
		f.group[nf.Name] = nf
	}
	f.Doc = &doc.Document{Model: doc.ModelVersion, File: name, Size: size, Kind: doc.KindPWP}
	root := activationNode(b)
	root.Label = name
	f.Doc.Root = root
	return append([]*File{f}, out...)
}

func matchPWP(name string, head []byte, _ int64) bool {
	k := pwp.Sniff(name, head)
	return k == "roster" || k == "profile"
}

// decodePWP opens one activation-table JSON alone (a roster, or a profile whose blobs were not
// dropped with it: the findings say which files to add).
func decodePWP(f *File, _ Options) *doc.Node {
	b, err := f.readAll(256 << 20)
	if err != nil {
		return decodeJSON(f, Options{})
	}
	f.act = pwp.OpenFiles(map[string][]byte{f.Name: b})
	f.group = map[string]NamedReader{f.Name: {Name: f.Name, R: f.r, Size: f.Size}}
	n := activationNode(f.act)
	n.Label = f.Name
	return n
}
