package kubelet

import (
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// backoff is one entry of the kubelet's crash backoff (client-go
// flowcontrol.Backoff keyed by container): the current delay and when it
// was last moved on.
type backoff struct {
	set        bool
	delay      time.Duration
	lastUpdate time.Duration
}

// expired reports whether the entry has lapsed for an event at eventTime:
// more than ResetAfter passed since the last restart decision.
func (b *backoff) expired(cfg model.Backoff, eventTime time.Duration) bool {
	return !b.set || eventTime-b.lastUpdate > cfg.ResetAfter
}

// inBackoffSince reports whether, at now, a restart must still wait for a
// container that finished at eventTime (flowcontrol IsInBackOffSince).
func (b *backoff) inBackoffSince(cfg model.Backoff, eventTime, now time.Duration) bool {
	if b.expired(cfg, eventTime) {
		return false
	}
	return now-eventTime < b.delay
}

// next records a restart decision at now for an event at eventTime: a new or
// lapsed entry starts at Initial, otherwise the delay doubles up to Max.
func (b *backoff) next(cfg model.Backoff, eventTime, now time.Duration) {
	if b.expired(cfg, eventTime) {
		b.set, b.delay = true, cfg.Initial
	} else {
		b.delay = min(sim.MulSat(b.delay, 2), cfg.Max)
	}
	b.lastUpdate = now
}
