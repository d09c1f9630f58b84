package doc

import "testing"

// A pwp-part ref gives back its profile, function and part, whatever '#' the profile path
// holds; malformed ones are refused.
func TestPWPPartRef(t *testing.T) {
	for _, c := range [][3]string{{"sg00/exp_and_others.json", "exp_400p", "record"}, {"a#b/set.json", "gelu", "saturation"}} {
		ref := PWPPartRef(c[0], c[1], c[2])
		if k, _ := ParseRef(ref); k != RefPWPPart {
			t.Errorf("%q parses as kind %q", ref, k)
		}
		p, f, part, ok := ParsePWPPartRef(ref)
		if !ok || p != c[0] || f != c[1] || part != c[2] {
			t.Errorf("%q → %q %q %q %v", ref, p, f, part, ok)
		}
	}
	for _, bad := range []string{"pwp-part:nohash", "pwp:a#b", "pwp-part:", "member:a#b#c"} {
		if _, _, _, ok := ParsePWPPartRef(bad); ok {
			t.Errorf("%q parsed as a pwp-part ref", bad)
		}
	}
}
