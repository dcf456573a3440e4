package scenarios

import (
	"fmt"
	"reflect"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
	"github.com/podsim/podsim/sim"
	"go.yaml.in/yaml/v3"
)

// DefaultNodeName is the node a scenario without nodes gets.
const DefaultNodeName = "node-1"

// defaultCapacity is a node's capacity where the scenario gives none: a
// common 4-core, 16 GiB machine with the kubelet's default maxPods.
var defaultCapacity = model.Resources{MilliCPU: 4000, Memory: 16 << 30, Pods: 110}

// Settings returns the scenario's settings over Kubernetes' defaults.
func (s *Scenario) Settings() model.Settings {
	st := model.DefaultSettings()
	in := &s.File.Spec.Settings
	backoff := func(b *Backoff, out *model.Backoff) {
		setDur(&out.Initial, b.Initial)
		setDur(&out.Max, b.Max)
		setDur(&out.ResetAfter, b.ResetAfter)
	}
	backoff(&in.CrashLoopBackOff, &st.CrashLoopBackOff)
	backoff(&in.ImagePullBackOff, &st.ImagePullBackOff)
	setDur(&st.NodeMonitorGracePeriod, in.NodeMonitorGracePeriod)
	setDur(&st.EvictionTimeout, in.EvictionTimeout)
	setDur(&st.NodeStatusUpdateFrequency, in.NodeStatusUpdateFrequency)
	setDur(&st.ProxyMinSyncPeriod, in.KubeProxy.MinSyncPeriod)
	setDur(&st.ProxySyncPeriod, in.KubeProxy.SyncPeriod)
	setDur(&st.MetricResolution, in.MetricsServer.MetricResolution)
	hpaSettings(&in.HorizontalPodAutoscaler, &st.HPA)
	in.Eviction.settings(&st)
	s.File.Spec.NodeAutoscaling.settings(&st)
	st.StartTime, st.StartTimeSet = s.startTime(), true
	if in.TerminatedPodGCThreshold != nil {
		st.TerminatedPodGCThreshold = *in.TerminatedPodGCThreshold
	}
	if in.KubeAPIQPS != nil {
		st.KubeAPIQPS = *in.KubeAPIQPS
	}
	if in.KubeAPIBurst != nil {
		st.KubeAPIBurst = *in.KubeAPIBurst
	}
	if k, ok := model.ParseKubeletSync(in.KubeletSync); ok {
		st.KubeletSync = k
	}
	if len(in.Images) > 0 {
		st.Images = map[string]model.ImageSpec{}
		for _, im := range in.Images {
			spec := model.ImageSpec{Missing: im.Missing}
			if im.PullTime != nil {
				spec.PullTime, spec.PullTimeDist = im.PullTime.Model()
			}
			st.Images[im.Name] = spec
		}
	}
	return st
}

func setDur(out *time.Duration, in *Duration) {
	if in != nil {
		*out = in.D()
	}
}

// Build is Start with sinks subscribed as they are, for a run to
// s.Duration with no budget: it returns the world at time 0.
func (s *Scenario) Build(sinks ...model.Sink) *model.World {
	return s.Start(RunOptions{Until: s.Duration, Attach: func(w *model.World) {
		for _, k := range sinks {
			w.Subscribe(k)
		}
	}}).World
}

// NewWorld returns the scenario's empty world: its seed and settings.
// Subscribe sinks to it, then Populate it.
func (s *Scenario) NewWorld() *model.World { return cluster.New(s.Seed, s.Settings()) }

// Populate adds the scenario's nodes, pods, workloads, behaviors and faults
// to w, a world from NewWorld, at time 0.
func (s *Scenario) Populate(w *model.World) {
	sp := &s.File.Spec
	if len(s.nodes) == 0 && len(sp.NodeGroups) == 0 && !s.hasNodePools() {
		w.AddNode(model.NodeSpec{Name: DefaultNodeName, Capacity: defaultCapacity,
			Shutdown: effectiveShutdown(&NodeShutdown{}, &sp.Settings.NodeShutdown)})
	}
	for _, n := range s.nodes {
		s.addNodes(w, n)
	}
	addGroupNodes(w)
	behaviors := s.behaviors()
	s.addObjects(w, behaviors)
	for i := range sp.Faults {
		s.scheduleFault(w, i, &sp.Faults[i], behaviors)
	}
	s.startTraffic(w)
	s.scheduleRandomFailures(w)
}

