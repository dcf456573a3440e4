package scheduler

import (
	"math"
	"time"

	"github.com/podsim/podsim/model"
)

// podState is the scheduler's state of one pod, kept by Pod.ID in
// scheduler.pods: its plan and requests, and the queue's bookkeeping
// while it is unscheduled (upstream's QueuedPodInfo).
//
// It is kept small, 32 bytes: there is one per pod ever created (a
// 150k-pod run holds them all). The rare nominated node lives in
// scheduler.nominated; the nonzero requests are the scheduler's, by
// request id.
type podState struct {
	plan      *schedPlan    // built at the first try
	timestamp time.Duration // when it was added, or last found unschedulable
	order     uint32        // when it was queued, among all queued pods: ties (schedQueue.seq)
	index     int32         // position in its unschedulable bucket
	request   int32         // the id of (requests, nonzero requests) among the pods' (scheduler.requestOf)
	attempts  uint8         // scheduling attempts so far, counted up to maxAttempts
	state     queueState
	rejectors plugins // the plugins that rejected it last time
}

// maxAttempts is the most attempts a podState counts: the backoff stops
// growing long before (podBackoff).
const maxAttempts = math.MaxUint8

// podStates holds the podState of every pod by Pod.ID, in chunks of
// podStateChunk made zero as the pods come: the states of a 150,000-pod
// run are allocated once, where a slice doubling to hold them would copy
// them and leave as much again behind as garbage.
type podStates struct{ chunks [][]podState }

// podStateChunk is how many pods' states are allocated at a time.
const podStateChunk = 1024

// of returns the state of the pod with ID id, allocating its chunk if
// it has none yet.
func (t *podStates) of(id int) *podState {
	c := id / podStateChunk
	for len(t.chunks) <= c {
		t.chunks = append(t.chunks, make([]podState, podStateChunk))
	}
	return &t.chunks[c][id%podStateChunk]
}

// of returns the scheduler's state of p.
func (s *Scheduler) of(p *model.Pod) *podState { return s.pods.of(p.ID()) }
