package model

import (
	"slices"
	"strconv"
	"strings"
)

// Well-known labels the scheduler's plugins read
// (staging/src/k8s.io/api/core/v1/well_known_labels.go).
const (
	// LabelHostname is on every node, its name: the kubelet sets it.
	LabelHostname = "kubernetes.io/hostname"
	// LabelZone is a node's availability zone, set by the cloud provider
	// (in a scenario, by the node's labels).
	LabelZone = "topology.kubernetes.io/zone"
	// LabelNamespaceName is on every namespace, its name.
	LabelNamespaceName = "kubernetes.io/metadata.name"
)

// kubeletLabels are the labels the kubelet registers its node with
// (pkg/kubelet/kubelet_node_status.go, initialNode): its hostname, the
// OS and architecture it runs on (a simulated node is linux/amd64) and
// their beta aliases.
var kubeletLabels = [...][2]string{
	{"kubernetes.io/os", "linux"},
	{"kubernetes.io/arch", "amd64"},
	{"beta.kubernetes.io/os", "linux"},
	{"beta.kubernetes.io/arch", "amd64"},
}

// cloudLabelPairs are the labels the kubelet sets from its cloud
// provider under both a stable and a deprecated name (initialNode):
// a node that carries either name carries the other too.
var cloudLabelPairs = [...][2]string{
	{"node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type"},
	{LabelZone, "failure-domain.beta.kubernetes.io/zone"},
	{"topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/region"},
}

// registeredLabels returns a node's labels as its kubelet registers them:
// the defaults above, then the node's own labels (--node-labels win over
// the defaults), then the other name of each cloud label it has.
func registeredLabels(name string, own map[string]string) map[string]string {
	l := make(map[string]string, len(own)+len(kubeletLabels)+1)
	l[LabelHostname] = name
	for _, kv := range kubeletLabels {
		l[kv[0]] = kv[1]
	}
	for k, v := range own {
		l[k] = v
	}
	for _, p := range cloudLabelPairs {
		if v, ok := own[p[0]]; ok {
			if _, set := own[p[1]]; !set {
				l[p[1]] = v
			}
		} else if v, ok := own[p[1]]; ok {
			l[p[0]] = v
		}
	}
	return l
}

// SelectorOp is the operator of a label or node selector requirement.
type SelectorOp uint8

// Selector operators: a label selector takes In, NotIn, Exists and
// DoesNotExist; a node selector also Gt and Lt.
const (
	OpIn SelectorOp = iota + 1
	OpNotIn
	OpExists
	OpDoesNotExist
	OpGt
	OpLt
)

var selectorOpNames = [...]string{OpIn: "In", OpNotIn: "NotIn", OpExists: "Exists",
	OpDoesNotExist: "DoesNotExist", OpGt: "Gt", OpLt: "Lt"}

func (o SelectorOp) String() string {
	if int(o) < len(selectorOpNames) {
		return selectorOpNames[o]
	}
	return ""
}

// ParseSelectorOp returns the operator called name, or 0.
func ParseSelectorOp(name string) SelectorOp {
	for i, n := range selectorOpNames {
		if n != "" && n == name {
			return SelectorOp(i)
		}
	}
	return 0
}

// Requirement is one key, an operator and values: a label selector's
// matchExpressions entry, or a node selector term's.
type Requirement struct {
	Key      string
	Operator SelectorOp
	Values   []string
}

