package serve

import (
	"fmt"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
)

// apiResource is one resource of the API: where it lives, how its stored
// snapshots are shown as objects and as kubectl's table rows, and which
// fields a field selector may name.
type apiResource struct {
	group, version       string // group "" is the core group
	name, singular, kind string
	namespaced           bool
	shortNames           []string
	categories           []string // "all": what kubectl get all lists
	col                  collection
	object               func(m moment, s snapshot) runtime.Object
	columns              []metav1.TableColumnDefinition
	cells                func(m moment, s snapshot) []any
	fields               func(s snapshot) fields.Set
}

// scalable reports whether the resource has a scale subresource.
func (r *apiResource) scalable() bool {
	return r.col == colDeployments || r.col == colReplicaSets || r.col == colStatefulSets
}

func (r *apiResource) groupVersion() string {
	if r.group == "" {
		return r.version
	}
	return r.group + "/" + r.version
}

// col is a column of kubectl's table; wide columns are priority 1.
func col(name, typ string, wide bool, desc string) metav1.TableColumnDefinition {
	c := metav1.TableColumnDefinition{Name: name, Type: typ, Description: desc}
	if name == "Name" {
		c.Format = "name"
	}
	if wide {
		c.Priority = 1
	}
	return c
}

var (
	nameCol       = col("Name", "string", false, "Name must be unique within a namespace.")
	ageCol        = col("Age", "string", false, "CreationTimestamp: when the object was created.")
	containersCol = col("Containers", "string", true, "Names of each container in the template.")
	imagesCol     = col("Images", "string", true, "Images referenced by each container in the template.")
	selectorCol   = col("Selector", "string", true, "Label query over pods.")
)

// all is the category of the workloads and their pods (kubectl get all).
var all = []string{"all"}

// metaFields are the fields every resource can be selected by.
func metaFields(s snapshot) fields.Set {
	m := s.base()
	return fields.Set{"metadata.name": m.name, "metadata.namespace": m.namespace}
}

