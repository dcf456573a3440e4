package model

import "time"

// The kubelet's graceful node shutdown manager is a part
// (model/kubelet/nodeshutdown); the core keeps the node's configuration,
// the fault's entry point and the two seams the manager uses: the
// kubelet's pod admission (PodAdmitHandler) and a pod it stops for good
// changing phase (PodStoppedHandler).

// NodeShutdown is a node's graceful shutdown configuration (the kubelet's
// shutdownGracePeriod and shutdownGracePeriodCriticalPods); zero: off.
type NodeShutdown struct {
	GracePeriod, CriticalPods time.Duration
}

// ReasonNodeShutdownTerminated is the reason of a pod the shutdown
// manager killed (nodeshutdown_manager.go).
const ReasonNodeShutdownTerminated = "Terminated"

// NodeShutdownManager is the kubelet's graceful node shutdown manager of
// every node, as the core asks it (set by World.Register).
type NodeShutdownManager interface {
	// Shutdown begins n's graceful shutdown now; the node stays off for
	// back once it powers off (nil: for good). The core calls it for a
	// node up and not shutting down, whose GracePeriod is not 0.
	Shutdown(n *Node, back *time.Duration)
	// ShuttingDown reports whether n is in a graceful shutdown.
	ShuttingDown(n *Node) bool
}

// Shutdown begins a planned power-off of the node now; it stays off for d
// (nil: for good). With its kubelet's shutdown manager on (registered,
// and ShutdownConfig.GracePeriod not 0) the manager stops its pods first;
// otherwise the node powers off at once.
func (n *Node) Shutdown(d *time.Duration) {
	if n.down || n.gone || n.ShuttingDown() {
		return
	}
	if n.w.shutdown == nil || n.ShutdownConfig.GracePeriod <= 0 {
		n.PowerOff(d)
		return
	}
	n.w.shutdown.Shutdown(n, d)
}

// ShuttingDown reports whether the node is in a graceful shutdown.
func (n *Node) ShuttingDown() bool { return n.w.shutdown != nil && n.w.shutdown.ShuttingDown(n) }
