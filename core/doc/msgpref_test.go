package doc_test

// The msgp reference: copies of the wire types (TestReferenceTypesMatch keeps them equal to
// the real ones, tags included) with tinylib/msgp's generated codec in msgpref_gen_test.go.
// The hand-written codec in wire.go is held to it byte for byte; tests only, so the msgp
// runtime never reaches a program.

//go:generate go tool msgp -file msgpref_test.go -o msgpref_gen_test.go -tests=false -io=false -unexported

type refSpan struct {
	Source string `msg:"src" json:"source,omitempty"`
	Offset int64  `msg:"off" json:"offset"`
	Length int64  `msg:"len" json:"length"`
}

type refFinding struct {
	Severity string   `msg:"sev" json:"severity"`
	Message  string   `msg:"msg" json:"message"`
	Span     *refSpan `msg:"span" json:"span,omitempty"`
}

type refTable struct {
	Columns  []string   `msg:"cols" json:"columns"`
	Rows     [][]string `msg:"rows" json:"rows"`
	RowSpans []refSpan  `msg:"rspans" json:"row_spans,omitempty"`
}

type refSeries struct {
	Name string    `msg:"name" json:"name"`
	X    []float64 `msg:"x" json:"x"`
	Y    []float64 `msg:"y" json:"y"`
}

type refNode struct {
	Kind     string       `msg:"kind" json:"kind"`
	Key      string       `msg:"key,omitempty" json:"key,omitempty"`
	Label    string       `msg:"label" json:"label"`
	Value    string       `msg:"value,omitempty" json:"value,omitempty"`
	Detail   string       `msg:"detail,omitempty" json:"detail,omitempty"`
	Span     *refSpan     `msg:"span,omitempty" json:"span,omitempty"`
	Children []*refNode   `msg:"kids,omitempty" json:"children,omitempty"`
	Table    *refTable    `msg:"table,omitempty" json:"table,omitempty"`
	Series   []refSeries  `msg:"series,omitempty" json:"series,omitempty"`
	Findings []refFinding `msg:"finds,omitempty" json:"findings,omitempty"`
	Ref      string       `msg:"ref,omitempty" json:"ref,omitempty"`
}

type refDocument struct {
	Model  int      `msg:"model" json:"model"`
	File   string   `msg:"file" json:"file"`
	Size   int64    `msg:"size" json:"size"`
	Kind   string   `msg:"kind" json:"kind"`
	SHA256 string   `msg:"sha256,omitempty" json:"sha256,omitempty"`
	Root   *refNode `msg:"root" json:"root"`
}