// resources is every resource podsim serves, in discovery order. Column
// names and cells follow kubectl's printers
// (pkg/printers/internalversion/printers.go).
var resources = []*apiResource{
	{version: "v1", name: "namespaces", singular: "namespace", kind: "Namespace", shortNames: []string{"ns"}, col: colNamespaces,
		object:  func(m moment, s snapshot) runtime.Object { return m.namespace(s.(*namespaceSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol, col("Status", "string", false, "The status of the namespace"), ageCol},
		cells: func(m moment, s snapshot) []any {
			return []any{s.base().name, "Active", report.HumanDuration(m.now - s.base().created)}
		},
		fields: func(s snapshot) fields.Set {
			f := metaFields(s)
			f["status.phase"] = "Active"
			return f
		}},
	{version: "v1", name: "nodes", singular: "node", kind: "Node", shortNames: []string{"no"}, col: colNodes,
		object: func(m moment, s snapshot) runtime.Object { return m.node(s.(*nodeSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol, col("Status", "string", false, "The status of the node"),
			col("Roles", "string", false, "The roles of the node"), ageCol, col("Version", "string", false, "Kubelet Version reported by the node."),
			col("Internal-IP", "string", true, "List of addresses reachable to the node."), col("External-IP", "string", true, "List of addresses reachable to the node."),
			col("OS-Image", "string", true, "OS Image reported by the node."), col("Kernel-Version", "string", true, "Kernel Version reported by the node."),
			col("Container-Runtime", "string", true, "ContainerRuntime Version reported by the node.")},
		cells: func(m moment, s snapshot) []any {
			n := s.(*nodeSnap)
			return []any{n.name, nodeStatus(n), report.NodeRoles(n.labels), report.HumanDuration(m.now - n.created), KubeletVersion,
				"<none>", "<none>", "podsim", "<unknown>", "podsim://" + KubeletVersion}
		},
		fields: func(s snapshot) fields.Set {
			f := metaFields(s)
			f["spec.unschedulable"] = strconv.FormatBool(s.(*nodeSnap).unschedulable)
			return f
		}},
	{version: "v1", categories: all, name: "pods", singular: "pod", kind: "Pod", namespaced: true, shortNames: []string{"po"}, col: colPods,
		object: func(m moment, s snapshot) runtime.Object { return m.pod(s.(*podSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol,
			col("Ready", "string", false, "The aggregate readiness state of this pod for accepting traffic."),
			col("Status", "string", false, "The aggregate status of the containers in this pod."),
			col("Restarts", "string", false, "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted."),
			ageCol,
			col("IP", "string", true, "IP address allocated to the pod."),
			col("Node", "string", true, "NodeName is the node the pod is bound to."),
			col("Nominated Node", "string", true, "nominatedNodeName is set when this pod preempts other pods on the node."),
			col("Readiness Gates", "string", true, "If specified, all readiness gates will be evaluated for pod readiness.")},
		cells: func(m moment, s snapshot) []any {
			p := s.(*podSnap)
			r := p.view.Row(m.now)
			return []any{r.Name, r.Ready, r.Status, r.Restarts, r.Age, r.IP, r.Node, r.NominatedNode, r.ReadinessGates}
		},
		fields: func(s snapshot) fields.Set {
			p := s.(*podSnap)
			f := metaFields(s)
			f["spec.nodeName"] = p.view.Node
			f["spec.restartPolicy"] = string(p.view.Spec.RestartPolicy)
			f["spec.schedulerName"] = "default-scheduler"
			f["spec.serviceAccountName"] = ""
			f["spec.hostNetwork"] = "false"
			f["status.phase"] = string(p.view.Status.Phase)
			f["status.podIP"] = p.view.Status.PodIP
			f["status.nominatedNodeName"] = p.view.Nominated
			return f
		}},
	{version: "v1", name: "events", singular: "event", kind: "Event", namespaced: true, shortNames: []string{"ev"}, col: colEvents,
		object:  func(m moment, s snapshot) runtime.Object { return m.event(s.(*eventSnap)) },
		columns: eventColumns, cells: eventCells, fields: eventFields},
	{group: "apps", version: "v1", categories: all, name: "deployments", singular: "deployment", kind: "Deployment", namespaced: true,
		shortNames: []string{"deploy"}, col: colDeployments,
		object: func(m moment, s snapshot) runtime.Object { return m.deployment(s.(*workloadSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol, col("Ready", "string", false, "Number of the pod with ready state"),
			col("Up-to-date", "string", false, "Total number of non-terminated pods targeted by this deployment that have the desired template spec."),
			col("Available", "string", false, "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment."),
			ageCol, containersCol, imagesCol, selectorCol},
		cells: func(m moment, s snapshot) []any {
			w := s.(*workloadSnap)
			return append([]any{w.name, fmt.Sprintf("%d/%d", w.rs.ReadyReplicas, w.replicas), int64(w.rs.UpdatedReplicas),
				int64(w.rs.AvailableReplicas), report.HumanDuration(m.now - w.created)}, w.templateCells(true)...)
		}, fields: metaFields},
	{group: "apps", version: "v1", categories: all, name: "replicasets", singular: "replicaset", kind: "ReplicaSet", namespaced: true,
		shortNames: []string{"rs"}, col: colReplicaSets,
		object: func(m moment, s snapshot) runtime.Object { return m.replicaSet(s.(*workloadSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol, col("Desired", "integer", false, "Replicas is the number of desired replicas."),
			col("Current", "integer", false, "Replicas is the most recently observed number of replicas."),
			col("Ready", "integer", false, "readyReplicas is the number of pods targeted by this ReplicaSet with a Ready Condition."),
			ageCol, containersCol, imagesCol, selectorCol},
		cells: func(m moment, s snapshot) []any {
			w := s.(*workloadSnap)
			return append([]any{w.name, int64(w.replicas), int64(w.rs.Replicas), int64(w.rs.ReadyReplicas),
				report.HumanDuration(m.now - w.created)}, w.templateCells(true)...)
		}, fields: metaFields},
	{group: "apps", version: "v1", categories: all, name: "daemonsets", singular: "daemonset", kind: "DaemonSet", namespaced: true,
		shortNames: []string{"ds"}, col: colDaemonSets,
		object: func(m moment, s snapshot) runtime.Object { return m.daemonSet(s.(*workloadSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol,
			col("Desired", "integer", false, "The total number of nodes that should be running the daemon pod."),
			col("Current", "integer", false, "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod."),
			col("Ready", "integer", false, "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition."),
			col("Up-to-date", "integer", false, "The total number of nodes that are running updated daemon pod"),
			col("Available", "integer", false, "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available."),
			col("Node Selector", "string", false, "NodeSelector is a selector which must be true for the pod to fit on a node."),
			ageCol, containersCol, imagesCol, selectorCol},
		cells: func(m moment, s snapshot) []any {
			w := s.(*workloadSnap)
			st := &w.status
			return append([]any{w.name, int64(st.replicas), int64(st.scheduled), int64(st.ready), int64(st.scheduled), int64(st.ready),
				labelString(w.tmpl.NodeSelector), report.HumanDuration(m.now - w.created)}, w.templateCells(true)...)
		}, fields: metaFields},
	{group: "apps", version: "v1", categories: all, name: "statefulsets", singular: "statefulset", kind: "StatefulSet", namespaced: true,
		shortNames: []string{"sts"}, col: colStatefulSets,
		object:  func(m moment, s snapshot) runtime.Object { return m.statefulSet(s.(*workloadSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol, col("Ready", "string", false, "Number of the pod with ready state"), ageCol, containersCol, imagesCol},
		cells: func(m moment, s snapshot) []any {
			w := s.(*workloadSnap)
			return append([]any{w.name, fmt.Sprintf("%d/%d", w.status.ready, w.replicas), report.HumanDuration(m.now - w.created)},
				w.templateCells(false)...)
		},
		fields: metaFields},
	{group: "batch", version: "v1", categories: all, name: "jobs", singular: "job", kind: "Job", namespaced: true, col: colJobs,
		object: func(m moment, s snapshot) runtime.Object { return m.job(s.(*workloadSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol, col("Status", "string", false, "Status of the job."),
			col("Completions", "string", false, "The desired number of successfully finished pods the job should be run with."),
			col("Duration", "string", false, "Time required to complete the job."), ageCol, containersCol, imagesCol, selectorCol},
		cells: func(m moment, s snapshot) []any {
			w := s.(*workloadSnap)
			status := report.JobStatusColumn(w.conditions)
			end := m.now
			if w.status.completed {
				end = w.status.completedAt
			}
			return append([]any{w.name, status, fmt.Sprintf("%d/%d", w.status.succeeded, w.spec.Completions),
				report.HumanDuration(end - w.created), report.HumanDuration(m.now - w.created)}, w.templateCells(true)...)
		},
		fields: func(s snapshot) fields.Set {
			f := metaFields(s)
			f["status.successful"] = fmt.Sprint(s.(*workloadSnap).status.succeeded)
			return f
		}},
	{group: "batch", version: "v1", categories: all, name: "cronjobs", singular: "cronjob", kind: "CronJob", namespaced: true,
		shortNames: []string{"cj"}, col: colCronJobs,
		columns: []metav1.TableColumnDefinition{nameCol, col("Schedule", "string", false, "The schedule in Cron format."),
			col("Timezone", "string", false, "The time zone name for the given schedule."),
			col("Suspend", "boolean", false, "This flag tells the controller to suspend subsequent executions."),
			col("Active", "integer", false, "A list of pointers to currently running jobs."),
			col("Last Schedule", "string", false, "Information when was the last time the job was successfully scheduled."),
			ageCol, containersCol, imagesCol, selectorCol},
		object: func(m moment, s snapshot) runtime.Object { return m.cronJob(s.(*workloadSnap)) },
		cells: func(m moment, s snapshot) []any {
			w := s.(*workloadSnap)
			last := "<none>"
			if w.cron.scheduled {
				last = report.HumanDuration(m.now - w.cron.lastSchedule)
			}
			suspend := "False"
			if w.spec.CronJob.Suspend {
				suspend = "True"
			}
			// A CronJob's job template has no selector: <none>.
			return append([]any{w.name, w.spec.CronJob.ScheduleText, "<none>", suspend, int64(len(w.cron.active)), last,
				report.HumanDuration(m.now - w.created)}, append(w.templateCells(false), "<none>")...)
		},
		fields: metaFields},
	{group: "events.k8s.io", version: "v1", name: "events", singular: "event", kind: "Event", namespaced: true,
		shortNames: []string{"ev"}, col: colEvents,
		object:  func(m moment, s snapshot) runtime.Object { return m.eventV1(s.(*eventSnap)) },
		columns: eventColumns, cells: eventCells,
		fields: func(s snapshot) fields.Set {
			f := eventFields(s)
			for _, k := range []string{"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"} {
				f["regarding."+k] = f["involvedObject."+k]
			}
			f["reportingController"] = f["reportingComponent"]
			return f
		}},
	{group: "policy", version: "v1", name: "poddisruptionbudgets", singular: "poddisruptionbudget", kind: "PodDisruptionBudget",
		namespaced: true, shortNames: []string{"pdb"}, col: colPDBs,
		object: func(m moment, s snapshot) runtime.Object { return m.pdb(s.(*pdbSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol, col("Min Available", "string", false, "The minimum number of pods that must be available."),
			col("Max Unavailable", "string", false, "The maximum number of pods that may be unavailable."),
			col("Allowed Disruptions", "integer", false, "Calculated number of pods that may be disrupted at this time."), ageCol},
		cells: func(m moment, s snapshot) []any {
			b := s.(*pdbSnap)
			return []any{b.name, intOrPercent(b.spec.MinAvailable), intOrPercent(b.spec.MaxUnavailable),
				int64(b.status.DisruptionsAllowed), report.HumanDuration(m.now - b.created)}
		},
		fields: metaFields},
	hpaResource("v2"), hpaResource("v1"),
	{group: "coordination.k8s.io", version: "v1", name: "leases", singular: "lease", kind: "Lease", namespaced: true, col: colLeases,
		object:  func(m moment, s snapshot) runtime.Object { return m.lease(s.(*leaseSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol, col("Holder", "string", false, "holderIdentity contains the identity of the holder of a current lease."), ageCol},
		cells: func(m moment, s snapshot) []any {
			return []any{s.base().name, s.(*leaseSnap).node.name, report.HumanDuration(m.now - s.base().created)}
		},
		fields: metaFields},
	{group: "scheduling.k8s.io", version: "v1", name: "priorityclasses", singular: "priorityclass", kind: "PriorityClass",
		shortNames: []string{"pc"}, col: colPriorityClasses,
		object: func(m moment, s snapshot) runtime.Object { return m.priorityClass(s.(*priorityClassSnap)) },
		columns: []metav1.TableColumnDefinition{nameCol,
			col("Value", "integer", false, "value represents the integer value of this priority class."),
			col("Global-Default", "boolean", false, "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class."),
			ageCol, col("PreemptionPolicy", "string", false, "preemptionPolicy is the Policy for preempting pods with lower priority.")},
		cells: func(m moment, s snapshot) []any {
			c := m.priorityClass(s.(*priorityClassSnap))
			return []any{c.Name, int64(c.Value), c.GlobalDefault, report.HumanDuration(m.now - s.base().created), string(*c.PreemptionPolicy)}
		},
		fields: metaFields},
}

var eventColumns = []metav1.TableColumnDefinition{
	col("Last Seen", "string", false, "The time at which the most recent occurrence of this event was recorded."),
	col("Type", "string", false, "Type of this event (Normal, Warning)."),
	col("Reason", "string", false, "Why the action was taken."),
	col("Object", "string", false, "The object this Event is about."),
	col("Subobject", "string", true, "The part of the object the event is about."),
	col("Source", "string", true, "The component reporting this event."),
	col("Message", "string", false, "A human-readable description of the status of this operation."),
	col("First Seen", "string", true, "The time at which the event was first recorded."),
	col("Count", "string", true, "The number of times this event has occurred."),
	col("Name", "string", true, "Name must be unique within a namespace."),
}

// eventCells are kubectl's event row: LAST SEEN shows repeats as
// "45s (x3 over 2m)".
func eventCells(m moment, s snapshot) []any {
	e := s.(*eventSnap)
	first := report.HumanDuration(m.now - e.first)
	last := report.HumanDuration(m.now - e.last)
	if e.count > 1 {
		last = fmt.Sprintf("%s (x%d over %s)", last, e.count, first)
	}
	source := e.source
	if e.host != "" {
		source += ", " + e.host
	}
	return []any{last, e.typ.String(), e.reason, strings.ToLower(e.involved.kind) + "/" + e.involved.name, "", source,
		strings.TrimSpace(e.message), first, int64(e.count), e.name}
}

func eventFields(s snapshot) fields.Set {
	e := eventOf(s)
	f := metaFields(s)
	f["involvedObject.kind"] = e.involved.kind
	f["involvedObject.namespace"] = e.involvedNS
	f["involvedObject.name"] = e.involved.name
	f["involvedObject.uid"] = e.involvedUID()
	f["involvedObject.apiVersion"] = e.involved.apiVersion()
	f["involvedObject.resourceVersion"] = ""
	f["involvedObject.fieldPath"] = ""
	f["reason"] = e.reason
	f["reportingComponent"] = e.source
	f["source"] = e.source
	f["type"] = e.typ.String()
	return f
}

// nodeStatus is kubectl's node STATUS: Ready, NotReady or Unknown, and
// SchedulingDisabled after it for a cordoned node.
func nodeStatus(n *nodeSnap) string {
	status := "Unknown"
	for _, c := range n.conditions {
		if c.Type == model.Ready {
			status = "NotReady"
			if c.Status == model.True {
				status = "Ready"
			}
			break
		}
	}
	if n.unschedulable {
		status += ",SchedulingDisabled"
	}
	return status
}

// intOrPercent is a PodDisruptionBudget's minAvailable or maxUnavailable
// cell: 2, 50% or N/A.
func intOrPercent(v *model.IntOrPercent) string {
	switch {
	case v == nil:
		return "N/A"
	case v.Percent:
		return strconv.Itoa(v.Value) + "%"
	}
	return strconv.Itoa(v.Value)
}

// labelString is a label map as the API machinery prints it: k=v pairs
// sorted by key, comma-separated; <none> when empty.
func labelString(l map[string]string) string {
	if len(l) == 0 {
		return "<none>"
	}
	return labels.Set(l).String()
}

// templateCells are the wide CONTAINERS, IMAGES (and SELECTOR) cells.
func (w *workloadSnap) templateCells(selector bool) []any {
	var names, images []string
	for _, c := range w.tmpl.Containers {
		names = append(names, c.Name)
		images = append(images, c.Image)
	}
	out := []any{strings.Join(names, ","), strings.Join(images, ",")}
	if selector {
		out = append(out, labelString(w.selector))
	}
	return out
}
