package scenarios

import "github.com/podsim/podsim/internal/yamlstrict"

// A snapshot of a cluster (`kubectl get -o yaml`, `podsim snapshot`) holds
// objects as they are: Nodes with their status, and pods bound to nodes,
// running, owned by their controllers. These are the fields podsim reads
// of them (docs/from-your-cluster.md); package manifests converts the
// Kubernetes objects into them. Every time is RFC 3339, as the API writes
// it; virtual time 0 is the snapshot's instant (Scenario.Instant).

// NodeState is what a node entry says of the node's state beyond the
// contract: what it can hold for the scheduler, whether it is cordoned,
// whether its kubelet is posting status.
type NodeState struct {
	// Allocatable is status.allocatable: what the scheduler counts
	// (capacity less the kubelet's reservations); default: capacity.
	Allocatable   map[string]Quantity `yaml:"allocatable"`
	Unschedulable bool                `yaml:"unschedulable"` // spec.unschedulable: cordoned from the start
	// NotReady starts the node with its Ready condition not True (its
	// kubelet silent, as the node controller sees it), as a NotReady node
	// of a snapshot.
	NotReady bool `yaml:"notReady"`
	// CreationTimestamp is when the Node was created (RFC 3339), before
	// the snapshot's instant: the node's age.
	CreationTimestamp string `yaml:"creationTimestamp"`
}

// SnapshotMeta is the metadata of an object of a snapshot that podsim
// reads: when it was created, and which controller owns it.
type SnapshotMeta struct {
	CreationTimestamp string           `yaml:"creationTimestamp"`
	OwnerReferences   []OwnerReference `yaml:"ownerReferences"`
	// A pod being deleted: when its grace period ends, and how long it was.
	DeletionTimestamp          string `yaml:"deletionTimestamp"`
	DeletionGracePeriodSeconds *int64 `yaml:"deletionGracePeriodSeconds"`
}

// OwnerReference names an object's owner; the one with controller: true
// is its controller, which adopts it.
type OwnerReference struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Name       string `yaml:"name"`
	Controller *bool  `yaml:"controller"`
}

// PodStatus is a pod's status in a snapshot: the run starts from it.
type PodStatus struct {
	Phase                 string            `yaml:"phase"`
	StartTime             string            `yaml:"startTime"`
	Conditions            []PodCondition    `yaml:"conditions"`
	InitContainerStatuses []ContainerStatus `yaml:"initContainerStatuses"`
	ContainerStatuses     []ContainerStatus `yaml:"containerStatuses"`
}

// PodCondition is one of a pod's conditions (podsim reads Ready's).
type PodCondition struct {
	Type               string `yaml:"type"`
	Status             string `yaml:"status"`
	LastTransitionTime string `yaml:"lastTransitionTime"`
}

// ContainerStatus is one container's status in a snapshot.
type ContainerStatus struct {
	Name         string         `yaml:"name"`
	RestartCount int32          `yaml:"restartCount"`
	Ready        bool           `yaml:"ready"`
	Started      *bool          `yaml:"started"`
	State        ContainerState `yaml:"state"`
	LastState    ContainerState `yaml:"lastState"`
}

// ContainerState is one of running, waiting or terminated.
type ContainerState struct {
	Running    *StateRunning    `yaml:"running"`
	Waiting    *StateWaiting    `yaml:"waiting"`
	Terminated *StateTerminated `yaml:"terminated"`
}

// StateRunning is a running container: since when.
type StateRunning struct {
	StartedAt string `yaml:"startedAt"`
}

// StateWaiting is a waiting container: why.
type StateWaiting struct {
	Reason  string `yaml:"reason"`
	Message string `yaml:"message"`
}

// StateTerminated is a container's termination.
type StateTerminated struct {
	ExitCode   int32  `yaml:"exitCode"`
	Reason     string `yaml:"reason"`
	StartedAt  string `yaml:"startedAt"`
	FinishedAt string `yaml:"finishedAt"`
}

// The status fields of a snapshot that change nothing podsim simulates.
func init() { yamlstrict.Declare(snapshotFields) }

func snapshotFields() {
	Ignore[OwnerReference]("uid", "blockOwnerDeletion")
	Ignore[Taint]("timeAdded")
	Ignore[PodStatus]("hostIP", "hostIPs", "podIP", "podIPs", "qosClass", "nominatedNodeName", "message",
		"reason", "resize", "resourceClaimStatuses", "ephemeralContainerStatuses", "observedGeneration",
		"extendedResourceClaimStatus", "allocatedResources", "resources", "nodeAllocatableResourceClaimStatuses",
		"volumeHealth")
	Ignore[PodCondition]("lastProbeTime", "reason", "message", "observedGeneration")
	Ignore[ContainerStatus]("image", "imageID", "containerID", "allocatedResources", "resources",
		"volumeMounts", "user", "allocatedResourcesStatus", "stopSignal")
	Ignore[StateTerminated]("signal", "message", "containerID")
}
