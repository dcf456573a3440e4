package model

import "time"

// noKubelet is the Kubelet of a world whose kubelet is not registered
// (NewCore's): no node runs anything, so a bound pod stays Pending, no
// container is ever running, and the API's entries that act through the
// kubelet do nothing. cluster.New registers the real one.
type noKubelet struct{}

func (noKubelet) PodsComing(int, int)                                {}
func (noKubelet) PodCreated(*Pod)                                    {}
func (noKubelet) Bound(*Pod)                                         {}
func (noKubelet) PhaseSet(*Pod)                                      {}
func (noKubelet) ConditionSetByUser(*Pod)                            {}
func (noKubelet) Released(*Node, *Pod)                               {}
func (noKubelet) NodePoweredOff(*Node)                               {}
func (noKubelet) NodePoweredOn(*Node, time.Duration)                 {}
func (noKubelet) DiskFailed(*Node)                                   {}
func (noKubelet) UnschedulableSet(*Node)                             {}
func (noKubelet) Reconnected(*Node)                                  {}
func (noKubelet) RestoreContainers(*Pod, *PodSnapshot)               {}
func (noKubelet) Restored(*Pod, *PodSnapshot)                        {}
func (noKubelet) GraceShortened(*Pod)                                {}
func (noKubelet) DeletionSet(*Pod)                                   {}
func (noKubelet) HeardDelete(*Pod)                                   {}
func (noKubelet) Removed(*Pod)                                       {}
func (noKubelet) Process(*Pod, int) (bool, time.Duration)            { return false, 0 }
func (noKubelet) Serving(*Pod, int) bool                             { return false }
func (noKubelet) ProbeTicks(*Pod, int) (t [Startup + 1]int64)        { return t }
func (noKubelet) CheckContainer(*Invariants, *Pod, int, string)      {}
func (noKubelet) PID(*Pod, int) int32                                { return 0 }
func (noKubelet) RequestSync(*Pod)                                   {}
func (noKubelet) Kill(*Pod, string, int32, string) bool              { return false }
func (noKubelet) Resize(*Pod, string, Resources, Resources) bool     { return false }
func (noKubelet) StopForKubelet(*Pod, string, string, time.Duration) {}
func (noKubelet) StopReason(*Pod) string                             { return "" }
func (noKubelet) EvictingForPressure(*Pod) bool                      { return false }
func (noKubelet) EvictForPressure(*Pod, string, time.Duration)       {}

func (noKubelet) ContainerResources(*Pod, string) (requests, limits Resources, ok bool) {
	return requests, limits, false
}
