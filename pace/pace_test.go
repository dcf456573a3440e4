package pace

import (
	"testing"
	"time"

	"github.com/benbjohnson/clock"

	"github.com/podsim/podsim/model"
)

// A change due at 60 s of virtual time at speed 60 is held until one wall
// second has passed on the mock clock, and not before.
func TestPacerHoldsUntilDue(t *testing.T) {
	clk := clock.NewMock()
	p := New(clk, 60, nil)
	waiting := make(chan time.Time, 1)
	p.onWait = func(due time.Time) { waiting <- due }
	released := make(chan struct{})
	go func() {
		p.Change(&model.Change{T: time.Minute})
		close(released)
	}()
	// Once the waiter has set its timer, move the clock short of due.
	if due := <-waiting; !due.Equal(clk.Now().Add(time.Second)) {
		t.Fatalf("due at %v, want one second from start", due)
	}
	clk.Add(999 * time.Millisecond)
	select {
	case <-released:
		t.Fatal("released before its wall instant")
	case <-time.After(20 * time.Millisecond):
	}
	clk.Add(time.Millisecond)
	select {
	case <-released:
	case <-time.After(5 * time.Second):
		t.Fatal("not released at its wall instant")
	}
	if got := p.Virtual(); got != time.Minute {
		t.Fatalf("Virtual() = %v, want 1m", got)
	}
}

// A change already due passes at once; a closed done ends a wait.
func TestPacerPastAndDone(t *testing.T) {
	clk := clock.NewMock()
	done := make(chan struct{})
	p := New(clk, 2, done)
	clk.Add(time.Hour)
	if !p.Wait(time.Minute) {
		t.Fatal("a change in the past should pass")
	}
	close(done)
	if p.Wait(10 * time.Hour) {
		t.Fatal("a wait after done should report false")
	}
}

// At a very slow speed the wall time of a late virtual time saturates
// rather than wraps to the past (it played the whole replay at once).
func TestWallSaturates(t *testing.T) {
	clk := clock.NewMock()
	p := New(clk, 1e-6, nil)
	if w := p.Wall(100 * 365 * 24 * time.Hour); !w.After(clk.Now().Add(100 * 365 * 24 * time.Hour)) {
		t.Errorf("wall instant of 100 years at speed 1e-6: %v, before now + 100 years", w)
	}
}
