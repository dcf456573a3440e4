package model

import "time"

// What the kubelet (model/kubelet) reads and asks of the core
// beyond what every part uses: readers of the settings it runs by, the
// announcements it makes to the parts after it changed a pod, and its
// writes of a node's totals. Each is a field read or a call the core makes
// itself, small enough to inline: the kubelet's sync calls several of them
// per pod it syncs.

// Eventf is Pod.Event with its message built from format and args as
// fmt.Sprintf does, only when args are given.
func (p *Pod) Eventf(typ EventType, reason, source, format string, args ...any) {
	p.event(typ, reason, source, format, args...)
}

// KubeletSyncMode is Settings.KubeletSync.
func (w *World) KubeletSyncMode() KubeletSync { return w.settings.KubeletSync }

// ProbeEveryTick is Settings.ProbeEveryTick.
func (w *World) ProbeEveryTick() bool { return w.settings.ProbeEveryTick }

// CrashLoopBackOff is Settings.CrashLoopBackOff.
func (w *World) CrashLoopBackOff() Backoff { return w.settings.CrashLoopBackOff }

// ImagePullBackOff is Settings.ImagePullBackOff.
func (w *World) ImagePullBackOff() Backoff { return w.settings.ImagePullBackOff }

// Image is Settings.Images[name]; listed is false for an image the
// settings do not name (present everywhere, pulled in 0s).
func (w *World) Image(name string) (spec ImageSpec, listed bool) {
	spec, listed = w.settings.Images[name]
	return spec, listed
}

// NodeStatusUpdateFrequency is Settings.NodeStatusUpdateFrequency.
func (w *World) NodeStatusUpdateFrequency() time.Duration {
	return w.settings.NodeStatusUpdateFrequency
}

// SetKubeletSync sets Settings.KubeletSync. It must be called before the
// world runs.
func (w *World) SetKubeletSync(k KubeletSync) {
	if w.Engine().Fired() > 0 {
		panic("model: SetKubeletSync after the world ran")
	}
	w.settings.KubeletSync = k
}

// SetProbeEveryTick sets Settings.ProbeEveryTick. It must be called before
// the world runs.
func (w *World) SetProbeEveryTick(on bool) {
	if w.Engine().Fired() > 0 {
		panic("model: SetProbeEveryTick after the world ran")
	}
	w.settings.ProbeEveryTick = on
}

// AnnouncePodChanged tells the parts (PodChanged) that p's status or
// spec changed.
func (w *World) AnnouncePodChanged(p *Pod) { w.podChanged(p) }

// AnnouncePodStatusUpdated tells the parts (PodStatusUpdated) that the
// kubelet's status manager updated p's status, before PodChanged.
func (w *World) AnnouncePodStatusUpdated(p *Pod) { w.podStatusUpdated(p) }

// AnnouncePodStopped tells the parts (PodStopped) that none of p's
// containers runs any more and none will.
func (w *World) AnnouncePodStopped(p *Pod) { w.podStopped(p) }

// AnnounceListenerChanged tells the use sinks, metrics-server and the
// parts (PodListenerChanged) that p's listener may have changed.
func (w *World) AnnounceListenerChanged(p *Pod) { w.listenerChanged(p) }

// AnnouncePodHeld tells the parts (PodHeld) that p holds its requests on
// n again.
func (w *World) AnnouncePodHeld(p *Pod, n *Node) { w.podHeld(p, n) }

// AnnouncePodReleased tells the parts (PodReleased) that p stopped
// holding its requests on n.
func (w *World) AnnouncePodReleased(p *Pod, n *Node) { w.podReleased(p, n) }

// AnnouncePodRequestsChanged tells the scheduler's parts that p's
// requests changed (a resize allocated).
func (w *World) AnnouncePodRequestsChanged(p *Pod) { w.podRequestsChanged(p) }

// AnnouncePodResized tells the scheduler's parts that p, bound, was
// resized: its node has room anew.
func (w *World) AnnouncePodResized(p *Pod) { w.podResized(p) }

// AskAdmission asks the admission handlers (PodAdmitHandler), in order,
// whether p may start on its node.
func (w *World) AskAdmission(p *Pod) bool { return w.admitPod(p) }