// AddObjects adds the scenario's priority classes, pods, workloads,
// budgets and Services to w at its current time, as Populate adds them at
// 0, without nodes, behaviours or faults: the objects of manifests a
// client creates in a running world (podsim serve's kubectl apply).
func (s *Scenario) AddObjects(w *model.World) { s.addObjects(w, nil) }

func (s *Scenario) addObjects(w *model.World, behaviors map[string]map[behaviorKey]*model.Behavior) {
	for _, c := range s.priorityClasses() {
		w.AddPriorityClass(c)
	}
	own := s.owners()
	for _, p := range s.pods {
		if own.owner[p] == nil { // an owned pod is adopted by its workload
			s.addPod(w, p, behaviors[model.Key(p.Metadata.Namespace, p.Metadata.Name)])
		}
	}
	for _, wl := range s.workloads {
		if own.folded[wl] != nil {
			continue // a Deployment's ReplicaSet: the Deployment adopts it
		}
		switch wl.Kind {
		case kindPDB:
			w.AddPodDisruptionBudget(pdbSpec(wl))
			continue
		case kindPriorityClass:
			continue // added first
		case kindService:
			w.AddService(serviceSpec(wl))
			continue
		case kindHPA, kindNodePool:
			continue // added after every workload
		}
		b := behaviors[model.Key(wl.Metadata.Namespace, wl.Metadata.Name)]
		spec := workloadSpec(wl, b)
		spec.Snapshot = s.workloadSnapshot(wl, &spec, own, b)
		w.AddWorkload(spec)
	}
	s.addAutoscalers(w)
	s.addNodePools(w)
}

// workloadSpec converts a controller object with Kubernetes' defaults.
func workloadSpec(wl *Workload, behaviors map[behaviorKey]*model.Behavior) model.WorkloadSpec {
	if wl.Kind == model.KindCronJob {
		return cronJobSpec(wl, behaviors)
	}
	sp := &wl.Spec
	num := func(v *int32, def int) int {
		if v == nil {
			return def
		}
		return int(*v)
	}
	tmpl := &sp.Template
	out := model.WorkloadSpec{
		Kind:     wl.Kind,
		Name:     wl.Metadata.Name,
		Template: podSpec(&tmpl.Spec, behaviors),
		Options:  podOptions(&tmpl.Metadata, &tmpl.Spec),
		Replicas: num(sp.Replicas, 1),
	}
	out.Options.Namespace = wl.Metadata.Namespace // a template's own namespace is ignored, as by Kubernetes
	out.MinReadySeconds = num(sp.MinReadySeconds, 0)
	if wl.Kind == model.KindDeployment {
		deploymentStrategy(sp, &out)
	}
	if sp.PodManagementPolicy == "Parallel" {
		out.PodManagement = model.Parallel
	}
	if wl.Kind == model.KindJob {
		jobContainers(out.Template)
		out.Completions = num(sp.Completions, 1)
		out.Parallelism = num(sp.Parallelism, 1)
		out.BackoffLimit = num(sp.BackoffLimit, 6)
		if sp.ActiveDeadlineSeconds != nil {
			d := sim.Seconds(*sp.ActiveDeadlineSeconds)
			out.ActiveDeadline = &d
		}
		jobPolicies(&sp.JobPolicies, sp.BackoffLimit == nil, &out)
	}
	return out
}

// pdbSpec converts a PodDisruptionBudget.
func pdbSpec(wl *Workload) model.PDBSpec {
	sp := &wl.Spec
	out := model.PDBSpec{Name: wl.Metadata.Name, Namespace: wl.Metadata.Namespace, MinAvailable: sp.MinAvailable.model(), MaxUnavailable: sp.MaxUnavailable.model(),
		AlwaysAllowUnhealthy: sp.UnhealthyPodEvictionPolicy == "AlwaysAllow"}
	if sp.Selector != nil {
		out.Selector = sp.Selector.MatchLabels
	}
	return out
}

// behaviorKey names a container's behaviour: by container, and by image
// ("" for every image without one of its own).
type behaviorKey struct{ container, image string }

// behaviors indexes behavior by pod (or workload) key (model.Key), then
// container and image.
func (s *Scenario) behaviors() map[string]map[behaviorKey]*model.Behavior {
	out := map[string]map[behaviorKey]*model.Behavior{}
	for i := range s.File.Spec.Behavior {
		b := &s.File.Spec.Behavior[i]
		key := model.Key(b.Namespace, b.Pod)
		if out[key] == nil {
			out[key] = map[behaviorKey]*model.Behavior{}
		}
		out[key][behaviorKey{b.Container, b.Image}] = behavior(b)
	}
	return out
}

