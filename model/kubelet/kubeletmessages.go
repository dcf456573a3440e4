package kubelet

import (
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
)

// containerMessages are the kubelet's messages about a container that
// repeat on every run, built once per container spec and shared by the
// pods of a template (a fleet would build them per pod, a crash loop per
// run); backOffMessages are those that name the pod, built at its first
// back-off.
type containerMessages struct {
	created, started, present, stopping string
	unready                             string // ContainersReady's message when it is the one container not ready
}

type backOffMessages struct {
	backOff        string
	backOffWaiting string // the CrashLoopBackOff state's message, for backOffDelay
	backOffDelay   time.Duration
}

// messages returns the container's messages, building them on first use.
func (c *container) messages() *containerMessages {
	if c.msgs == nil {
		k := c.pod.k
		if c.msgs = k.containerMsgs[c.Spec]; c.msgs == nil {
			name := c.Spec.Name
			c.msgs = &containerMessages{
				created:  "Created container: " + name,
				started:  "Started container " + name,
				present:  "Container image " + strconv.Quote(c.Spec.Image) + " already present on machine",
				stopping: "Stopping container " + name,
				unready:  unreadyPrefix + name + "]",
			}
			if k.containerMsgs == nil {
				k.containerMsgs = map[*model.ContainerSpec]*containerMessages{}
			}
			k.containerMsgs[c.Spec] = c.msgs
		}
	}
	return c.msgs
}

// backOffMessages returns the container's messages about its crash
// back-off, building them on first use.
func (c *container) backOffMessages() *backOffMessages {
	m := &c.procState().backMsgs
	if m.backOff == "" {
		c.newBackOffMessage()
	}
	return m
}

func (c *container) newBackOffMessage() {
	c.proc.backMsgs.backOff = "Back-off restarting failed container " + c.Spec.Name + " in pod " + c.pod.String()
}
