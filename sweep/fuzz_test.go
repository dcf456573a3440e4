package sweep

import (
	"bytes"
	"testing"
)

// FuzzReadShard: merging shard files of any bytes never panics nor
// allocates what a file merely claims; a shard that passes the checks
// merges and aggregates.
func FuzzReadShard(f *testing.F) {
	st, err := Load(tiny)
	if err != nil {
		f.Fatal(err)
	}
	runs := mustRun(f, st, Options{Parallel: 1})
	for _, n := range []int{1, 2} {
		for i := 0; i < n; i++ {
			var b bytes.Buffer
			var mine []Run
			for _, r := range runs {
				if r.Index%n == i {
					mine = append(mine, r)
				}
			}
			if err := WriteShard(&b, &ShardFile{Header: st.Header, Shard: i, Shards: n, Runs: mine}); err != nil {
				f.Fatal(err)
			}
			f.Add(b.Bytes())
		}
	}
	f.Add([]byte(`{"format":"podsim-sweep-shard/v2","header":{"seeds":4611686018427387904,"durationNanos":1,"cells":[[]]},"shard":0,"shards":4611686018427387904}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := ReadShard("s.json", bytes.NewReader(data))
		if err != nil {
			return
		}
		h, runs, err := Merge([]string{"s.json"}, []*ShardFile{sf})
		if err != nil {
			return
		}
		_, _ = Aggregate(h, runs)
	})
}
