package dbg

import (
	"reflect"
	"testing"
)

// TestRecordResetEmptiesEveryField fills every field of a Record, resets it, and wants what a
// new Record at the same span is, its slices' room kept: a field added to Record and not to
// reset fails it.
func TestRecordResetEmptiesEveryField(t *testing.T) {
	var r Record
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Int64, reflect.Int:
			f.SetInt(7)
		case reflect.Uint64:
			f.SetUint(7)
		case reflect.String:
			f.SetString("x")
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 4))
		default:
			t.Fatalf("Record.%s is a %s: teach this test (and Record.reset) about it", v.Type().Field(i).Name, f.Kind())
		}
	}
	parents, attrs := r.Parents, r.Attrs
	r.reset(100, 20)
	want := Record{Off: 100, Len: 20, Parents: parents[:0], Attrs: attrs[:0]}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("after reset: %+v, want %+v", r, want)
	}
	if cap(r.Parents) != 4 || cap(r.Attrs) != 4 {
		t.Errorf("reset dropped the slices' room: cap %d and %d, want 4", cap(r.Parents), cap(r.Attrs))
	}
}
