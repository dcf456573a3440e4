package manifests

import (
	"time"

	"github.com/podsim/podsim/scenarios"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// snapshotMeta converts what podsim reads of a snapshot's metadata: when
// the object was created, and its owners.
func (c *converter) snapshotMeta(m *metav1.ObjectMeta) scenarios.SnapshotMeta {
	out := scenarios.SnapshotMeta{CreationTimestamp: c.stamp(&m.CreationTimestamp), DeletionGracePeriodSeconds: m.DeletionGracePeriodSeconds}
	if t := m.DeletionTimestamp; t != nil {
		// The end of a grace period, perhaps after the snapshot: it does
		// not date it.
		out.DeletionTimestamp = t.UTC().Format(time.RFC3339)
	}
	for _, r := range m.OwnerReferences {
		out.OwnerReferences = append(out.OwnerReferences, scenarios.OwnerReference{APIVersion: r.APIVersion,
			Kind: r.Kind, Name: r.Name, Controller: r.Controller})
	}
	return out
}

// podStatus converts a pod's status (nil if it has none: a pod not yet
// in a cluster).
func (c *converter) podStatus(s *corev1.PodStatus) *scenarios.PodStatus {
	if s.Phase == "" && s.StartTime == nil && len(s.ContainerStatuses) == 0 && len(s.Conditions) == 0 {
		return nil
	}
	out := &scenarios.PodStatus{Phase: string(s.Phase), StartTime: c.stamp(s.StartTime)}
	for i := range s.Conditions {
		cd := &s.Conditions[i]
		out.Conditions = append(out.Conditions, scenarios.PodCondition{Type: string(cd.Type), Status: string(cd.Status),
			LastTransitionTime: c.stamp(&cd.LastTransitionTime)})
	}
	out.InitContainerStatuses = c.containerStatuses(s.InitContainerStatuses)
	out.ContainerStatuses = c.containerStatuses(s.ContainerStatuses)
	return out
}

func (c *converter) containerStatuses(in []corev1.ContainerStatus) []scenarios.ContainerStatus {
	var out []scenarios.ContainerStatus
	for i := range in {
		s := &in[i]
		out = append(out, scenarios.ContainerStatus{Name: s.Name, RestartCount: s.RestartCount, Ready: s.Ready,
			Started: s.Started, State: c.containerState(&s.State), LastState: c.containerState(&s.LastTerminationState)})
	}
	return out
}

func (c *converter) containerState(s *corev1.ContainerState) scenarios.ContainerState {
	var out scenarios.ContainerState
	if r := s.Running; r != nil {
		out.Running = &scenarios.StateRunning{StartedAt: c.stamp(&r.StartedAt)}
	}
	if w := s.Waiting; w != nil {
		out.Waiting = &scenarios.StateWaiting{Reason: w.Reason, Message: w.Message}
	}
	if t := s.Terminated; t != nil {
		out.Terminated = &scenarios.StateTerminated{ExitCode: t.ExitCode, Reason: t.Reason,
			StartedAt: c.stamp(&t.StartedAt), FinishedAt: c.stamp(&t.FinishedAt)}
	}
	return out
}
