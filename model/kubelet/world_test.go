package kubelet

import (
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/deployment"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/model/kubelet/oom"
	"github.com/podsim/podsim/model/scheduler"
)

// kubelets and timelines are the kubelet and the timeline newWorld
// registered in each world.
var (
	kubelets  = map[*model.World]*kubeletCore{}
	timelines = map[*model.World]*model.Timeline{}
)

// newWorld is a world of the package's tests: the core with the
// scheduler, the ReplicaSet and Deployment controllers, this package's
// kubelet and the kernel's OOM killers, registered as cluster.New does, and a timeline.
func newWorld(seed uint64, s model.Settings) *model.World {
	w := model.NewCore(seed, s)
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	rsc := replicaset.New(w)
	w.RegisterWorkloadController(model.KindReplicaSet, rsc)
	w.RegisterWorkloadController(model.KindDeployment, deployment.New(w, rsc))
	k := &kubeletCore{}
	kubelets[w] = k
	w.Register(k)
	w.Register(oom.New(w))
	timelines[w] = &model.Timeline{}
	w.Subscribe(timelines[w])
	return w
}

// kstate is the state of p kept by its world's kubelet.
func kstate(p *model.Pod) *podState { return kubelets[p.World()].pod(p) }

// kubeletNode is the state of n kept by its world's kubelet.
func kubeletNode(n *model.Node) *nodeState { return kubelets[n.World()].node(n) }