// matches reports whether labels satisfy r, as
// k8s.io/apimachinery/pkg/labels.Requirement.Matches does: NotIn and
// DoesNotExist hold for a missing key; Gt and Lt compare the label and the
// only value as integers and fail if either is not one.
func (r *Requirement) matches(labels map[string]string) bool {
	v, ok := labels[r.Key]
	switch r.Operator {
	case OpIn:
		return ok && slices.Contains(r.Values, v)
	case OpNotIn:
		return !ok || !slices.Contains(r.Values, v)
	case OpExists:
		return ok
	case OpDoesNotExist:
		return !ok
	case OpGt, OpLt:
		if !ok || len(r.Values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(v, 10, 64)
		want, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == OpGt {
			return have > want
		}
		return have < want
	}
	return false
}

// LabelSelector is a Kubernetes label selector: every matchLabels pair and
// every expression must hold. An empty selector matches every object; a nil
// *LabelSelector matches none (metav1.LabelSelectorAsSelector).
type LabelSelector struct {
	MatchLabels      map[string]string
	MatchExpressions []Requirement
}

// Matches reports whether labels satisfy the selector; nil matches nothing.
func (s *LabelSelector) Matches(labels map[string]string) bool {
	if s == nil {
		return false
	}
	for k, v := range s.MatchLabels { // order is moot: any mismatch rejects
		if have, ok := labels[k]; !ok || have != v {
			return false
		}
	}
	for i := range s.MatchExpressions {
		if !s.MatchExpressions[i].matches(labels) {
			return false
		}
	}
	return true
}

// and returns a selector that requires what s and o both require.
func (s *LabelSelector) and(o *LabelSelector) *LabelSelector {
	if s == nil || o == nil {
		return nil
	}
	out := &LabelSelector{MatchLabels: map[string]string{}}
	for _, x := range []*LabelSelector{s, o} {
		for k, v := range x.MatchLabels {
			if have, ok := out.MatchLabels[k]; ok && have != v {
				// Two values for one key: nothing matches both.
				out.MatchExpressions = append(out.MatchExpressions, Requirement{Key: k, Operator: OpIn})
				continue
			}
			out.MatchLabels[k] = v
		}
		out.MatchExpressions = append(out.MatchExpressions, x.MatchExpressions...)
	}
	return out
}

// writeKey appends a canonical form of the selector to b: two selectors
// with the same form select the same objects.
func (s *LabelSelector) writeKey(b *strings.Builder) {
	if s == nil {
		b.WriteString("<none>")
		return
	}
	keys := make([]string, 0, len(s.MatchLabels))
	for k := range s.MatchLabels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(s.MatchLabels[k])
		b.WriteByte(',')
	}
	exprs := make([]string, 0, len(s.MatchExpressions))
	for _, r := range s.MatchExpressions {
		vals := slices.Clone(r.Values)
		slices.Sort(vals)
		exprs = append(exprs, r.Key+" "+r.Operator.String()+" ("+strings.Join(vals, ",")+")")
	}
	slices.Sort(exprs)
	b.WriteString(strings.Join(exprs, ";"))
}

// NodeSelectorTerm is one term of a required node affinity: every
// expression on the node's labels and every field (only metadata.name)
// must hold. A term with neither matches no node.
type NodeSelectorTerm struct {
	MatchExpressions []Requirement
	MatchFields      []Requirement // key metadata.name, In or NotIn
}

// FieldNodeName is the only field a node selector term's matchFields reads.
const FieldNodeName = "metadata.name"

// matches reports whether node n satisfies the term
// (k8s.io/component-helpers/scheduling/corev1/nodeaffinity).
func (t *NodeSelectorTerm) matches(n *Node) bool {
	if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
		return false
	}
	for i := range t.MatchExpressions {
		if !t.MatchExpressions[i].matches(n.Labels) {
			return false
		}
	}
	for i := range t.MatchFields {
		f := &t.MatchFields[i]
		in := slices.Contains(f.Values, n.Name)
		if f.Key != FieldNodeName || f.Operator == OpIn && !in || f.Operator == OpNotIn && in ||
			f.Operator != OpIn && f.Operator != OpNotIn {
			return false
		}
	}
	return true
}

// namespaceLabels are the labels of the namespace called ns: podsim's
// namespaces carry only the one every namespace gets.
func namespaceLabels(ns string) map[string]string {
	return map[string]string{LabelNamespaceName: ns}
}
