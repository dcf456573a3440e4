package sweep

import (
	"fmt"
	"io"
	"maps"
	"reflect"
	"strconv"
	"strings"

	"github.com/podsim/podsim/report"
)

// Putting the shards of one study together, and resuming an interrupted
// sweep from its partial shard.

// sameStudy tells whether two headers are of the same study: everything but
// the paths it was run as, which merely name the files.
func sameStudy(a, b Header) bool {
	a.File, a.Scenario = "", ""
	b.File, b.Scenario = "", ""
	return reflect.DeepEqual(a, b)
}

// Merge checks that files are the shards 0..n-1 of one study and returns
// its header (its paths those of the first file) and every run. It is a
// Merger given the files in turn.
func Merge(names []string, files []*ShardFile) (Header, []Run, error) {
	var m Merger
	for i, f := range files {
		if err := m.Add(names[i], f); err != nil {
			return Header{}, nil, err
		}
	}
	return m.Result()
}

// A Merger puts the shard files of one study together one at a time, so
// that merging many files needs memory for the runs' samples the result
// uses, not for the files: Add keeps of each run only the metrics the
// study shows (and the time to ready, which the plots use) and the series.
// The zero Merger is ready to use.
type Merger struct {
	h     Header
	first string   // the first file's name
	seen  []string // by shard: the file that brought it
	keep  []bool   // by metric index: whether Aggregate reads it
	runs  []Run
	bases map[int]uint64 // by cell: its seed (checkSeeds)
}

// Add checks the shard file f, named name in errors, against those added
// before and keeps its runs. A refused file leaves the Merger as it was.
func (m *Merger) Add(name string, f *ShardFile) error {
	if err := f.check(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if f.Partial {
		return fmt.Errorf("%s holds the runs of an interrupted sweep: finish it with podsim sweep STUDY --resume %s", name, name)
	}
	if m.seen == nil {
		m.h, m.first, m.seen = f.Header, name, make([]string, f.Shards)
		m.keep = make([]bool, len(report.Metrics))
		for _, n := range append([]string{"pod.timeToReady"}, f.Header.Metrics...) {
			if i := report.MetricIndex(n); i >= 0 {
				m.keep[i] = true
			}
		}
	}
	switch {
	case f.Header.Podsim != m.h.Podsim:
		return fmt.Errorf("%s was made by %s, %s by %s: run every shard with one podsim version",
			name, podsimName(f.Header.Podsim), m.first, podsimName(m.h.Podsim))
	case !sameStudy(f.Header, m.h):
		what := "another study"
		if f.Header.Study == m.h.Study {
			what = "another version of study " + m.h.Study
		}
		return fmt.Errorf("%s is from %s than %s (fingerprint %.12s, not %.12s)", name, what, m.first, f.Header.Fingerprint, m.h.Fingerprint)
	case f.Shards != len(m.seen):
		return fmt.Errorf("%s is shard %d of %d, %s one of %d shards", name, f.Shard, f.Shards, m.first, len(m.seen))
	case m.seen[f.Shard] != "":
		return fmt.Errorf("%s and %s are both shard %d of %d", m.seen[f.Shard], name, f.Shard, f.Shards)
	}
	bases, err := checkSeeds(f.Runs, f.Header.Seeds, m.bases)
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if m.bases == nil {
		m.bases = bases
	} else {
		maps.Copy(m.bases, bases)
	}
	m.seen[f.Shard] = name
	for _, r := range f.Runs {
		vals := make([][]float64, len(r.Values)) // f's runs stay as they were
		for i, v := range r.Values {
			if i >= len(m.keep) || m.keep[i] {
				vals[i] = v
			}
		}
		r.Values = vals
		m.runs = append(m.runs, r)
	}
	return nil
}

func podsimName(v string) string {
	if v == "" {
		return "an unnamed podsim (a shard file from before versions were recorded)"
	}
	return "podsim " + v
}

// Result returns the header of the study (its paths those of the first
// file) and every run, or which shards are missing.
func (m *Merger) Result() (Header, []Run, error) {
	if m.seen == nil {
		return Header{}, nil, fmt.Errorf("merge needs shard files")
	}
	var missing []string
	for i, s := range m.seen {
		if s == "" {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	switch n := len(missing); {
	case n == 1:
		return Header{}, nil, fmt.Errorf("shard %s of %d missing", missing[0], len(m.seen))
	case n > 10:
		return Header{}, nil, fmt.Errorf("%d shards of %d missing, among them %s", n, len(m.seen), strings.Join(missing[:10], ", "))
	case n > 1:
		return Header{}, nil, fmt.Errorf("shards %s of %d missing", strings.Join(missing, ", "), len(m.seen))
	}
	return m.h, m.runs, nil
}

// Resume reads the runs of an interrupted sweep of s from a partial shard
// file, checking that it is of this study and of shard i/n (n 0: no shards).
func (s *Study) Resume(name string, r io.Reader, shard, shards int) ([]Run, error) {
	f, err := ReadShard(name, r)
	if err != nil {
		return nil, err
	}
	if shards == 0 {
		shards = 1
	}
	switch {
	case f.Header.Podsim != s.Header.Podsim:
		return nil, fmt.Errorf("%s was made by %s, this is %s: resume with the podsim that was interrupted, or start again",
			name, podsimName(f.Header.Podsim), podsimName(s.Header.Podsim))
	case !sameStudy(f.Header, s.Header):
		return nil, fmt.Errorf("%s is from another study or version of it than %s", name, s.Header.File)
	case f.Shard != shard || f.Shards != shards:
		return nil, fmt.Errorf("%s holds runs of shard %d/%d, not %d/%d", name, f.Shard, f.Shards, shard, shards)
	}
	return f.Runs, nil
}