// AllocateRequests makes r the pod's requests, as the kubelet allocates a
// resize. A pod that holds its requests on its node (held: bound, not in
// a terminal phase) releases the old ones there and holds r: the parts
// hear PodReleased, the scheduler's PodRequestsChanged, PodHeld, then
// PodResized. Otherwise only PodRequestsChanged.
func (p *Pod) AllocateRequests(r Resources, held bool) {
	if !held {
		p.requests = r
		p.w.podRequestsChanged(p)
		return
	}
	n := p.Node
	n.used.sub(p.requests)
	p.w.podReleased(p, n)
	p.requests = r
	p.w.podRequestsChanged(p)
	n.used.add(p.requests)
	p.w.nodesChanged()
	p.w.podHeld(p, n)
	p.w.podResized(p)
}

// FinishDeletion takes the pod out of the API at the end of its
// termination, as the kubelet's final delete of it (grace period 0) does.
func (p *Pod) FinishDeletion() { p.remove() }

// NotePast records that a restored object names time t: the world's
// earliest time is no later than t (restore.go).
func (w *World) NotePast(t time.Duration) { w.past = min(w.past, t) }

// Add adds o to r.
func (r *Resources) Add(o Resources) { r.add(o) }

// Sub subtracts o from r.
func (r *Resources) Sub(o Resources) { r.sub(o) }

// Fail records a violation of rule, its message as fmt.Sprintf(format,
// args...) makes it.
func (v *Invariants) Fail(rule, format string, args ...any) { v.fail(rule, format, args...) }

// NthRun is what the n-th run (0-based) of the process does: Runs's
// entry for it, the last repeating; a nil or empty behaviour runs forever.
func (b *Behavior) NthRun(n int32) RunSpec { return b.run(n) }

// Hook is how the preStop (or postStart) hook runs; zero for a nil
// behaviour.
func (b *Behavior) Hook(preStop bool) HookBehavior { return b.hook(preStop) }

// Shutdown is the time from SIGTERM to exit and the exit code then; zero
// for a nil behaviour.
func (b *Behavior) Shutdown() (time.Duration, int32) { return b.shutdown() }

// StartupDelay is StartupTime; zero for a nil behaviour.
func (b *Behavior) StartupDelay() time.Duration { return b.startupTime() }

// ProbeFails reports whether a probe of kind k fails at now for a process
// that started at startedAt and needs startup to start; never for a nil
// behaviour.
func (b *Behavior) ProbeFails(k ProbeKind, now, startedAt, startup time.Duration) bool {
	return b.probeFails(k, now, startedAt, startup)
}

// RemovePressureTaint takes the kubelet's NoSchedule taint key off the
// node and wakes the pods the scheduler parked for the taint.
func (n *Node) RemovePressureTaint(key string) {
	n.removeTaint(key, "NoSchedule")
	n.w.nodePressureLifted(n)
}

// World is the node's world.
func (n *Node) World() *World { return n.w }

// Eventf records a Kubernetes event about the object of kind called
// object (its namespace/name key), from source: World.Event's twin with a
// message built as Pod.Eventf builds it.
func (w *World) Eventf(kind, object string, typ EventType, reason, source, format string, args ...any) {
	w.event(kind, object, typ, reason, source, format, args...)
}

// Reject is the kubelet's rejectPod of p at admission: event reason from
// the kubelet with msg, phase Failed, status reason and message "Pod was
// rejected: msg".
func (p *Pod) Reject(reason, msg string) {
	p.Event(EventWarning, reason, "kubelet", msg)
	p.SetStatusReason(reason, "Pod was rejected: "+msg)
	p.SetPhase(Failed)
	p.w.podChanged(p)
}

// World is the pod's world.
func (p *Pod) World() *World { return p.w }

// NextPID gives the node's next process id (the kubelet's, as a
// container's process starts; 0 while the node counts none).
func (n *Node) NextPID() int32 { return n.nextPID() }

// SplitWindows splits normalized ws into its windows of scenario time
// and those since each start (NormalizeWindows sorts the latter last).
func SplitWindows(ws []Window) (abs, since []Window) { return windowGroups(ws) }

// FirstEndingAfter is the index of the first window of a sorted, disjoint
// group that ends after t for a process started at startedAt, or len(ws).
func FirstEndingAfter(ws []Window, t, startedAt time.Duration) int {
	return searchEnd(ws, t, startedAt)
}
