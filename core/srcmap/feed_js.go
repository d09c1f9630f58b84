//go:build js

package srcmap

import "github.com/neffscope/neffscope/core/neff"

// In the page the feed is left out (the wasm's size budget): a whole-document writer reads each
// .dbg member that is not held on its own, as View does.
type Feed struct{}

func NewFeed(*Index, []string, int64) *Feed  { return nil }
func (*Feed) Planned() ([]*neff.Member, int) { return nil, 0 }
func (*Feed) Take(string) ([]byte, bool)     { return nil, false }
func (*Feed) Release(int64)                  {}
func (*Feed) Stop()                          {}
