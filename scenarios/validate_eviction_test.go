package scenarios

import (
	"strings"
	"testing"
	"time"
)

func TestEvictionSettings(t *testing.T) {
	const head = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  settings: "
	s, err := Parse("t.yaml", []byte(head+"{}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Settings(); st.EvictionHardMemory != 100<<20 || st.EvictionPressureTransitionPeriod != 5*time.Minute {
		t.Errorf("defaults: got %d, %s; want 100Mi, 5m", st.EvictionHardMemory, st.EvictionPressureTransitionPeriod)
	}
	s, err = Parse("t.yaml", []byte(head+"{evictionHard: {memory.available: 1Gi}, evictionPressureTransitionPeriod: 30s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Settings(); st.EvictionHardMemory != 1<<30 || st.EvictionPressureTransitionPeriod != 30*time.Second {
		t.Errorf("set: got %d, %s; want 1Gi, 30s", st.EvictionHardMemory, st.EvictionPressureTransitionPeriod)
	}
	for body, want := range map[string]string{
		"{evictionHard: {nodefs.available: 10Mi}}\n": `unknown signal "nodefs.available"`,
		"{evictionHard: {memory.available: -1Mi}}\n": `invalid quantity "-1Mi": must not be negative`,
		"{evictionPressureTransitionPeriod: -1s}\n":  `invalid duration "-1s": must not be negative`,
	} {
		if _, err := Parse("t.yaml", []byte(head+body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", strings.TrimSpace(body), err, want)
		}
	}
}
