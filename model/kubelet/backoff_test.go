package kubelet

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

func TestBackoffDoublingSaturates(t *testing.T) {
	cfg := model.Backoff{Initial: sim.MaxDuration/2 + time.Hour, Max: sim.MaxDuration, ResetAfter: sim.MaxDuration}
	var b backoff
	b.next(cfg, 0, 0)
	b.next(cfg, 1, 1)
	if b.delay != sim.MaxDuration {
		t.Errorf("delay %v, want the maximum (it used to wrap negative)", b.delay)
	}
}
