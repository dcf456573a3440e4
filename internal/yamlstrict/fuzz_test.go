package yamlstrict

import (
	"testing"
	"time"
)

type fuzzTarget struct {
	Name  string            `yaml:"name"`
	N     int32             `yaml:"n"`
	U     uint64            `yaml:"u"`
	D     time.Duration     `yaml:"d"`
	F     float64           `yaml:"f"`
	Items []fuzzTarget      `yaml:"items"`
	Map   map[string]string `yaml:"map"`
	Ptr   *fuzzTarget       `yaml:"ptr"`
	Any   any               `yaml:"any"`
}

// FuzzDecode: the guarded reader never panics or hangs on any bytes, and
// what it refuses carries a position.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"name: a\nn: 1\n", "items: [{name: a}, {ptr: {n: 2}}]\n", mergeBomb(30),
		"a: &a {n: 1}\nitems: [*a, {<<: *a}]\n", "u: 18446744073709551616\n", "n: 1e10\n", "any: {<<: [{a: 1}]}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ParseOne("f.yaml", data)
		if err != nil || doc == nil {
			return
		}
		var out fuzzTarget
		_, errs := Decode("f.yaml", doc, &out)
		for _, e := range errs {
			if e.Pos.IsZero() {
				t.Errorf("no position: %v", e)
			}
		}
	})
}