// behaviorOf returns the behaviour of a container running image: its
// image's own, else the container's.
func behaviorOf(behaviors map[behaviorKey]*model.Behavior, container, image string) *model.Behavior {
	if b := behaviors[behaviorKey{container, image}]; b != nil {
		return b
	}
	return behaviors[behaviorKey{container, ""}]
}

// completes is the behaviour of a process that is there to finish (an
// init container's, a Job's container's) and says nothing of its runs: it
// exits 0 at once.
var completes = []model.RunSpec{{Times: 1}}

// initBehavior returns init container c's behaviour: c's own, with
// completes for runs if it has none (and is not a sidecar, which runs on).
func initBehavior(c *model.ContainerSpec) *model.Behavior {
	if c.Sidecar {
		return c.Behavior
	}
	return completing(c.Behavior)
}

// completing returns b with completes for runs if it has none.
func completing(b *model.Behavior) *model.Behavior {
	switch {
	case b == nil:
		return &model.Behavior{Runs: completes}
	case len(b.Runs) == 0:
		c := *b
		c.Runs = completes
		return &c
	}
	return b
}

// jobContainers gives each regular container of a Job's pod template that
// says nothing of its runs completes: a Job's pod runs its command and
// exits, as on a cluster, instead of running until its deadline.
func jobContainers(t *model.PodSpec) {
	for i := range t.Containers {
		t.Containers[i].Behavior = completing(t.Containers[i].Behavior)
	}
}

func behavior(b *Behavior) *model.Behavior {
	mb := &model.Behavior{}
	if b.StartupTime != nil {
		mb.StartupTime, mb.StartupTimeDist = b.StartupTime.Model()
	}
	if b.ShutdownTime != nil {
		mb.ShutdownTime, mb.ShutdownTimeDist = b.ShutdownTime.Model()
	}
	if b.ShutdownExitCode != nil {
		mb.ShutdownExitCode = *b.ShutdownExitCode
	}
	for kind, ws := range [...][]Window{model.Liveness: b.Probes.Liveness, model.Readiness: b.Probes.Readiness, model.Startup: b.Probes.Startup} {
		for _, w := range ws {
			mw := model.Window{From: w.From.D(), SinceStart: w.SinceStart}
			setDur(&mw.To, w.To)
			mb.ProbeFailures[kind] = append(mb.ProbeFailures[kind], mw)
		}
		mb.ProbeFailures[kind] = model.NormalizeWindows(mb.ProbeFailures[kind])
	}
	if h := b.Hooks.PostStart; h != nil {
		mb.PostStart = model.HookBehavior{Fail: h.Fail}
		mb.PostStart.Duration, mb.PostStart.DurationDist = h.Duration.Model()
	}
	if h := b.Hooks.PreStop; h != nil {
		mb.PreStop = model.HookBehavior{Fail: h.Fail}
		mb.PreStop.Duration, mb.PreStop.DurationDist = h.Duration.Model()
	}
	if b.MaxRPS != nil {
		mb.MaxRPS = *b.MaxRPS
	}
	mb.Usage, mb.PerRequest = b.Usage.model(), b.PerRequest.model()
	if l := b.Leak; l != nil && l.Memory != nil {
		mb.LeakMemory, mb.LeakPer = l.Memory.Value(), time.Minute
		setDur(&mb.LeakPer, l.Per)
	}
	for _, r := range b.Runs {
		rs := model.RunSpec{Times: 1, OOM: r.OOM}
		if r.Times != nil {
			rs.Times = *r.Times
		}
		if r.ExitCode != nil {
			rs.ExitCode = *r.ExitCode
		}
		if r.CrashProbability != nil {
			rs.CrashProbability = *r.CrashProbability
		}
		switch {
		case r.ExitAfter != nil:
			rs.ExitAfter, rs.ExitAfterDist = r.ExitAfter.Model()
			// A run that may crash, and says nothing else, runs on
			// when it does not crash.
			rs.Forever = rs.CrashProbability > 0 && r.ExitCode == nil && !r.OOM
		case r.ExitCode == nil && !r.OOM:
			rs.Forever = true
		}
		mb.Runs = append(mb.Runs, rs)
	}
	return mb
}

