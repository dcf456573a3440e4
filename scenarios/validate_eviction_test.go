package scenarios

import (
	"strings"

	"github.com/podsim/podsim/model"
	"testing"
	"time"
)

func TestEvictionSettings(t *testing.T) {
	const head = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  settings: "
	s, err := Parse("t.yaml", []byte(head+"{}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Settings(); st.EvictionHard.Bytes != 100<<20 || st.EvictionSoft != (model.MemoryThreshold{}) ||
		st.EvictionMaxPodGracePeriod != 0 || st.EvictionPressureTransitionPeriod != 5*time.Minute {
		t.Errorf("defaults: got %+v, %+v, %s, %s; want 100Mi, none, 0s, 5m", st.EvictionHard, st.EvictionSoft,
			st.EvictionMaxPodGracePeriod, st.EvictionPressureTransitionPeriod)
	}
	s, err = Parse("t.yaml", []byte(head+"{evictionHard: {memory.available: 1Gi}, evictionPressureTransitionPeriod: 30s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Settings(); st.EvictionHard.Bytes != 1<<30 || st.EvictionPressureTransitionPeriod != 30*time.Second {
		t.Errorf("set: got %+v, %s; want 1Gi, 30s", st.EvictionHard, st.EvictionPressureTransitionPeriod)
	}
	s, err = Parse("t.yaml", []byte(head+"{evictionHard: {memory.available: \"5%\"}, evictionSoft: {memory.available: 10%},"+
		" evictionSoftGracePeriod: {memory.available: 1m30s}, evictionMaxPodGracePeriod: 60}\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := s.Settings()
	if got := st.EvictionHard.Of(1 << 30); got != 53687092 { // int64(float64(1Gi) * float64(float32(0.05))), float32(0.05) a little above 0.05
		t.Errorf("5%% of 1Gi: got %d", got)
	}
	if got := st.EvictionSoft.Of(1000); got != 100 || st.EvictionSoftGracePeriod != 90*time.Second || st.EvictionMaxPodGracePeriod != time.Minute {
		t.Errorf("soft: got %d, %s, max %s; want 100 of 1000, 1m30s, 1m", got, st.EvictionSoftGracePeriod, st.EvictionMaxPodGracePeriod)
	}
	s, err = Parse("t.yaml", []byte(head+"{evictionHard: {memory.available: 0%}}\n"))
	if err != nil || s.Settings().EvictionHard.Of(1<<30) != 0 {
		t.Errorf("0%% must turn the threshold off, as the kubelet ignores it: %v", err)
	}
	for body, want := range map[string]string{
		"{evictionHard: {nodefs.available: 10Mi}}\n":          `unknown signal "nodefs.available"`,
		"{evictionHard: {memory.available: -1Mi}}\n":          `invalid quantity "-1Mi": must not be negative`,
		"{evictionPressureTransitionPeriod: -1s}\n":           `invalid duration "-1s": must not be negative`,
		"{evictionHard: {memory.available: 120%}}\n":          `t.yaml:5:47: eviction percentage threshold "120%" must be <= 100%`,
		"{evictionHard: {memory.available: x%}}\n":            `invalid percentage "x%"`,
		"{evictionSoft: {memory.available: 1Gi}}\n":           `t.yaml:5:29: evictionSoft: grace period must be specified for the soft eviction threshold memory.available`,
		"{evictionSoftGracePeriod: {memory.availabel: 1m}}\n": `evictionSoftGracePeriod: unknown signal "memory.availabel"`,
		"{evictionMaxPodGracePeriod: -1}\n":                   `t.yaml:5:41: evictionMaxPodGracePeriod: -1: want seconds >= 0`,
	} {
		if _, err := Parse("t.yaml", []byte(head+body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", strings.TrimSpace(body), err, want)
		}
	}
}