func podOptions(m *ObjectMeta, ps *PodSpec) model.PodOptions {
	o := model.PodOptions{Namespace: m.Namespace, Labels: m.Labels, Annotations: m.Annotations}
	for _, t := range ps.Tolerations {
		o.Tolerations = append(o.Tolerations, model.Toleration{Key: t.Key, Operator: t.Operator, Value: t.Value,
			Effect: t.Effect, Seconds: t.TolerationSeconds})
	}
	for _, g := range ps.SchedulingGates {
		o.SchedulingGates = append(o.SchedulingGates, g.Name)
	}
	return o
}

// podSpec converts a pod spec, with Kubernetes' defaults, attaching the
// behavior of each container.
func podSpec(ps *PodSpec, behaviors map[behaviorKey]*model.Behavior) *model.PodSpec {
	out := &model.PodSpec{
		NodeName:               ps.NodeName,
		NodeSelector:           ps.NodeSelector,
		RestartPolicy:          model.RestartAlways,
		TerminationGracePeriod: 30 * time.Second,
	}
	if ps.RestartPolicy != "" {
		out.RestartPolicy = model.RestartPolicy(ps.RestartPolicy)
	}
	if g := ps.TerminationGracePeriodSeconds; g != nil {
		out.TerminationGracePeriod = sim.Seconds(*g)
	}
	if d := ps.ActiveDeadlineSeconds; d != nil {
		ad := sim.Seconds(*d)
		out.ActiveDeadline = &ad
	}
	for i := range ps.InitContainers {
		c := containerSpec(&ps.InitContainers[i], behaviors)
		c.Behavior = initBehavior(&c)
		out.InitContainers = append(out.InitContainers, c)
	}
	for i := range ps.Containers {
		c := containerSpec(&ps.Containers[i], behaviors)
		c.Sidecar = false
		c.RestartPolicy, c.RestartRules = model.RestartPolicy(ps.Containers[i].RestartPolicy), restartRules(&ps.Containers[i])
		out.Containers = append(out.Containers, c)
	}
	for _, g := range ps.ReadinessGates {
		out.ReadinessGates = append(out.ReadinessGates, g.ConditionType)
	}
	schedulingSpec(ps, out)
	return out
}

func containerSpec(c *Container, behaviors map[behaviorKey]*model.Behavior) model.ContainerSpec {
	out := model.ContainerSpec{
		Name:         c.Name,
		Image:        c.Image,
		PullPolicy:   model.PullPolicy(c.ImagePullPolicy),
		Sidecar:      c.RestartPolicy == "Always",
		Behavior:     behaviorOf(behaviors, c.Name, c.Image),
		Liveness:     probeSpec(c.LivenessProbe),
		Readiness:    probeSpec(c.ReadinessProbe),
		Startup:      probeSpec(c.StartupProbe),
		ResizePolicy: resizePolicy(c),
	}
	for _, p := range c.Ports {
		out.Ports = append(out.Ports, model.ContainerPort{Name: p.Name, Port: int(p.ContainerPort)})
	}
	if l := c.Lifecycle; l != nil {
		out.PostStart = handlerKind(l.PostStart)
		out.PreStop = handlerKind(l.PreStop)
		out.PostStartSleep, out.PreStopSleep = sleepSeconds(l.PostStart), sleepSeconds(l.PreStop)
	}
	if out.PullPolicy == "" {
		out.PullPolicy = defaultPullPolicy(c.Image)
	}
	if q, ok := c.Resources.Requests["cpu"]; ok {
		out.Requests.MilliCPU = q.MilliValue()
	} else if q, ok := c.Resources.Limits["cpu"]; ok {
		out.Requests.MilliCPU = q.MilliValue() // a limit alone defaults the request
	}
	out.Limits = limits(&c.Resources)
	if q, ok := c.Resources.Requests["memory"]; ok {
		out.Requests.Memory = q.Value()
	} else if q, ok := c.Resources.Limits["memory"]; ok {
		out.Requests.Memory = q.Value()
	}
	return out
}

// probeSpec applies Kubernetes' probe defaults.
func probeSpec(p *Probe) *model.ProbeSpec {
	if p == nil {
		return nil
	}
	secs := func(v *int32, def int32) time.Duration {
		if v == nil {
			return sim.Seconds(int64(def))
		}
		return sim.Seconds(int64(*v))
	}
	count := func(v *int32, def int32) int {
		if v == nil {
			return int(def)
		}
		return int(*v)
	}
	out := &model.ProbeSpec{
		Handler:          handlerKind(&p.Handler),
		InitialDelay:     secs(p.InitialDelaySeconds, 0),
		Period:           secs(p.PeriodSeconds, 10),
		Timeout:          secs(p.TimeoutSeconds, 1),
		SuccessThreshold: count(p.SuccessThreshold, 1),
		FailureThreshold: count(p.FailureThreshold, 3),
	}
	if g := p.TerminationGracePeriodSeconds; g != nil {
		d := sim.Seconds(*g)
		out.TerminationGracePeriod = &d
	}
	probeTarget(&p.Handler, out)
	return out
}

// probeTarget copies what a probe's handler checks into out, for the views.
func probeTarget(h *Handler, out *model.ProbeSpec) {
	var t struct {
		Command []string `yaml:"command"`
		Scheme  string   `yaml:"scheme"`
		Host    string   `yaml:"host"`
		Port    any      `yaml:"port"`
		Path    string   `yaml:"path"`
		Service *string  `yaml:"service"`
	}
	n := h.Exec
	for _, x := range []*yaml.Node{h.HTTPGet, h.TCPSocket, h.GRPC} {
		if n == nil {
			n = x
		}
	}
	if n == nil || n.Decode(&t) != nil {
		return
	}
	out.Command, out.Scheme, out.Host, out.Path = t.Command, t.Scheme, t.Host, t.Path
	if t.Port != nil {
		out.Port = fmt.Sprint(t.Port)
	}
	if t.Service != nil {
		out.Service = *t.Service
	}
	if h.HTTPGet != nil && out.Scheme == "" {
		out.Scheme = "HTTP" // the API server's default
	}
}

// handlerKind names the one handler a probe or hook has ("" for none).
func handlerKind(h *Handler) string {
	switch {
	case h == nil:
		return ""
	case h.Exec != nil:
		return "exec"
	case h.HTTPGet != nil:
		return "httpGet"
	case h.TCPSocket != nil:
		return "tcpSocket"
	case h.GRPC != nil:
		return "grpc"
	case h.Sleep != nil:
		return "sleep"
	}
	return ""
}

// defaultPullPolicy is the API server's default: Always for the latest tag
// or no tag, IfNotPresent otherwise.
func defaultPullPolicy(image string) model.PullPolicy {
	ref := image
	if i := lastIndexAny(ref, "@"); i >= 0 {
		return model.PullIfNotPresent // pinned by digest
	}
	slash := lastIndexAny(ref, "/")
	colon := lastIndexAny(ref, ":")
	if colon <= slash || ref[colon+1:] == "latest" {
		return model.PullAlways
	}
	return model.PullIfNotPresent
}

func lastIndexAny(s, chars string) int {
	for i := len(s) - 1; i >= 0; i-- {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return i
			}
		}
	}
	return -1
}

// maxRandomFailures bounds the failures drawn for one node.
const maxRandomFailures = 100000

// scheduleRandomFailures draws, for every node with an mtbf, when it fails
// during the run: gaps between failures are exponential with mean mtbf and
// start after the node is repaired (repairTime; none: it stays down). Each
// node draws from its own stream, "node/<name>/failures".
func (s *Scenario) scheduleRandomFailures(w *model.World) {
	for _, n := range s.nodes {
		if n.MTBF == nil || n.MTBF.D() <= 0 {
			continue
		}
		count := 1
		if n.Count != nil {
			count = *n.Count
		}
		gap := model.Exponential{Mean: n.MTBF.D()}
		for _, name := range ExpandNodeNames(n.Name, count) {
			r := w.Engine().Rand("node/" + name + "/failures")
			for k, t := 0, gap.Sample(r); t <= s.Duration && k < maxRandomFailures; k++ {
				if n.RepairTime == nil {
					w.Schedule(t, func() { w.Node(name).PowerOff(nil) })
					break
				}
				d := n.RepairTime.Sample(r)
				w.Schedule(t, func() { w.Node(name).PowerOff(&d) })
				t = sim.AddSat(t, sim.AddSat(d, gap.Sample(r)))
			}
		}
	}
}

func isNilPtr(x any) bool {
	if x == nil {
		return true
	}
	v := reflect.ValueOf(x)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func isNilNode(x any) bool {
	n, ok := x.(*yaml.Node)
	return ok && (n == nil || n.Tag == "!!null")
}

// restartRules converts a regular container's restartPolicyRules.
func restartRules(c *Container) []model.RestartRule {
	var out []model.RestartRule
	for _, r := range c.RestartPolicyRules {
		if e := r.ExitCodes; e != nil {
			out = append(out, model.RestartRule{NotIn: e.Operator == "NotIn", ExitCodes: e.Values})
		}
	}
	return out
}
